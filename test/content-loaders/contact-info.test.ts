/** Contact details found in the free text of `contact_info`, as older answers send them. */
import { describe, expect, it } from 'vitest';
import { parseContactInfo, phoneCountryOf } from '../../content-loaders/contact-info.ts';

describe('parseContactInfo', () => {
  it('finds role, work and mobile numbers (by label or by number type) and the e-mail address', () => {
    expect(
      parseContactInfo('Head of Communications\nT +31 20 794 1139\nM +31 6 4257 7689\nE juda.dekoning@northwind.example', 'NL'),
    ).toEqual({
      jobTitle: 'Head of Communications',
      phone: '+31 20 794 1139',
      mobile: '+31 6 4257 7689',
      email: 'juda.dekoning@northwind.example',
      website: null,
    });
    expect(parseContactInfo('Press office: +49 30 1234567, Handy +49 151 5671 4892', 'DE')).toMatchObject({
      phone: '+49 30 1234567',
      mobile: '+49 151 5671 4892',
    });
  });

  it("reads national numbers in the press room country, web addresses with or without a scheme, and skips the contact's own name", () => {
    const found = parseContactInfo(
      'Juda de Koning\nPress officer\nTel. 020 123 4567 / 06-12345678\npress@acme.nl — www.acme.nl/press.',
      'NL',
      'Juda de Koning',
    );
    expect(found).toEqual({
      jobTitle: 'Press officer',
      phone: '020 123 4567',
      mobile: '06-12345678',
      email: 'press@acme.nl',
      website: 'https://www.acme.nl/press',
    });
    expect(parseContactInfo('Call +1 (415) 555-0132 or write to pr@acme.com (https://acme.com/press)', 'US')).toMatchObject({
      phone: '+1 (415) 555-0132',
      email: 'pr@acme.com',
      website: 'https://acme.com/press',
    });
  });

  it('finds nothing in nothing, and no national number without a country', () => {
    expect(parseContactInfo(null)).toEqual({ email: null, phone: null, mobile: null, website: null, jobTitle: null });
    expect(parseContactInfo('020 123 4567').phone).toBeNull();
    expect(parseContactInfo('020 123 4567', 'NL').phone).toBe('020 123 4567');
    expect(parseContactInfo('Launch on 2026-11-01, ref 20261101', 'NL')).toMatchObject({ phone: null, mobile: null });
    expect(parseContactInfo('M +31 6 9919 5463', 'NL').mobile).toBe('+31 6 9919 5463');
  });
});

describe('phoneCountryOf', () => {
  it('takes the region of the language, else its country, English by time zone', () => {
    expect(phoneCountryOf('nl')).toBe('NL');
    expect(phoneCountryOf('de-AT')).toBe('AT');
    expect(phoneCountryOf('en', 'America/New_York')).toBe('US');
    expect(phoneCountryOf('en', 'Europe/London')).toBe('GB');
    expect(phoneCountryOf('xx')).toBeUndefined();
  });
});
