/** Head metadata: canonical URLs, Open Graph, robots, and JSON-LD that parses and says the right things. */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { elements, jsonLd, loadPages, meta, text, type BuiltPage } from '../helpers.ts';
import { isLegacyPath } from '../../../src/lib/paths.ts';

const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');
let pages: BuiltPage[];

beforeAll(async () => {
  // Redirect pages at the hosted newsroom's old addresses have their own test (legacy-redirects.test.ts).
  pages = (await loadPages(siteDir)).filter((p) => !isLegacyPath(p.path));
});

type Ld = Record<string, unknown>;
const releasePages = () => pages.filter((p) => /^\/\d+-[^/]+\/$/.test(p.path));

describe('head', () => {
  it('gives every indexable page its canonical URL on the configured site', () => {
    for (const page of pages) {
      const canonical = elements(page.doc, 'link').find((l) => l.attribs.rel === 'canonical')?.attribs.href;
      if (page.path === '/404.html') {
        expect(canonical).toBeUndefined();
        expect(meta(page.doc, 'robots')).toBe('noindex, nofollow');
        continue;
      }
      expect(canonical, page.path).toBe(`${siteUrl}${page.path}`);
      expect(meta(page.doc, 'og:url'), page.path).toBe(canonical);
    }
  });

  it('has a description, Open Graph and Twitter tags everywhere', () => {
    for (const page of pages) {
      const description = meta(page.doc, 'description');
      expect(description && description.length > 20, `${page.path}: ${description}`).toBe(true);
      expect(meta(page.doc, 'og:title'), page.path).toBeTruthy();
      expect(meta(page.doc, 'og:site_name'), page.path).toBe('Northwind Mobility');
      expect(meta(page.doc, 'twitter:card'), page.path).toMatch(/^summary/);
      const image = meta(page.doc, 'og:image');
      if (image) expect(image.startsWith(`${siteUrl}/_media/`), `${page.path}: ${image}`).toBe(true);
    }
  });

  it('does not ask robots to stay away when the press room allows indexing', () => {
    for (const page of pages.filter((p) => p.path !== '/404.html')) expect(meta(page.doc, 'robots'), page.path).toBeUndefined();
  });
});

describe('JSON-LD', () => {
  it('parses on every page that has it, and no block can close its script tag', () => {
    let blocks = 0;
    for (const page of pages) {
      // The search page's controller and the events' view-time script are the site's own code (checked in safety.test.ts).
      for (const script of elements(page.doc, 'script').filter(
        (s) => !(page.path === '/search/' && /^\/_search\/search\./.test(s.attribs.src ?? '')) && !('data-event-phases' in s.attribs),
      )) {
        expect(script.attribs.type, `${page.path}: only JSON-LD scripts`).toBe('application/ld+json');
      }
      const raw = page.html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g) ?? [];
      for (const block of raw) expect(block.slice(35, -9)).not.toMatch(/[<>&\u2028\u2029]/);
      blocks += jsonLd(page.doc).length;
    }
    expect(blocks).toBeGreaterThan(100);
  });

  it('gives every page with a breadcrumb trail one BreadcrumbList that names the same steps, ending at the page', () => {
    let checked = 0;
    for (const page of pages) {
      const trail = elements(page.doc, 'nav').find((n) => n.attribs.class === 'breadcrumbs');
      const lists = (jsonLd(page.doc) as Ld[]).filter((x) => x['@type'] === 'BreadcrumbList');
      if (!trail) {
        expect(lists, page.path).toEqual([]);
        continue;
      }
      checked++;
      expect(lists, page.path).toHaveLength(1);
      const items = lists[0]!.itemListElement as Array<{ name: string; item: string; position: number }>;
      expect(
        items.map((i) => i.name),
        page.path,
      ).toEqual(elements(trail, 'li').map(text));
      expect(items.map((i) => i.position)).toEqual(items.map((_, n) => n + 1));
      expect(items.at(-1)!.item.startsWith(siteUrl), page.path).toBe(true);
    }
    // The demo's pages with a trail (148 since lists hold up to two pages' worth on their front page).
    expect(checked).toBeGreaterThan(140);
  });

  it('describes each release as a NewsArticle with dateline, images and a breadcrumb', () => {
    for (const page of releasePages()) {
      const ld = jsonLd(page.doc) as Ld[];
      const article = ld.find((x) => x['@type'] === 'NewsArticle');
      expect(article, page.path).toBeDefined();
      expect(article!.headline, page.path).toBeTruthy();
      expect(article!.datePublished, page.path).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(article!.inLanguage, page.path).toBe(elements(page.doc, 'html')[0]?.attribs.lang);
      expect(article!.url).toBe(`${siteUrl}${page.path}`);
      // Google requires an image: the release's pictures, else the press room's logo.
      const images = (article!.image ?? []) as string[];
      expect(images.length, page.path).toBeGreaterThan(0);
      for (const image of images) expect(image.startsWith(`${siteUrl}/_media/`), image).toBe(true);
      const logo = (article!.publisher as { logo?: string } | undefined)?.logo;
      const pictures = elements(page.doc, 'article').flatMap((a) => elements(a, 'img')).length;
      if (pictures === 0) expect(images, page.path).toEqual([logo]);
      const crumbs = ld.find((x) => x['@type'] === 'BreadcrumbList');
      expect((crumbs?.itemListElement as unknown[] | undefined)?.length, page.path).toBe(3);
    }
    const withDateline = releasePages().filter((p) => (jsonLd(p.doc) as Ld[]).some((x) => typeof x.dateline === 'string'));
    const withImages = releasePages().filter((p) => (jsonLd(p.doc) as Ld[]).some((x) => Array.isArray(x.image) && x.image.length > 0));
    expect(withDateline.length).toBeGreaterThan(releasePages().length * 0.8);
    expect(withImages.length).toBeGreaterThan(releasePages().length * 0.5);
  });

  it('describes the press room as an Organization on the home page', () => {
    const home = pages.find((p) => p.path === '/')!;
    const org = (jsonLd(home.doc) as Ld[]).find((x) => x['@type'] === 'Organization');
    expect(org?.name).toBe('Northwind Mobility');
    expect(Array.isArray(org?.contactPoint) && org.contactPoint.length > 0).toBe(true);
  });
});
