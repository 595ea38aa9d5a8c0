/**
 * Press contacts (cards, vCards, JSON-LD) and coverage (every public clipping with its
 * link out, its anchor, and the release it covers; release pages link back to it).
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator.ts';
import { allElements, elements, jsonLd, loadPages, resolveInternal, text, type BuiltPage } from '../helpers.ts';
import { lineProblems, parseVCard } from '../content-lines.ts';

interface ApiContact {
  id: number;
  name: string;
  job_title: string | null;
  email: string | null;
  phone: string | null;
  avatar: Record<string, unknown> | null;
}
interface ApiClipping {
  id: number;
  title: string;
  url: string;
  source: string | null;
  press_release_id: number | null;
}
interface ApiRelease {
  id: number;
  permalink: string;
}

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');

let contacts: ApiContact[];
let clippings: ApiClipping[];
let releases: ApiRelease[];
let pressroomName: string;
let pages: Map<string, BuiltPage>;

beforeAll(async () => {
  const api = emulator();
  const get = async <T>(p: string) => (await api.json<{ data: T }>(p)).body.data;
  let pressroom: { name: string };
  [contacts, clippings, releases, pressroom] = await Promise.all([
    get<ApiContact[]>('pr_contacts?limit=10000'),
    get<ApiClipping[]>('clippings?limit=10000'),
    get<ApiRelease[]>('press_releases?limit=10000'),
    get<{ name: string }>(''),
  ]);
  pressroomName = pressroom.name;
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));
});

const byId = (page: BuiltPage, id: string) => allElements(page.doc).find((el) => el.attribs.id === id);

describe('press contacts', () => {
  it('has a card per contact with mailto: and tel: links and its vCard', () => {
    const page = pages.get('/contacts/')!;
    expect(page).toBeDefined();
    expect(contacts.length).toBeGreaterThan(1);
    for (const c of contacts) {
      const card = byId(page, `contact-${c.id}`);
      expect(card, c.name).toBeDefined();
      expect(elements(card!, 'h2').map(text)).toEqual([c.name]);
      const hrefs = elements(card!, 'a').map((a) => a.attribs.href);
      if (c.email) expect(hrefs).toContain(`mailto:${c.email}`);
      if (c.phone) expect(hrefs).toContain(`tel:${c.phone.replace(/[^\d+]/g, '')}`);
      expect(hrefs.filter((h) => h?.endsWith('.vcf'))).toHaveLength(1);
    }
  });

  it('writes a vCard per contact whose FN, EMAIL and TEL match the contact', async () => {
    const page = pages.get('/contacts/')!;
    for (const c of contacts) {
      const href = elements(byId(page, `contact-${c.id}`)!, 'a')
        .map((a) => a.attribs.href!)
        .find((h) => h.endsWith('.vcf'))!;
      expect(href).toMatch(new RegExp(`^/contacts/${c.id}-[a-z0-9-]+\\.vcf$`));
      const file = resolveInternal(siteDir, href);
      expect(file, href).toBeTruthy();
      const vcf = await readFile(file!, 'utf8');
      expect(lineProblems(vcf), href).toEqual([]);
      const card = parseVCard(vcf);
      expect(card.version).toBe('3.0');
      expect(card.fn).toBe(c.name);
      expect(card.org).toBe(pressroomName);
      if (c.job_title) expect(card.title).toBe(c.job_title);
      expect(card.emails).toEqual(c.email ? [c.email] : []);
      if (c.phone) expect(card.tels.find((t) => t.types.includes('WORK'))?.value).toBe(c.phone);
      if (c.avatar && Object.keys(c.avatar).length > 0)
        expect(Buffer.from(card.photo!.replace(/\s/g, ''), 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    }
  });

  it('describes each contact as a Person with a ContactPoint', () => {
    const people = (jsonLd(pages.get('/contacts/')!.doc) as Array<Record<string, unknown>>).filter((x) => x['@type'] === 'Person');
    expect(people.map((p) => p.name)).toEqual(contacts.map((c) => c.name));
    for (const p of people) expect((p.contactPoint as Record<string, unknown>)['@type']).toBe('ContactPoint');
  });
});

describe('coverage', () => {
  const coveragePages = () => [...pages.values()].filter((p) => /^\/coverage\/(\d+\/)?$/.test(p.path));

  it('lists every public clipping with its anchor and an external link to the article', () => {
    expect(clippings.length).toBeGreaterThan(5);
    const all = coveragePages();
    expect(all.length).toBeGreaterThan(0);
    for (const c of clippings) {
      const hits = all.flatMap((p) => (byId(p, `clipping-${c.id}`) ? [p] : []));
      expect(hits.length, `clipping ${c.id}`).toBe(1);
      const article = byId(hits[0]!, `clipping-${c.id}`)!;
      const out = elements(article, 'a').find((a) => a.attribs.href === c.url);
      expect(out, `link out for clipping ${c.id}`).toBeDefined();
      expect((out!.attribs.rel ?? '').split(/\s+/)).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
      if (c.source) expect(text(article)).toContain(c.source);
      const release = releases.find((r) => r.id === c.press_release_id);
      if (release) expect(elements(article, 'a').map((a) => a.attribs.href)).toContain(`${release.permalink}/`);
    }
  });

  it("links release pages to their clippings' anchors on /coverage/, which exist", () => {
    let checked = 0;
    for (const page of pages.values()) {
      for (const a of elements(page.doc, 'a')) {
        const match = /^(\/coverage\/(?:\d+\/)?)#(clipping-\d+)$/.exec(a.attribs.href ?? '');
        if (!match) continue;
        const target = pages.get(match[1]!);
        expect(target && byId(target, match[2]!), `${page.path} → ${a.attribs.href}`).toBeTruthy();
        checked++;
      }
    }
    // The home page's latest coverage and every release with linked coverage.
    expect(checked).toBeGreaterThan(10);
  });
});
