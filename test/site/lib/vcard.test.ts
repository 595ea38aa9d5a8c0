/** The vCard writer (src/lib/vcard.ts), checked with an independent parser. */
import { describe, expect, it } from 'vitest';
import { splitName, writeVCard } from '../../../src/lib/vcard.ts';
import { lineProblems, parseVCard } from '../content-lines.ts';

const juda = {
  uid: 'contact-820034@newsroom.northwind.example',
  name: 'Juda de Koning',
  organization: 'Northwind Mobility',
  title: 'Head of Communications',
  email: 'juda.dekoning@northwind.example',
  phone: '+31 20 794 1139',
  mobile: '+31 6 4257 7689',
  website: 'https://www.northwind.example/press',
  urls: [{ type: 'linkedin', url: 'https://www.linkedin.com/in/juda-de-koning' }],
};

describe('writeVCard', () => {
  it('writes a vCard 3.0 with FN, N, ORG, TITLE, EMAIL, TEL (work and cell) and profiles', () => {
    const vcf = writeVCard(juda);
    expect(lineProblems(vcf)).toEqual([]);
    expect(vcf).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    expect(vcf.endsWith('END:VCARD\r\n')).toBe(true);
    const card = parseVCard(vcf);
    expect(card).toMatchObject({
      version: '3.0',
      fn: 'Juda de Koning',
      n: ['de Koning', 'Juda', '', '', ''],
      org: 'Northwind Mobility',
      title: 'Head of Communications',
      emails: ['juda.dekoning@northwind.example'],
      uid: juda.uid,
    });
    expect(card.tels).toEqual([
      { value: '+31 20 794 1139', types: ['WORK', 'VOICE'] },
      { value: '+31 6 4257 7689', types: ['CELL', 'VOICE'] },
    ]);
    expect(card.other).toContainEqual({ name: 'x-socialprofile', value: 'https://www.linkedin.com/in/juda-de-koning', type: 'LINKEDIN' });
    expect(card.other).toContainEqual({ name: 'url', value: 'https://www.northwind.example/press', type: 'WORK' });
  });

  it('escapes commas, semicolons, backslashes and line breaks in text values', () => {
    const vcf = writeVCard({
      ...juda,
      name: 'Zoë van Dijk; Jr., \\ PhD',
      title: 'Head of PR, Benelux; DACH\nand Nordics',
      organization: 'Acme, Inc.',
    });
    const card = parseVCard(vcf);
    // RFC 2426 text escapes `;` too; ical.js's vCard reader keeps `\;` in single text values as written.
    expect(card.fn?.replace(/\\;/g, ';')).toBe('Zoë van Dijk; Jr., \\ PhD');
    expect(card.title?.replace(/\\;/g, ';')).toBe('Head of PR, Benelux; DACH\nand Nordics');
    expect(vcf).toContain('ORG:Acme\\, Inc.\r\n');
    expect(vcf).toContain('N:van Dijk\\; Jr.\\, \\\\ PhD;Zoë;;;\r\n');
  });

  it('folds long lines (an embedded photo) at 75 octets', () => {
    const jpeg = new Uint8Array(5000).map((_, i) => (i * 37) % 256);
    const vcf = writeVCard({ ...juda, photo: { jpeg } });
    expect(lineProblems(vcf)).toEqual([]);
    expect(parseVCard(vcf).photo?.replace(/\s/g, '')).toBe(Buffer.from(jpeg).toString('base64'));
  });

  it('leaves out what is not a plausible address, number or URL', () => {
    const vcf = writeVCard({
      ...juda,
      email: 'not an address',
      phone: 'call us',
      mobile: null,
      website: 'javascript:alert(2)',
      urls: [
        { type: 'x', url: 'javascript:alert(1)' },
        { type: 'linkedin', url: 'https://a.example/x,y' },
      ],
    });
    const card = parseVCard(vcf);
    expect(card.emails).toEqual([]);
    expect(card.tels).toEqual([]);
    expect(card.other).toEqual([]);
  });

  it('refuses a contact without a name', () => {
    expect(() => writeVCard({ ...juda, name: '  ' })).toThrow(/no name/);
  });
});

describe('names and numbers', () => {
  it('splits a name into given and family name', () => {
    expect(splitName('Juda de Koning')).toEqual({ given: 'Juda', family: 'de Koning' });
    expect(splitName('Madonna')).toEqual({ given: '', family: 'Madonna' });
  });
});
