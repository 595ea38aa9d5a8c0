/**
 * The upstream site, built for `https://press.example.test/press/` (test/site/global-setup.ts), in
 * Chromium over a static server that serves it under `/press/` only, as a host serving the site
 * under a path does: every page loads all it asks for, links land on pages, the search finds and
 * opens a release, the events page's script runs, a redirect page lands where the item lives.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { archiveCopy } from '../helpers/archive-copy.ts';
import { distinctiveWord, releases, searchAfter } from './search-helpers.ts';
import { hasChromium, launchChromium, serveStatic, watchedPage, type StaticServer, type Watched } from './helpers.ts';

const site = inject('upstreamSite');
let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  if (!hasChromium) return;
  [browser, server] = await Promise.all([launchChromium(), serveStatic(site.dir, { base: site.base })]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function expectClean(w: Watched): void {
  expect(w.foreign).toEqual([]);
  expect(w.failed).toEqual([]);
  expect(w.pageErrors).toEqual([]);
}

describe.skipIf(!hasChromium)('a site under a path, in a browser', () => {
  it('loads every stylesheet, script, image and icon of its pages from under the path, and its links land on pages', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      for (const page of ['', 'releases/', 'media/images/', 'events/', 'contacts/', 'media-kits/', 'coverage/']) {
        const response = await w.page.goto(`${server.origin}${site.base}${page}`, { waitUntil: 'load' });
        expect(response?.status(), page).toBe(200);
      }
      expect(w.requests.some((u) => new URL(u).pathname.startsWith(`${site.base}_astro/`))).toBe(true);
      expect(w.requests.some((u) => new URL(u).pathname.startsWith(`${site.base}_media/`))).toBe(true);
      expect(
        w.requests.every((u) => new URL(u).pathname.startsWith(site.base)),
        w.requests.filter((u) => !new URL(u).pathname.startsWith(site.base)).join(' '),
      ).toBe(true);
      expectClean(w);

      // The header's links, each followed: every one is a page of the site.
      await w.page.goto(`${server.origin}${site.base}`, { waitUntil: 'load' });
      const hrefs = await w.page
        .locator('header a[href], footer a[href]')
        .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
      const own = [...new Set(hrefs.filter((h) => new URL(h).origin === server.origin))];
      expect(own.length).toBeGreaterThan(5);
      for (const href of own) {
        const response = await w.page.request.get(href);
        expect(response.status(), href).toBe(200);
      }
    } finally {
      await w.context.close();
    }
  });

  it('searches with the index under the path and opens a result', async () => {
    const all = releases(site.dir, site.base);
    const release = all.find((r) => r.lang === 'en') ?? all[0]!;
    const word = distinctiveWord(release, all);
    const w = await watchedPage(browser, server.origin);
    try {
      await searchAfter(w.page, () => w.page.goto(`${server.origin}${site.base}search/`));
      const results = await searchAfter(w.page, () => w.page.locator('#search-q').fill(word));
      expect(results.hrefs, `results for "${word}": ${results.hrefs.join(' ')}`).toContain(release.href);
      expect(results.hrefs.every((h) => h.startsWith(site.base))).toBe(true);
      await w.page.locator(`[data-search-results] a[href="${release.href}"]`).first().click();
      await w.page.waitForURL(`${server.origin}${release.href}`);
      expect(await w.page.locator('h1').textContent()).toBe(release.title);
      expect(w.requests.some((u) => new URL(u).pathname.startsWith(`${site.base}pagefind/`))).toBe(true);
      expectClean(w);
    } finally {
      await w.context.close();
    }
  });

  it("runs the events page's script with its calendar links under the path, and sends a redirect page to the item there", async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      await w.page.goto(`${server.origin}${site.base}events/`, { waitUntil: 'load' });
      expect(await w.page.locator('a[href$=".ics"]').first().getAttribute('href')).toMatch(new RegExp(`^${site.base}events/`));

      // The hosted newsroom's `/videos/<id>` address of a video.
      const id = readdirSync(path.join(site.dir, 'videos')).sort()[0]!;
      await w.page.goto(`${server.origin}${site.base}videos/${id}/`);
      await w.page.waitForURL(`${server.origin}${site.base}media/videos/**`);
      expect(new URL(w.page.url()).hash).toBe(`#video-${id}`);
      expectClean(w);
    } finally {
      await w.context.close();
    }
  });

  it('opens from a folder as an offline archive: links under the path made relative, search finds and opens a release', async () => {
    const archive = await archiveCopy(site.dir, site.base);
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      const release = releases(site.dir, site.base).find((r) => r.lang === 'en')!;
      const target = `${release.href.slice(site.base.length)}index.html`;
      const home = await readFile(path.join(archive.siteDir, 'index.html'), 'utf8');
      expect(home).not.toMatch(new RegExp(`(href|src|srcset)="${site.base}`));
      expect(home).toContain(`href="${target}"`);

      const requests: string[] = [];
      await context.route('**/*', (route) =>
        route.request().url().startsWith('file:') ? route.continue() : route.abort('internetdisconnected'),
      );
      context.on('request', (r) => requests.push(r.url()));
      const page = await context.newPage();
      await searchAfter(page, () => page.goto(pathToFileURL(path.join(archive.siteDir, 'search', 'index.html')).href));
      const found = await searchAfter(page, () => page.locator('#search-q').fill(distinctiveWord(release, releases(site.dir, site.base))));
      expect(found.hrefs).toContain(`../${target}`);
      await page.locator(`[data-search-results] a[href="../${target}"]`).first().click();
      await page.waitForURL(pathToFileURL(path.join(archive.siteDir, target)).href);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    } finally {
      await context.close();
      await archive.remove();
    }
  });

  it('answers a missing page with the 404 page, whose links stay under the path', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const response = await w.page.goto(`${server.origin}${site.base}no-such-page/`, { waitUntil: 'load' });
      expect(response?.status()).toBe(404);
      const hrefs = await w.page.locator('main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.length).toBeGreaterThan(2);
      expect(hrefs.filter((h) => h.startsWith('/') && !h.startsWith(site.base))).toEqual([]);
      expectClean(w);
    } finally {
      await w.context.close();
    }
  });
});
