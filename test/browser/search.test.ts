/**
 * Static search in a real browser, over a plain static server: a word from a
 * release title finds that release, filters narrow the results, the header's
 * search box lands on the search page, and the index is all local files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSearchIndex } from '../../src/integrations/search.ts';
import { PAGEFIND_MANIFEST, type PagefindManifest } from '../../src/search/pagefind-bundles.ts';
import { bundleUrls } from '../site/helpers.ts';
import { distinctiveWord, releaseAt, releases, searchAfter, type Results } from './search-helpers.ts';
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

const siteDir = inject('siteDir');
let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  if (!hasChromium) return;
  [browser, server] = await Promise.all([launchChromium(), serveStatic(siteDir)]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('search', () => {
  it('finds a release by a word of its title, typed into the search page', async () => {
    const all = releases(siteDir);
    const release = all.find((r) => r.lang === 'en') ?? all[0]!;
    const word = distinctiveWord(release, all);
    const w = await watchedPage(browser, server.origin);
    try {
      await searchAfter(w.page, () => w.page.goto(`${server.origin}/search/`));
      const results = await searchAfter(w.page, () => w.page.locator('#search-q').fill(word));
      expect(results.count, `results for "${word}"`).toBeGreaterThan(0);
      expect(results.hrefs, `results for "${word}"`).toContain(release.href);
      expect(new URL(w.page.url()).searchParams.get('q')).toBe(word);
      // The result list passes axe too; screenshots of it at both widths.
      expect(await axeViolations(w.page)).toEqual([]);
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      await screenshot(w.page, screenshotPath('search-results', DESKTOP));
      await w.page.setViewportSize(MOBILE);
      await screenshot(w.page, screenshotPath('search-results', MOBILE));
      await w.page.setViewportSize(DESKTOP);
      // Following the result opens the release.
      await w.page.locator(`[data-search-results] a[href="${release.href}"]`).first().click();
      await w.page.waitForURL(`${server.origin}${release.href}`);
      expect(await w.page.locator('h1').textContent()).toBe(release.title);

      expect(w.foreign).toEqual([]);
      expect(w.failed).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      expect(w.requests.some((u) => u.includes('/pagefind/'))).toBe(true);
    } finally {
      await w.context.close();
    }
  });

  it('narrows results with the language, type and year filters', async () => {
    const all = releases(siteDir);
    const languages = [...new Set(all.map((r) => r.lang))];
    expect(languages.length, 'the demo press room has several languages').toBeGreaterThan(1);
    const other = languages.find((l) => l !== all[0]!.lang)!;
    // A word every release shares: the press room's name, the first word of most titles.
    const counts = new Map<string, number>();
    for (const r of all) for (const word of new Set(r.title.split(/\s+/))) counts.set(word, (counts.get(word) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1])[0]![0];

    const w = await watchedPage(browser, server.origin);
    try {
      const everything = await searchAfter(w.page, () => w.page.goto(`${server.origin}/search/?q=${encodeURIComponent(common)}`));
      expect(everything.count).toBeGreaterThan(1);

      const narrowed = await searchAfter(w.page, () => w.page.selectOption('#search-language', other));
      expect(narrowed.count, `"${common}" in ${other}`).toBeGreaterThan(0);
      expect(narrowed.count).toBeLessThan(everything.count);
      expect(new Set(narrowed.langs)).toEqual(new Set([other]));
      expect(new URL(w.page.url()).searchParams.get('lang')).toBe(other);

      await searchAfter(w.page, () => w.page.selectOption('#search-language', ''));
      const onlyReleases = await searchAfter(w.page, () => w.page.selectOption('#search-type', 'release'));
      expect(onlyReleases.count).toBeGreaterThan(0);
      expect(new Set(onlyReleases.types)).toEqual(new Set(['release']));

      const years = await w.page
        .locator('#search-year option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      expect(years.length).toBeGreaterThan(0);
      // Newest year first; the newest years may hold only events, so take the first year with releases.
      let oneYear: Results | undefined;
      for (const year of years) {
        const results = await searchAfter(w.page, () => w.page.selectOption('#search-year', year));
        if (results.count > 0) {
          oneYear = results;
          break;
        }
      }
      expect(oneYear, 'a year with releases').toBeDefined();
      expect(oneYear!.count).toBeLessThan(onlyReleases.count);

      // A filter alone (no words) lists what it matches, newest first, ten at a time.
      const filterOnly = await searchAfter(w.page, () => w.page.locator('#search-q').fill(''));
      expect(new URL(w.page.url()).searchParams.get('q')).toBeNull();
      expect(filterOnly.count).toBeGreaterThan(0);
      expect(filterOnly.dates).toEqual([...filterOnly.dates].sort().reverse());
      await searchAfter(w.page, () => w.page.selectOption('#search-year', ''));
      const allReleases = await w.page.evaluate(() => Number(document.querySelector<HTMLElement>('[data-search]')!.dataset.searchCount));
      expect(allReleases, 'every release page is found by the type filter alone').toBe(
        readdirSync(siteDir).filter((d) => /^\d+-/.test(d)).length,
      );
      expect(await w.page.locator('[data-search-results] > li').count()).toBe(Math.min(10, allReleases));
      if (allReleases > 10) {
        await w.page.locator('[data-search-more]').click();
        await expect.poll(() => w.page.locator('[data-search-results] > li').count()).toBe(Math.min(20, allReleases));
      }
      expect(w.foreign).toEqual([]);
      expect(w.pageErrors).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('searches each language with its own rules: a word of one language finds pages of that language only', async () => {
    const all = releases(siteDir);
    const pressRoomLang = all[0]!.lang;
    // A word of a foreign-language release (a Dutch word, say) that no searchable page in another language has.
    const searchable = readdirSync(siteDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.html'))
      .map((f) => readFileSync(path.join(siteDir, f), 'utf8'))
      .filter((html) => html.includes('data-pagefind-body'))
      .map((html) => ({ lang: /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1] ?? '', text: html.replace(/<[^>]+>/g, ' ').toLowerCase() }));
    let found: { release: (typeof all)[number]; word: string } | undefined;
    for (const release of all.filter((r) => r.lang !== pressRoomLang)) {
      const own = readFileSync(path.join(siteDir, release.href, 'index.html'), 'utf8')
        .replace(/<[^>]+>/g, ' ')
        .toLowerCase();
      const pagesWith = (word: string) => searchable.filter((p) => p.text.includes(word));
      const word = [...new Set(own.match(/\p{L}{7,}/gu) ?? [])]
        .map((w) => ({ w, pages: pagesWith(w) }))
        .filter(({ pages }) => pages.length > 0 && pages.every((p) => p.lang === release.lang))
        .sort((a, b) => a.pages.length - b.pages.length || a.w.localeCompare(b.w))[0]?.w;
      if (word) {
        found = { release, word };
        break;
      }
    }
    expect(found, 'a release with a word of its own language').toBeDefined();
    const { release, word } = found!;
    const w = await watchedPage(browser, server.origin);
    try {
      const results = await searchAfter(w.page, () => w.page.goto(`${server.origin}/search/?q=${encodeURIComponent(word)}`));
      expect(results.hrefs).toContain(release.href);
      // No bundle answers a word of another language by a short prefix of it: the word files send it to its own language's bundle alone.
      expect(new Set(results.langs), `results for "${word}"`).toEqual(new Set([release.lang]));
      const asked = w.requests.map((u) => /\/pagefind\/([^/]+)\/pagefind\.js/.exec(u)?.[1]).filter(Boolean);
      expect(asked, `bundles asked for "${word}"`).toEqual([release.lang.slice(0, 2)]);
      expect(w.requests.some((u) => /\/pagefind\/words\/[0-9a-f]+\.json$/.test(u))).toBe(true);
      expect(w.pageErrors).toEqual([]);
      expect(w.failed).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('opens with the filters of its address (/search/?q=…&lang=…)', async () => {
    const all = releases(siteDir);
    const release = all.find((r) => r.lang !== all[0]!.lang) ?? all[0]!;
    const word = distinctiveWord(release, all);
    const w = await watchedPage(browser, server.origin);
    try {
      const results = await searchAfter(w.page, () =>
        w.page.goto(`${server.origin}/search/?q=${encodeURIComponent(word)}&lang=${release.lang}`),
      );
      expect(await w.page.locator('#search-language').inputValue()).toBe(release.lang);
      expect(results.hrefs).toContain(release.href);
      expect(new Set(results.langs)).toEqual(new Set([release.lang]));
      // A language filter loads that language's search bundle alone.
      const bundles = w.requests.map((u) => /\/pagefind\/([^/]+)\/pagefind\.js/.exec(u)?.[1]).filter(Boolean);
      expect(bundles).toEqual([release.lang.slice(0, 2)]);
    } finally {
      await w.context.close();
    }
  });

  it("lands on the search page from the header's search box, without JavaScript too", async () => {
    const all = releases(siteDir);
    const release = all[0]!;
    const word = distinctiveWord(release, all);
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled });
      try {
        const page = await context.newPage();
        await page.goto(`${server.origin}/`);
        const box = page.locator('header #site-search-q');
        expect(await box.count(), 'the header has the search box (Base.astro renders <SearchBox>)').toBe(1);
        await box.fill(word);
        if (javaScriptEnabled) {
          const results = await searchAfter(page, async () => {
            await box.press('Enter');
            await page.waitForURL((url) => url.pathname === '/search/');
          });
          expect(new URL(page.url()).searchParams.get('q')).toBe(word);
          expect(results.hrefs).toContain(release.href);
        } else {
          await box.press('Enter');
          await page.waitForURL((url) => url.pathname === '/search/');
          expect(new URL(page.url()).searchParams.get('q')).toBe(word);
          // Without JavaScript the page says what search needs and where to browse instead.
          await expect.poll(() => page.locator('[data-search-status]').textContent()).toMatch(/JavaScript/);
        }
      } finally {
        await context.close();
      }
    }
  });

  it('searches a language split over several bundles as one', async () => {
    // The demo's languages each fit one bundle: this index holds four pages a bundle, served in place of the site's.
    const split = await mkdtemp(path.join(os.tmpdir(), 'pressroom-search-split-'));
    const splitServer = await buildSearchIndex(siteDir, { outputPath: split, pagesPerBundle: 4 }).then(() =>
      serveStatic(siteDir, { folders: { '/pagefind/': split } }),
    );
    try {
      const manifest = JSON.parse(await readFile(path.join(split, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
      const later = manifest.bundles.filter((b) => b.dir !== b.language);
      // A release held by a language's later bundle, found by a word of its title.
      const all = readdirSync(siteDir)
        .filter((d) => /^\d+-/.test(d))
        .map((d) => releaseAt(siteDir, `/${d}/`));
      let held: { release: (typeof all)[number]; dir: string } | undefined;
      for (const bundle of later) {
        const urls = new Set(await bundleUrls(path.join(split, bundle.dir)));
        const release = all.find((r) => urls.has(r.href));
        if (release) {
          held = { release, dir: bundle.dir };
          break;
        }
      }
      expect(held, 'a release in a later bundle').toBeDefined();
      const { release, dir } = held!;
      const word = distinctiveWord(release, all);
      const w = await watchedPage(browser, splitServer.origin);
      try {
        const results = await searchAfter(w.page, () => w.page.goto(`${splitServer.origin}/search/?q=${encodeURIComponent(word)}`));
        expect(results.hrefs, `results for "${word}"`).toContain(release.href);
        expect(w.requests.some((u) => u.includes(`/pagefind/${dir}/pagefind.js`))).toBe(true);
        expect(w.failed).toEqual([]);
        expect(w.pageErrors).toEqual([]);
      } finally {
        await w.context.close();
      }
      // A language filter loads that language's bundles that know the word, and no other.
      const language = release.lang.slice(0, 2);
      const v = await watchedPage(browser, splitServer.origin);
      try {
        const results = await searchAfter(v.page, () =>
          v.page.goto(`${splitServer.origin}/search/?q=${encodeURIComponent(word)}&lang=${release.lang}`),
        );
        expect(results.hrefs).toContain(release.href);
        const loaded = v.requests.map((u) => /\/pagefind\/([^/]+)\/pagefind\.js/.exec(u)?.[1]).filter(Boolean);
        expect(loaded).toContain(dir);
        const own = new Set(manifest.bundles.filter((b) => b.language === language).map((b) => b.dir));
        expect(loaded.filter((d) => !own.has(d!))).toEqual([]);
        // With no words, the type filter still counts every release of the site across the bundles.
        await searchAfter(v.page, () => v.page.selectOption('#search-language', ''));
        await searchAfter(v.page, () => v.page.selectOption('#search-type', 'release'));
        await searchAfter(v.page, () => v.page.locator('#search-q').fill(''));
        const count = await v.page.evaluate(() => Number(document.querySelector<HTMLElement>('[data-search]')!.dataset.searchCount));
        expect(count).toBe(all.length);
      } finally {
        await v.context.close();
      }
    } finally {
      await splitServer.close();
      await rm(split, { recursive: true, force: true });
    }
  });
});

it.skipIf(hasChromium)('browser tests need Chromium', noChromium);
