/**
 * Every page type of the built demo site in Debian's Chromium: axe-core finds
 * no WCAG 2.1 A/AA violation, there is one h1, the skip link moves focus to
 * <main>, every request goes to the site itself and nothing fails; and a
 * screenshot at desktop and mobile width, to look at.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import {
  DESKTOP,
  MOBILE,
  noChromium,
  SCREENSHOT_DIR,
  axeViolations,
  hasChromium,
  launchChromium,
  screenshot,
  screenshotPath,
  serveStatic,
  watchedPage,
  type StaticServer,
} from './helpers.ts';
import { DEMO_NOTE } from '../../src/lib/demo.ts';

const siteDir = inject('siteDir');

/** The page types of the build, each with one example path found in dist/. */
function pageTypes(): Array<{ label: string; path: string }> {
  const has = (p: string) => existsSync(path.join(siteDir, p, 'index.html'));
  const dirs = (p: string) =>
    existsSync(path.join(siteDir, p))
      ? readdirSync(path.join(siteDir, p), { withFileTypes: true })
          .filter((d) => d.isDirectory() && existsSync(path.join(siteDir, p, d.name, 'index.html')))
          .map((d) => d.name)
          .sort()
      : [];
  const firstLink = (page: string, pattern: RegExp) => {
    const html = readFileSync(path.join(siteDir, page, 'index.html'), 'utf8');
    for (const m of html.matchAll(/href="([^"]+)"/g)) if (pattern.test(m[1]!)) return m[1]!;
    return null;
  };

  const types: Array<{ label: string; path: string }> = [{ label: 'home', path: '/' }];
  const release = firstLink('releases', /^\/\d+-[^/]+\/$/);
  if (release) types.push({ label: 'release', path: release });
  types.push({ label: 'releases-index', path: '/releases/' });
  const language = dirs('').find((d) => /^[a-z]{2,3}$/.test(d));
  if (language) types.push({ label: 'language-listing', path: `/${language}/` });
  types.push({ label: 'archive', path: '/archive/' });
  const year = dirs('archive')
    .filter((d) => /^\d{4}$/.test(d))
    .at(-1);
  if (year) {
    types.push({ label: 'archive-year', path: `/archive/${year}/` });
    const month = dirs(`archive/${year}`).at(-1);
    if (month) types.push({ label: 'archive-month', path: `/archive/${year}/${month}/` });
  }
  // A numbered page of a listing (the oldest releases): the pagination with the front page and pages on either side.
  if (has('releases/1')) types.push({ label: 'listing-numbered-page', path: '/releases/1/' });
  types.push({ label: 'tags-index', path: '/tags/' });
  const tag = dirs('tags')[0];
  if (tag) types.push({ label: 'tag', path: `/tags/${tag}/` });
  const customPage = dirs('pages')[0];
  if (customPage) types.push({ label: 'custom-page', path: `/pages/${customPage}/` });
  types.push({ label: 'search', path: '/search/' });
  types.push({ label: '404', path: '/this-page-does-not-exist/' });

  // Sections other parts of the site add (media kits, library, coverage, events, contacts): each index and one item.
  for (const section of [
    'media-kits',
    'media_kits',
    'media',
    'library',
    'images',
    'videos',
    'documents',
    'coverage',
    'clippings',
    'events',
    'contacts',
  ]) {
    if (!has(section)) continue;
    types.push({ label: section, path: `/${section}/` });
    const item = dirs(section).find((d) => !/^\d+$/.test(d));
    if (item) types.push({ label: `${section}-item`, path: `/${section}/${item}/` });
  }
  return types;
}

const types = hasChromium ? pageTypes() : [];
let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  if (!hasChromium) return;
  [browser, server] = await Promise.all([launchChromium(), serveStatic(siteDir)]);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Pages with search wait for it to load (or to say it cannot). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector<HTMLElement>('[data-search]')?.dataset.searchState ?? 'none') !== 'loading');
}

