/** Driving the search page in a test: the demo's releases, a good query word, and waiting for a search to finish. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export interface ReleaseRef {
  href: string;
  title: string;
  lang: string;
}

/** Releases listed on /releases/ (first page), with their title and language from their own page; `base`: the site's base path. */
export function releases(siteDir: string, base = '/'): ReleaseRef[] {
  const listing = readFileSync(path.join(siteDir, 'releases', 'index.html'), 'utf8');
  const hrefs = [
    ...new Set(
      [...listing.matchAll(/href="([^"]+)"/g)]
        .map((m) => m[1]!)
        .filter((href) => href.startsWith(base) && /^\d+-[^/]+\/$/.test(href.slice(base.length))),
    ),
  ];
  return hrefs.map((href) => releaseAt(siteDir, href, base));
}

/** The release page at `href` (a site path under `base`): its title and language from its own HTML. */
export function releaseAt(siteDir: string, href: string, base = '/'): ReleaseRef {
  const html = readFileSync(path.join(siteDir, href.slice(base.length), 'index.html'), 'utf8');
  const title = /<h1[^>]*>([^<]+)<\/h1>/.exec(html)?.[1]?.trim() ?? '';
  const lang = /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1] ?? '';
  return {
    href,
    title: title
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"'),
    lang,
  };
}

/** The word of a title that the fewest other titles share (a good query). */
export function distinctiveWord(release: ReleaseRef, all: ReleaseRef[]): string {
  const words = release.title.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 5 && !/^\d+$/.test(w));
  const shared = (w: string) => all.filter((r) => r.title.toLowerCase().includes(w.toLowerCase())).length;
  return [...words].sort((a, b) => shared(a) - shared(b) || b.length - a.length)[0] ?? release.title;
}

export interface Results {
  count: number;
  hrefs: string[];
  langs: string[];
  types: string[];
  dates: string[];
}

/** The number of the last search the page finished (0 before any). */
export const generation = (page: Page) =>
  page.evaluate(() => Number(document.querySelector<HTMLElement>('[data-search]')?.dataset.searchGeneration ?? 0));

/** Does `action`, then waits for the search it causes to finish and reads the results. */
export async function searchAfter(page: Page, action: () => Promise<unknown>): Promise<Results> {
  const before = await generation(page);
  await action();
  await page.waitForFunction((n) => {
    const root = document.querySelector<HTMLElement>('[data-search]');
    return root !== null && ['done', 'idle'].includes(root.dataset.searchState ?? '') && Number(root.dataset.searchGeneration) > n;
  }, before);
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-search]')!;
    const items = [...root.querySelectorAll<HTMLElement>('[data-search-results] > li')];
    return {
      count: Number(root.dataset.searchCount ?? 0),
      hrefs: items.map((li) => li.querySelector('a')?.getAttribute('href') ?? ''),
      langs: items.map((li) => li.querySelector('article')?.dataset.lang ?? ''),
      types: items.map((li) => li.querySelector('article')?.dataset.type ?? ''),
      dates: items.map((li) => li.querySelector('article')?.dataset.date ?? ''),
    };
  });
}
