/**
 * Every public release, tag and custom page of the API has its page at its
 * path, with the right language, title and listings around it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator.ts';
import { elements, loadPages, text, type BuiltPage } from '../helpers.ts';
import { isLegacyPath } from '../../../src/lib/paths.ts';

interface ApiRelease {
  id: number;
  title: string;
  permalink: string;
  language: string;
  release_date: string;
  tags: Array<{ slug: string }>;
  body_html: string;
}
interface ApiTag {
  id: number;
  slug: string;
  name: string;
}
interface ApiPage {
  id: number;
  title: string;
  permalink: string;
  language: string | null;
}

// The build's embedded API: the demo press room with its clock frozen at the demo instant.
const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');

let releases: ApiRelease[];
let tags: ApiTag[];
let customPages: ApiPage[];
let pages: Map<string, BuiltPage>;

beforeAll(async () => {
  const api = emulator();
  const get = async <T>(p: string) => (await api.json<{ data: T }>(p)).body.data;
  [releases, tags, customPages] = await Promise.all([
    get<ApiRelease[]>('press_releases?limit=10000&includes=tags'),
    get<ApiTag[]>('tags?limit=10000'),
    get<ApiPage[]>('pages?limit=10000'),
  ]);
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));
});

const pageAt = (permalink: string) => pages.get(`${permalink.replace(/\/$/, '')}/`);

/** Releases per page of a tag's and the archive's listings (LISTING_PAGE_SIZE in src/lib/paths.ts). */
const LISTING_PAGE_SIZE = 20;
const newestFirst = (a: ApiRelease, b: ApiRelease) => Date.parse(b.release_date) - Date.parse(a.release_date) || a.id - b.id;

/**
 * The pages of a paginated listing (`first`, then `more(2)`, `more(3)`, … while they exist) and the
 * release links of their rows, in order. Each page links the next with rel=next.
 */
function listed(first: string, more: (n: number) => string): { paths: string[]; releases: string[] } {
  const paths: string[] = [];
  const releases: string[] = [];
  for (let n = 1; pages.has(n === 1 ? first : more(n)); n++) {
    const page = pages.get(n === 1 ? first : more(n))!;
    paths.push(page.path);
    for (const article of elements(page.doc, 'article')) {
      const link = elements(article, 'a').find((a) => /^\/\d+-/.test(a.attribs.href ?? ''));
      if (link) releases.push(link.attribs.href!);
    }
    const next = elements(page.doc, 'a').find((a) => a.attribs.rel === 'next')?.attribs.href;
    expect(next, page.path).toBe(pages.has(more(n + 1)) ? more(n + 1) : undefined);
  }
  expect(pages.has(more(1)), more(1)).toBe(false);
  return { paths, releases };
}

describe('press releases', () => {
  it('has every public release of the API at its permalink', () => {
    expect(releases.length).toBeGreaterThan(40);
    const missing = releases.filter((r) => !pageAt(r.permalink)).map((r) => r.permalink);
    expect(missing).toEqual([]);
  });

  it('gives each release page its title as the one h1 and its language as <html lang>', () => {
    for (const r of releases) {
      const page = pageAt(r.permalink)!;
      const h1 = elements(page.doc, 'h1');
      expect(h1.map(text), r.permalink).toEqual([r.title]);
      expect(elements(page.doc, 'html')[0]?.attribs.lang, r.permalink).toBe(r.language);
    }
  });

  it('writes no release page the API does not list', () => {
    const known = new Set(releases.map((r) => `${r.permalink}/`));
    const releasePages = [...pages.keys()].filter((p) => /^\/\d+-[^/]+\/$/.test(p));
    expect(releasePages.filter((p) => !known.has(p))).toEqual([]);
  });

  it('paginates /releases/ over every release, newest first', () => {
    const listed: string[] = [];
    for (let n = 1; ; n++) {
      const page = pages.get(n === 1 ? '/releases/' : `/releases/${n}/`);
      if (!page) break;
      for (const h of elements(page.doc, 'h2')) {
        const a = elements(h, 'a')[0];
        if (a?.attribs.href && /^\/\d+-/.test(a.attribs.href)) listed.push(a.attribs.href);
      }
    }
    const expected = [...releases]
      .sort((a, b) => Date.parse(b.release_date) - Date.parse(a.release_date) || a.id - b.id)
      .map((r) => `${r.permalink}/`);
    expect(listed).toEqual(expected);
  });

  it('has a listing per language with only that language, in that language', () => {
    for (const lang of new Set(releases.map((r) => r.language))) {
      const page = pages.get(`/${lang}/`);
      expect(page, `/${lang}/`).toBeDefined();
      expect(elements(page!.doc, 'html')[0]?.attribs.lang).toBe(lang);
      const expected = releases
        .filter((r) => r.language === lang)
        .map((r) => `${r.permalink}/`)
        .sort();
      const listed: string[] = [];
      for (let n = 1; pages.has(n === 1 ? `/${lang}/` : `/${lang}/${n}/`); n++) {
        const p = pages.get(n === 1 ? `/${lang}/` : `/${lang}/${n}/`)!;
        for (const article of elements(p.doc, 'article')) {
          expect(article.attribs.lang, `${p.path}: a release in another language`).toBeUndefined();
          const link = elements(article, 'a').find((a) => /^\/\d+-/.test(a.attribs.href ?? ''));
          if (link) listed.push(link.attribs.href!);
        }
      }
      expect(listed.sort(), lang).toEqual(expected);
    }
  });

  it('files each release in the archive under its year and month (Amsterdam time), newest first, 20 a page', () => {
    const ym = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit' });
    const expected = new Map<string, ApiRelease[]>();
    for (const r of [...releases].sort(newestFirst)) {
      const parts = ym.formatToParts(new Date(r.release_date));
      const year = parts.find((p) => p.type === 'year')!.value;
      const month = parts.find((p) => p.type === 'month')!.value;
      for (const listing of [`/archive/${year}/`, `/archive/${year}/${month}/`])
        expected.set(listing, [...(expected.get(listing) ?? []), r]);
    }
    let paginated = 0;
    for (const [listing, list] of expected) {
      const { paths, releases: rows } = listed(listing, (n) => `${listing}page/${n}/`);
      expect(rows, listing).toEqual(list.map((r) => `${r.permalink}/`));
      expect(paths.length, listing).toBe(Math.max(1, Math.ceil(list.length / LISTING_PAGE_SIZE)));
      if (paths.length > 1) paginated++;
    }
    // The demo has a year long enough for a second page.
    expect(paginated).toBeGreaterThan(0);
    expect(pages.has('/archive/')).toBe(true);
  });
});