// Two pages at a time (project maxConcurrency): axe is the slow part and Chromium renders each page in its own process.
describe.skipIf(!hasChromium)('every page type in Chromium', { concurrent: true }, () => {
  it('covers the page types the site must have', ({ expect }) => {
    const labels = types.map((t) => t.label);
    for (const required of [
      'home',
      'release',
      'releases-index',
      'listing-numbered-page',
      'language-listing',
      'archive-year',
      'archive-month',
      'tags-index',
      'tag',
      'custom-page',
      'search',
      '404',
    ]) {
      expect(labels).toContain(required);
    }
  });

  it.for(types)(
    '$label ($path): no axe violation, one h1, a working skip link, only local requests',
    async ({ label, path: pagePath }, { expect }) => {
      const w = await watchedPage(browser, server.origin, DESKTOP);
      try {
        const response = await w.page.goto(server.origin + pagePath, { waitUntil: 'load' });
        expect(response?.status(), pagePath).toBe(label === '404' ? 404 : 200);
        await settled(w.page);

        // One h1.
        expect(await w.page.locator('h1').count(), `${pagePath}: h1 count`).toBe(1);

        // axe-core, WCAG 2.1 A/AA.
        const violations = await axeViolations(w.page);
        expect(violations, `${pagePath}: axe violations`).toEqual([]);

        // The skip link is the first thing Tab reaches, and following it moves focus to <main>.
        await w.page.keyboard.press('Tab');
        const first = await w.page.evaluate(() => ({
          className: document.activeElement?.className ?? '',
          href: document.activeElement?.getAttribute('href') ?? '',
        }));
        expect(first, `${pagePath}: first Tab stop`).toEqual({ className: 'skip-link', href: '#main' });
        expect(await w.page.locator('.skip-link').isVisible(), `${pagePath}: skip link visible on focus`).toBe(true);
        await w.page.keyboard.press('Enter');
        await expect.poll(() => w.page.evaluate(() => document.activeElement?.id), { timeout: 2000 }).toBe('main');

        // Screenshots at desktop width, then at phone width (the same page, resized).
        await screenshot(w.page, screenshotPath(label, DESKTOP));
        await w.page.setViewportSize(MOBILE);
        await screenshot(w.page, screenshotPath(label, MOBILE));
        // Nothing wider than the phone: no sideways scrolling.
        const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${pagePath}: horizontal overflow at ${MOBILE.width}px`).toBeLessThanOrEqual(0);

        // Every request went to the local server, and every sub-resource loaded.
        expect(w.foreign, `${pagePath}: requests to other hosts`).toEqual([]);
        expect(w.requests.length).toBeGreaterThan(0);
        expect(w.failed, `${pagePath}: failed sub-resources`).toEqual([]);
        expect(w.pageErrors, `${pagePath}: script errors`).toEqual([]);
        expect(w.dialogs).toEqual([]);
      } finally {
        await w.context.close();
      }
    },
  );
});

describe.skipIf(!hasChromium)("the hosted newsroom's old addresses in Chromium", () => {
  it('land on the media kit and on the media item here, at once', async ({ expect }) => {
    const first = (dir: string) => readdirSync(path.join(siteDir, dir)).sort()[0]!;
    const kit = first('media_kits');
    const image = first('images');
    const w = await watchedPage(browser, server.origin);
    try {
      await w.page.goto(`${server.origin}/media_kits/${kit}/`);
      await w.page.waitForURL(`${server.origin}/media-kits/${kit}/`, { timeout: 5000 });
      expect(await w.page.locator('h1').textContent()).toBeTruthy();
      await w.page.goto(`${server.origin}/images/${image}/`);
      await w.page.waitForURL(new RegExp(`/media/images/(\\d+/)?#image-${image}$`), { timeout: 5000 });
      expect(await w.page.locator(`#image-${image}`).isVisible()).toBe(true);
      expect(w.foreign).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});

describe.skipIf(!hasChromium)('the header on a phone and on a wide screen', () => {
  /** A page in a fresh context (viewport, JavaScript on or off), closed after `use`. */
  const inPage = async (options: BrowserContextOptions, use: (page: Page) => Promise<void>) => {
    const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
    try {
      await use(await context.newPage());
    } finally {
      await context.close();
    }
  };

  /** Where the header ends, from the top of the page (the demo note above it included), and what shows. */
  const headerState = (page: Page) =>
    page.evaluate(() => ({
      bottom: document.querySelector('.site-header')!.getBoundingClientRect().bottom + window.scrollY,
      menuButton: getComputedStyle(document.querySelector('.site-menu__button')!).display !== 'none',
    }));

  /** The demo note above the header, as Base.astro writes it in a demo build (the test build is served by its own emulator). */
  const withDemoNote = async (page: Page) => {
    if ((await page.locator('.demo-note').count()) === 0)
      await page.evaluate((note) => {
        const aside = document.createElement('aside');
        aside.setAttribute('aria-label', 'Demo');
        aside.innerHTML = `<p class="demo-note" role="note" style="margin:0;padding:.5rem 1rem;font-weight:600;text-align:center"></p>`;
        aside.firstElementChild!.textContent = note;
        document.querySelector('.site-header')!.before(aside);
      }, DEMO_NOTE);
    return page.locator('.demo-note').isVisible();
  };

  it('takes at most a quarter of a 390x844 screen, its navigation behind a menu that opens without JavaScript', async ({ expect }) => {
    for (const javaScriptEnabled of [true, false]) {
      await inPage({ viewport: MOBILE, javaScriptEnabled }, async (page) => {
        for (const pagePath of ['/', '/nl/']) {
          await page.goto(server.origin + pagePath);
          expect(await withDemoNote(page), 'the demo note counts').toBe(true);
          const state = await headerState(page);
          expect(state.bottom, `${pagePath} (JS ${javaScriptEnabled}): header bottom`).toBeLessThanOrEqual(MOBILE.height / 4);
          expect(state.menuButton).toBe(true);
          const nav = page.locator('nav.site-nav');
          expect(await nav.isVisible(), `${pagePath}: navigation closed`).toBe(false);
          await page.locator('summary.site-menu__button').click();
          expect(await nav.isVisible(), `${pagePath}: navigation open`).toBe(true);
          expect(await page.locator('header #site-search-q').isVisible(), `${pagePath}: search in the menu`).toBe(true);
          // A link of the open menu is tappable: nothing lies over it.
          const first = nav.locator('a').first();
          const href = await first.getAttribute('href');
          await first.click();
          await page.waitForURL(`${server.origin}${href}`);
        }
      });
    }
  });

  it("leads from the header's Subscribe link to the feeds of the page's language, each a feed the site serves", async ({ expect }) => {
    await inPage({ viewport: MOBILE }, async (page) => {
      for (const pagePath of ['/', '/nl/']) {
        await page.goto(server.origin + pagePath);
        await page.locator('header a.topbar__subscribe').click();
        await page.waitForURL(`${server.origin}${pagePath}#subscribe`);
        // The entry is on the phone's screen, with RSS, Atom and JSON Feed.
        await expect.poll(() => page.locator('#subscribe h2').evaluate((h) => h.getBoundingClientRect().top)).toBeLessThan(MOBILE.height);
        const feeds = page.locator('#subscribe a[type]');
        expect(await feeds.count(), pagePath).toBeGreaterThanOrEqual(3);
        for (const feed of await feeds.all()) {
          expect(await feed.isVisible()).toBe(true);
          const response = await page.request.get(new URL((await feed.getAttribute('href'))!, page.url()).href);
          expect(response.status()).toBe(200);
          expect(response.headers()['content-type']).toMatch(/xml|json/);
        }
      }
      // The Dutch page offers the Dutch feeds first.
      expect(await page.locator('#subscribe a[type]').first().getAttribute('href')).toMatch(/^\/feeds\/nl\//);
    });
  });

  it("switches language to this page's counterpart: the same listing page, else that language's home", async ({ expect }) => {
    await inPage({ viewport: DESKTOP }, async (page) => {
      const link = (lang: string) => page.locator(`header .lang-nav a[hreflang="${lang}"]`);
      const switchTo = async (from: string, lang: string) => {
        await page.goto(server.origin + from);
        await link(lang).click();
        await page.waitForLoadState('load');
        expect(await page.evaluate(() => document.documentElement.lang), `${from} → ${lang}`).toBe(lang);
        return new URL(page.url()).pathname;
      };
      // Page 2 of the English listing leads to page 2 of the Dutch one, or to its first page when it has one only.
      const dutchPages = existsSync(path.join(siteDir, 'nl', '2', 'index.html')) ? '/nl/2/' : '/nl/';
      expect(await switchTo('/en/2/', 'nl')).toBe(dutchPages);
      // The page's own language is the page itself (marked current), not that language's home.
      for (const own of ['/en/2/', '/tags/']) {
        await page.goto(server.origin + own);
        expect(await link('en').getAttribute('href'), own).toBe(own);
        expect(await link('en').getAttribute('aria-current'), own).toBe('true');
      }
      // A page with no counterpart in the other language leads to that language's home.
      expect(await switchTo('/tags/', 'nl')).toBe('/nl/');
    });
  });

  it('shows the whole navigation and the search box on a wide screen, with no menu button', async ({ expect }) => {
    await inPage({ viewport: DESKTOP, javaScriptEnabled: false }, async (page) => {
      await page.goto(`${server.origin}/`);
      expect((await headerState(page)).menuButton).toBe(false);
      const links = page.locator('nav.site-nav a');
      expect(await links.count()).toBeGreaterThan(5);
      for (const link of await links.all()) expect(await link.isVisible(), (await link.textContent()) ?? '').toBe(true);
      expect(await page.locator('header #site-search-q').isVisible()).toBe(true);
    });
  });
});

it.skipIf(hasChromium)('browser tests need Chromium', noChromium);
