/**
 * Following the newsroom and reading it in another language, over the built demo: every page's
 * "Subscribe" entry links feeds the site has (and the press room's e-mail sign-up), Dutch pages are
 * Dutch around their content, the language switcher leads to files of the site, every custom page
 * is linked from its language's pages, and the footer's contact block is tappable.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator.ts';
import { elements, loadPages, text, type BuiltPage, type Element } from '../helpers.ts';
import { translator } from '../../../src/lib/i18n.ts';

interface ApiPressroom {
  contact_info: string;
  subscribe_enabled: boolean;
  urls: Record<string, string | null>;
}
interface ApiPage {
  title: string;
  permalink: string;
  language: string | null;
}

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');

let pressroom: ApiPressroom;
let customPages: ApiPage[];
let pages: BuiltPage[];

beforeAll(async () => {
  const api = emulator();
  [pressroom, customPages] = await Promise.all([
    api.json<{ data: ApiPressroom }>(`${api.base}.json`).then((r) => r.body.data),
    api.json<{ data: ApiPage[] }>('pages?limit=1000').then((r) => r.body.data),
  ]);
  // Real pages only: redirect pages of old addresses have no frame.
  pages = (await loadPages(siteDir)).filter((p) => p.redirectTo === undefined);
});

/** The file a site href is served from. */
const fileOf = (href: string) => {
  const route = href.split('#')[0]!;
  return path.join(siteDir, route.endsWith('/') ? `${route}index.html` : route);
};
const langOf = (page: BuiltPage) => elements(page.doc, 'html')[0]!.attribs.lang!;
const byClass = (root: BuiltPage['doc'] | Element, name: string, cls: string) =>
  elements(root, name).filter((e) => (e.attribs.class ?? '').split(/\s+/).includes(cls));
const subscribeOf = (page: BuiltPage) => elements(page.doc, 'section').find((s) => s.attribs.id === 'subscribe');
const hrefsIn = (root: Element) => elements(root, 'a').map((a) => a.attribs.href!);
const page = (p: string) => pages.find((x) => x.path === p)!;

