/**
 * Search in the offline archive, opened from `file://` in Chromium with every
 * network request blocked: a word of one release finds it, a filter narrows
 * the results, and the result's link opens the release from the folder. The
 * archive is the shared demo build made to open from a folder (the step
 * `npm run archive` runs after its build), not a build of its own.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { archiveCopy, type ArchiveCopy } from '../helpers/archive-copy.ts';
import { writeSearchIndex } from '../../src/search/index-files.ts';
import { hasChromium, launchChromium, noChromium } from './helpers.ts';
import { distinctiveWord, releases, searchAfter } from './search-helpers.ts';

const builtSite = inject('siteDir');
let archive: ArchiveCopy;
let browser: Browser;

beforeAll(async () => {
  archive = await archiveCopy(builtSite);
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await archive?.remove();
});

/** A context that lets the page read files and nothing else: any other request is aborted and recorded. */
async function offlineContext(): Promise<{ context: BrowserContext; requests: string[]; blocked: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const requests: string[] = [];
  const blocked: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    blocked.push(url);
    return route.abort('internetdisconnected');
  });
  context.on('request', (r) => requests.push(r.url()));
  context.on('weberror', (e) => errors.push(e.error().message));
  return { context, requests, blocked, errors };
}

describe.skipIf(!hasChromium)('search in the offline archive', () => {
  it('finds a release from file://, narrows by a filter and opens the result, with the network blocked', async () => {
    const all = releases(builtSite);
    // A release in another language than the press room's: its own stemming rules index it.
    const release = all.find((r) => r.lang !== all[0]!.lang) ?? all[0]!;
    const word = distinctiveWord(release, all);
    const target = `${release.href.slice(1)}index.html`;
    const { context, requests, blocked, errors } = await offlineContext();
    try {
      const page = await context.newPage();
      const searchPage = pathToFileURL(path.join(archive.siteDir, 'search', 'index.html')).href;
      await searchAfter(page, () => page.goto(searchPage));
      expect(
        requests.some((u) => u.includes('/_search/entry.js')),
        'the index loads on the first search, not with the page',
      ).toBe(false);

      const found = await searchAfter(page, () => page.locator('#search-q').fill(word));
      expect(found.count, `results for "${word}"`).toBeGreaterThan(0);
      expect(found.hrefs, `results for "${word}"`).toContain(`../${target}`);

      // The language filter keeps only that language, the release still among them.
      const narrowed = await searchAfter(page, () => page.selectOption('#search-language', release.lang));
      expect(narrowed.hrefs).toContain(`../${target}`);
      expect(new Set(narrowed.langs)).toEqual(new Set([release.lang]));
      const other = await searchAfter(page, () => page.selectOption('#search-language', all[0]!.lang));
      expect(other.hrefs).not.toContain(`../${target}`);
      await searchAfter(page, () => page.selectOption('#search-language', release.lang));
      const typed = await searchAfter(page, () => page.selectOption('#search-type', 'release'));
      expect(new Set(typed.types)).toEqual(new Set(['release']));
      expect(typed.hrefs).toContain(`../${target}`);
      const marks = await page.locator('[data-search-results] mark').count();
      expect(marks, 'excerpts mark the matched words').toBeGreaterThan(0);

      await page.locator(`[data-search-results] a[href="../${target}"]`).first().click();
      await page.waitForURL(pathToFileURL(path.join(archive.siteDir, target)).href);
      expect((await page.locator('h1').textContent())?.trim()).toBe(release.title);

      expect(blocked, 'no request left the folder').toEqual([]);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
      expect(requests.some((u) => /\/_search\/index-[a-z]+\.[0-9a-f]+\.js$/.test(u))).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lands on the search page from the header search box of any archive page', async () => {
    const all = releases(builtSite);
    const word = distinctiveWord(all[0]!, all);
    const { context, blocked } = await offlineContext();
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(path.join(archive.siteDir, all[0]!.href.slice(1), 'index.html')).href);
      const results = await searchAfter(page, async () => {
        await page.locator('header #site-search-q').fill(word);
        await page.locator('header #site-search-q').press('Enter');
        await page.waitForURL(/\/search\/index\.html\?q=/);
      });
      expect(results.hrefs).toContain(`../${all[0]!.href.slice(1)}index.html`);
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the offline search index', () => {
  it('is classic scripts only, and the same pages give the same bytes', async () => {
    const dir = path.join(archive.siteDir, '_search');
    const files = (await readdir(dir)).sort();
    expect(files).toContain('entry.js');
    for (const file of files) {
      const code = await readFile(path.join(dir, file), 'utf8');
      expect(/^\s*(import|export)\s/m.test(code), `${file} is a module`).toBe(false);
    }
    const searchPage = await readFile(path.join(archive.siteDir, 'search', 'index.html'), 'utf8');
    expect(searchPage).not.toMatch(/<script[^>]+type="module"/);
    expect(searchPage).toMatch(/<script src="\.\.\/_search\/search\.[0-9a-f]+\.js" defer><\/script>/);

    const before = new Map(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, f), 'utf8')] as const)));
    await writeSearchIndex(archive.siteDir);
    const again = (await readdir(dir)).sort();
    expect(again).toEqual(files);
    for (const file of again) expect((await readFile(path.join(dir, file), 'utf8')) === before.get(file), file).toBe(true);
  });
});

it.skipIf(hasChromium)('browser tests need Chromium', noChromium);