describe('tags', () => {
  it('has a landing page per tag listing every release tagged with it, newest first, 20 a page', () => {
    expect(pages.has('/tags/')).toBe(true);
    let paginated = 0;
    for (const tag of tags) {
      const first = `/tags/${tag.slug}/`;
      const { paths, releases: rows } = listed(first, (n) => `${first}${n}/`);
      expect(paths.length, tag.slug).toBeGreaterThan(0);
      for (const p of paths) expect(elements(pages.get(p)!.doc, 'h1').map(text), p).toEqual([tag.name]);
      const tagged = releases.filter((x) => x.tags.some((t) => t.slug === tag.slug)).sort(newestFirst);
      expect(rows, first).toEqual(tagged.map((r) => `${r.permalink}/`));
      expect(paths.length, first).toBe(Math.max(1, Math.ceil(tagged.length / LISTING_PAGE_SIZE)));
      if (paths.length > 1) paginated++;
    }
    // The demo has a tag with more releases than one page holds.
    expect(paginated).toBeGreaterThan(0);
  });
});

describe('tag landing pages', () => {
  it('list every clipping, event, open media kit and custom page tagged with the tag, not only releases', async () => {
    const api = emulator();
    let checked = 0;
    for (const tag of tags) {
      const page = pages.get(`/tags/${tag.slug}/`)!;
      const get = async <T>(route: string) => (await api.json<{ data: T }>(`tagged/${route}?limit=10000&tags=${tag.slug}`)).body.data;
      const [clippings, events, kits, tagged] = await Promise.all([
        get<Array<{ title: string }>>('clippings'),
        get<Array<{ permalink: string }>>('events'),
        get<Array<{ permalink: string; is_locked: boolean; is_password_protected: boolean }>>('media_kits'),
        get<Array<{ permalink: string }>>('pages'),
      ]);
      const body = text(elements(page.doc, 'main')[0]!);
      for (const c of clippings) expect(body, `clipping "${c.title}" on /tags/${tag.slug}/`).toContain(c.title);
      for (const e of events) expect(page.html, `${e.permalink} on /tags/${tag.slug}/`).toContain(`href="${e.permalink}/"`);
      // Locked and password-protected kits are listed only on /media-kits/, with their lock.
      for (const k of kits.filter((x) => !x.is_locked && !x.is_password_protected))
        expect(page.html, `${k.permalink} on /tags/${tag.slug}/`).toContain(`href="/media-kits/${k.permalink.split('/').pop()}/"`);
      for (const p of tagged) expect(page.html, `${p.permalink} on /tags/${tag.slug}/`).toContain(`href="${p.permalink}/"`);
      checked += clippings.length + events.length + kits.length + tagged.length;
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('custom pages and the rest', () => {
  it('has every public custom page at its permalink in its language', () => {
    for (const p of customPages) {
      const page = pageAt(p.permalink);
      expect(page, p.permalink).toBeDefined();
      expect(elements(page!.doc, 'h1').map(text)).toEqual([p.title]);
      if (p.language) expect(elements(page!.doc, 'html')[0]?.attribs.lang).toBe(p.language);
    }
  });

  it('has a home page and a 404 page that point somewhere useful', () => {
    const home = pages.get('/')!;
    expect(home).toBeDefined();
    expect(home.html).toContain(
      `href="${[...releases].sort((a, b) => Date.parse(b.release_date) - Date.parse(a.release_date))[0]!.permalink}/"`,
    );
    const notFound = pages.get('/404.html')!;
    expect(notFound).toBeDefined();
    expect(notFound.html).toContain('href="/releases/"');
    expect(existsSync(path.join(siteDir, 'sitemap-index.xml'))).toBe(true);
  });

  it('gives every page exactly one h1, a title, a description and landmarks', () => {
    // Redirect pages (legacy-redirects.test.ts) are a title, an h1 and a link, and leave at once.
    for (const page of [...pages.values()].filter((p) => !isLegacyPath(p.path))) {
      expect(elements(page.doc, 'h1').length, page.path).toBe(1);
      expect(text(elements(page.doc, 'title')[0]!).length, page.path).toBeGreaterThan(3);
      for (const landmark of ['header', 'nav', 'main', 'footer'])
        expect(elements(page.doc, landmark).length, `${landmark} on ${page.path}`).toBeGreaterThan(0);
      const skip = elements(page.doc, 'a').find((a) => a.attribs.class === 'skip-link');
      expect(skip?.attribs.href, page.path).toBe('#main');
    }
  });
});
