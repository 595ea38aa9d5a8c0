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

/** Releases per page of /releases/ and /<lang>/ (RELEASES_PAGE_SIZE), and of a tag's and the archive's listings (LISTING_PAGE_SIZE in src/lib/paths.ts). */
const RELEASES_PAGE_SIZE = 12;
const LISTING_PAGE_SIZE = 20;
const newestFirst = (a: ApiRelease, b: ApiRelease) => Date.parse(b.release_date) - Date.parse(a.release_date) || a.id - b.id;

/** The release links of a listing page's rows (its articles), in order. */
const releaseRows = (page: BuiltPage): string[] =>
  elements(page.doc, 'article').flatMap((article) => {
    const link = elements(article, 'a').find((a) => /^\/\d+-/.test(a.attribs.href ?? ''));
    return link ? [link.attribs.href!] : [];
  });

/**
 * The pages of a listing (src/lib/listing-pages.ts), read as a visitor does: the front page, then
 * each page's rel=next ("Older") link, each linking back with rel=prev; and the release links of
 * their rows, in order. The numbered pages count down to 1, the oldest, each holding exactly `size`
 * releases; the front page holds the rest, at least `size` when there are numbered pages. Numbered
 * pages say their number in the title, and the pagination links only pages of the site.
 */
function listed(front: string, numbered: (n: number) => string, size: number): { paths: string[]; releases: string[] } {
  const paths: string[] = [];
  const perPage: string[][] = [];
  for (let at: string | undefined = front, from: string | undefined; at !== undefined;) {
    const page = pages.get(at);
    expect(page, `${at} (linked from ${from ?? 'nowhere'})`).toBeDefined();
    const rel = (name: string) => elements(page!.doc, 'a').find((a) => a.attribs.rel === name)?.attribs.href;
    expect(rel('prev'), `${at}: rel=prev`).toBe(from);
    for (const a of elements(page!.doc, 'nav')
      .filter((n) => n.attribs.class === 'pagination')
      .flatMap((n) => elements(n, 'a')))
      expect(pages.has(a.attribs.href!), `${at} → ${a.attribs.href}`).toBe(true);
    paths.push(at);
    perPage.push(releaseRows(page!));
    [from, at] = [at, rel('next')];
  }
  const count = paths.length - 1;
  expect(paths, front).toEqual([front, ...Array.from({ length: count }, (_, i) => numbered(count - i))]);
  expect(pages.has(numbered(count + 1)), numbered(count + 1)).toBe(false);
  const releases = perPage.flat();
  expect(count, `${front}: numbered pages`).toBe(Math.max(0, Math.floor(releases.length / size) - 1));
  expect(
    perPage.slice(1).map((rows) => rows.length),
    front,
  ).toEqual(Array.from({ length: count }, () => size));
  for (const [i, p] of paths.entries()) {
    const title = text(elements(pages.get(p)!.doc, 'title')[0]!);
    if (i === 0) expect(title, p).not.toContain('(Page');
    else expect(title, p).toContain(`(Page ${count + 1 - i})`);
  }
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

  it('lists every release once over /releases/ and its numbered pages, newest first, the numbered ones from the oldest', () => {
    const { paths, releases: rows } = listed('/releases/', (n) => `/releases/${n}/`, RELEASES_PAGE_SIZE);
    expect(rows).toEqual([...releases].sort(newestFirst).map((r) => `${r.permalink}/`));
    // The demo's releases fill numbered pages: /releases/1/ holds the oldest twelve.
    expect(paths.length).toBeGreaterThan(2);
    // Only the front page counts releases (the listing's and the languages'): a numbered page stays as it is when one is added.
    for (const [i, p] of paths.entries()) {
      const counted = /class="(?:page-head__lead|chip__count)"/.test(pages.get(p)!.html);
      expect(counted, p).toBe(i === 0);
    }
    expect(releaseRows(pages.get('/releases/1/')!)).toEqual(
      [...releases]
        .sort(newestFirst)
        .slice(-RELEASES_PAGE_SIZE)
        .map((r) => `${r.permalink}/`),
    );
  });

  it('has a listing per language with only that language, in that language', () => {
    for (const lang of new Set(releases.map((r) => r.language))) {
      const page = pages.get(`/${lang}/`);
      expect(page, `/${lang}/`).toBeDefined();
      expect(elements(page!.doc, 'html')[0]?.attribs.lang).toBe(lang);
      const expected = releases
        .filter((r) => r.language === lang)
        .sort(newestFirst)
        .map((r) => `${r.permalink}/`);
      const { paths, releases: rows } = listed(`/${lang}/`, (n) => `/${lang}/${n}/`, RELEASES_PAGE_SIZE);
      for (const p of paths)
        for (const article of elements(pages.get(p)!.doc, 'article'))
          expect(article.attribs.lang, `${p}: a release in another language`).toBeUndefined();
      expect(rows, lang).toEqual(expected);
    }
  });

  it('files each release in the archive under its year and month (Amsterdam time), newest first, numbered pages of 20', () => {
    const ym = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit' });
    const expected = new Map<string, ApiRelease[]>();
    for (const r of [...releases].sort(newestFirst)) {
      const parts = ym.formatToParts(new Date(r.release_date));
      const year = parts.find((p) => p.type === 'year')!.value;
      const month = parts.find((p) => p.type === 'month')!.value;
      for (const listing of [`/archive/${year}/`, `/archive/${year}/${month}/`])
        expected.set(listing, [...(expected.get(listing) ?? []), r]);
    }
    for (const [listing, list] of expected) {
      const { releases: rows } = listed(listing, (n) => `${listing}page/${n}/`, LISTING_PAGE_SIZE);
      expect(rows, listing).toEqual(list.map((r) => `${r.permalink}/`));
    }
    expect(pages.has('/archive/')).toBe(true);
  });
});

describe('tags', () => {
  it('has a landing page per tag listing every release tagged with it, newest first, numbered pages of 20', () => {
    expect(pages.has('/tags/')).toBe(true);
    for (const tag of tags) {
      const first = `/tags/${tag.slug}/`;
      const { paths, releases: rows } = listed(first, (n) => `${first}${n}/`, LISTING_PAGE_SIZE);
      for (const p of paths) expect(elements(pages.get(p)!.doc, 'h1').map(text), p).toEqual([tag.name]);
      const tagged = releases.filter((x) => x.tags.some((t) => t.slug === tag.slug)).sort(newestFirst);
      expect(rows, first).toEqual(tagged.map((r) => `${r.permalink}/`));
    }
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