describe('the Subscribe entry', () => {
  it("is on every page, with the page language's feeds and every release's, each a file of the site", () => {
    expect(pages.length).toBeGreaterThan(100);
    for (const p of pages) {
      const section = subscribeOf(p);
      expect(section, `${p.path}: #subscribe`).toBeDefined();
      const feeds = hrefsIn(section!).filter((h) => h.startsWith('/'));
      expect(feeds, p.path).toEqual(expect.arrayContaining(['/rss.xml', '/atom.xml', '/feed.json']));
      const lang = langOf(p);
      if (['en', 'nl', 'de'].includes(lang)) expect(feeds, p.path).toContain(`/feeds/${lang}/rss.xml`);
      for (const href of feeds) expect(existsSync(fileOf(href)), `${p.path} → ${href}`).toBe(true);
      // The header's "Subscribe" leads to it.
      expect(
        byClass(p.doc, 'a', 'topbar__subscribe').map((a) => a.attribs.href),
        p.path,
      ).toEqual(['#subscribe']);
    }
  });

  it("links the press room's e-mail sign-up, which the demo has enabled", () => {
    expect(pressroom.subscribe_enabled).toBe(true);
    expect(pressroom.urls.subscribe).toMatch(/^https:\/\//);
    for (const p of [page('/'), page('/nl/')]) expect(hrefsIn(subscribeOf(p)!), p.path).toContain(pressroom.urls.subscribe);
  });
});

describe('languages', () => {
  const dutch = () => pages.filter((p) => langOf(p) === 'nl');
  const nl = translator('nl');
  const dutchPageTitles = () => customPages.filter((c) => c.language === 'nl').map((c) => c.title);

  it('labels the navigation of Dutch pages in Dutch, with Dutch custom pages only', () => {
    expect(dutch().length).toBeGreaterThan(5);
    const dutchLabels = new Set([
      ...(['releases', 'topics', 'archive', 'mediaKits', 'coverage', 'events', 'contacts'] as const).map((k) => nl(k)),
      ...dutchPageTitles(),
    ]);
    for (const p of dutch()) {
      const labels = elements(byClass(p.doc, 'nav', 'site-nav')[0]!, 'a').map(text);
      expect(labels.length, p.path).toBeGreaterThan(4);
      for (const label of labels) expect(dutchLabels, `${p.path}: "${label}"`).toContain(label);
      expect(text(byClass(p.doc, 'summary', 'site-menu__button')[0]!), p.path).toBe(nl('menu'));
      expect(text(subscribeOf(p)!), p.path).toContain(nl('subscribe'));
    }
  });

  it("links every custom page from its own language's pages, and no English page beside a Dutch one", () => {
    const overOns = customPages.find((c) => c.language === 'nl')!;
    const aboutUs = customPages.find((c) => c.language === 'en' && /about/i.test(c.title))!;
    expect(overOns.permalink).toBe('/pages/over-ons');
    for (const p of dutch()) {
      expect(p.html, p.path).toContain(`href="${overOns.permalink}/"`);
      expect(p.html, p.path).not.toContain(`href="${aboutUs.permalink}/"`);
    }
    for (const c of customPages) {
      const own = pages.filter((p) => langOf(p) === (c.language ?? 'en') && p.path !== `${c.permalink}/`);
      expect(own.length, c.permalink).toBeGreaterThan(0);
      expect(
        own.every((p) => p.html.includes(`href="${c.permalink}/"`)),
        `${c.permalink} linked from every ${c.language} page`,
      ).toBe(true);
    }
  });

  it('leads the switcher to the counterpart of a listing, tag, archive or release page, each a file of the site', () => {
    const switcher = (p: BuiltPage): Record<string, string> =>
      Object.fromEntries(elements(byClass(p.doc, 'nav', 'lang-nav')[0]!, 'a').map((a) => [a.attribs.hreflang!, a.attribs.href!]));
    const release = pages.find((p) => /^\/\d+-/.test(p.path) && langOf(p) === 'nl')!;
    const tag = pages.find((p) => /^\/tags\/[^/]+\/$/.test(p.path))!;
    const archive = pages.find((p) => /^\/archive\/\d{4}\/$/.test(p.path))!;
    expect(switcher(page('/nl/'))).toEqual({ en: '/en/', nl: '/nl/', de: '/de/' });
    expect(switcher(page('/en/2/'))).toEqual({ en: '/en/2/', nl: '/nl/', de: '/de/' });
    expect(switcher(release)).toEqual({ en: '/en/', nl: release.path, de: '/de/' });
    expect(switcher(tag)).toEqual({ en: tag.path, nl: '/nl/', de: '/de/' });
    expect(switcher(archive)).toEqual({ en: archive.path, nl: '/nl/', de: '/de/' });
    for (const p of pages)
      for (const href of Object.values(switcher(p))) expect(existsSync(fileOf(href)), `${p.path} → ${href}`).toBe(true);
  });
});

describe('the footer', () => {
  it('makes the contact block tappable: tel: and mailto: links of its number and address', () => {
    const phone = /T (\+[\d ]+)/.exec(pressroom.contact_info)![1]!.trim();
    const email = /E (\S+@\S+)/.exec(pressroom.contact_info)![1]!;
    for (const p of [page('/'), page('/nl/'), page('/contacts/')]) {
      const footer = elements(p.doc, 'footer')[0]!;
      const links = elements(footer, 'a').map((a) => [a.attribs.href, text(a)]);
      expect(links, p.path).toContainEqual([`tel:${phone.replace(/ /g, '')}`, phone]);
      expect(links, p.path).toContainEqual([`mailto:${email}`, email]);
    }
  });

  it('cuts the about text after a sentence, with an ellipsis and a link to the whole text', () => {
    const about = elements(page('/').doc, 'section').find((s) => s.attribs['aria-labelledby'] === 'footer-about')!;
    const paragraph = text(elements(about, 'p')[0]!);
    expect(paragraph).toMatch(/[.!?] … Read more$/);
    expect(hrefsIn(about)).toEqual(['/#about-heading']);
    expect(page('/').html).toContain('id="about-heading"');
  });
});
