/**
 * A warm change's search bundles indexed while its routes render (scripts/warm/search-ahead.ts):
 * the bundle of a page whose searchable part changed is indexed as soon as its pages are written,
 * the index step takes it only when its input is still the one it was indexed from, and either way
 * the index is byte for byte the one of indexing every bundle of the new site.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { buildSearchIndex, type ReuseBundle } from '../../../src/integrations/search.ts';
import { keepSearchablePages } from '../../../src/search/searchable-pages.ts';
import { PAGEFIND_MEMBERSHIP, type PagefindMembership } from '../../../src/search/pagefind-bundles.ts';
import { readSearchMembership, reuseUnchangedSearchBundles } from '../../../scripts/partial-build.ts';
import { searchAhead, type SearchAhead } from '../../../scripts/warm/search-ahead.ts';
import { fileDigests } from '../../helpers/file-tree.ts';

const siteDir = inject('siteDir');
const PER_BUNDLE = 20;
const ADDED = '<p>A sentence added after the site was built.</p>';

let tmp: string;
let previous: string;
let next: string;
/** Two release pages in different bundles of the previous site's index. */
let changed: string;
let other: string;

const linkedCopy = async (from: string, to: string) => {
  await promisify(execFile)('cp', ['-al', from, to]);
  await rm(path.join(to, 'pagefind'), { recursive: true, force: true });
};

/** Writes `file` of `site` anew (never into the linked file): its HTML with `edit` made. */
async function rewrite(site: string, file: string, edit: (html: string) => string): Promise<Buffer> {
  const html = await readFile(path.join(site, file), 'utf8');
  const body = Buffer.from(edit(html));
  await rm(path.join(site, file));
  await writeFile(path.join(site, file), body);
  return body;
}

/** The index of `site` made with every bundle read and indexed. */
async function freshIndex(site: string): Promise<Record<string, string>> {
  const fresh = path.join(tmp, `fresh-${path.basename(site)}`);
  await rm(fresh, { recursive: true, force: true });
  await buildSearchIndex(site, { outputPath: fresh, pagesPerBundle: PER_BUNDLE });
  return fileDigests(fresh);
}

/** A change that renders only `changed`, its searchable part edited, written (as the render loop does). */
async function changedPageWritten(aside: string, fresh: boolean): Promise<SearchAhead> {
  const ahead = await searchAhead({
    live: previous,
    membership: await readSearchMembership(previous),
    staging: next,
    aside,
    render: [changed],
    own: new Set([changed]),
    fresh,
  });
  ahead.written(changed, await rewrite(next, changed, (html) => html.replace(/(<[^>]* data-pagefind-body[^>]*>)/, `$1${ADDED}`)));
  return ahead;
}

const either =
  (first: ReuseBundle, second: ReuseBundle): ReuseBundle =>
  async (bundle, dir) =>
    (await first(bundle, dir)) || second(bundle, dir);

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pressroom-search-ahead-'));
  previous = path.join(tmp, 'previous');
  await linkedCopy(siteDir, previous);
  await buildSearchIndex(previous, { pagesPerBundle: PER_BUNDLE });
  const membership = JSON.parse(await readFile(path.join(previous, 'pagefind', PAGEFIND_MEMBERSHIP), 'utf8')) as PagefindMembership;
  const [first, second] = Object.values(membership)
    .map(({ pages }) => pages.find((url) => /^\/\d+-[^/]+\/$/.test(url)))
    .filter((url) => url !== undefined);
  expect(second, 'two bundles with a release page each').toBeDefined();
  changed = `${first!.slice(1)}index.html`;
  other = `${second!.slice(1)}index.html`;
}, 120_000);

beforeEach(async () => {
  // As the warm renderer does: the live site indexed by this process, its pages' readings kept.
  keepSearchablePages(true);
  await buildSearchIndex(previous, { pagesPerBundle: PER_BUNDLE, outputPath: path.join(tmp, 'kept') });
  next = path.join(tmp, 'next');
  await rm(next, { recursive: true, force: true });
  await linkedCopy(previous, next);
});

afterEach(() => keepSearchablePages(false));

describe('search bundles indexed while a warm change renders', () => {
  it('indexes the bundle of a page whose searchable part changed once its pages are written, and the index step takes it', async () => {
    const aside = path.join(tmp, 'aside-1');
    const render = ['feed.xml', other, changed];
    const ahead = await searchAhead({
      live: previous,
      membership: await readSearchMembership(previous),
      staging: next,
      aside,
      render,
      own: new Set([changed]),
      fresh: false,
    });
    // Pages grouped by bundle, those of a page whose own item changed first, then the rest.
    expect(ahead.order).toEqual([changed, other, 'feed.xml']);
    for (const file of ahead.order) {
      if (file === 'feed.xml') continue;
      const body =
        file === changed
          ? await rewrite(next, file, (html) => html.replace(/(<[^>]* data-pagefind-body[^>]*>)/, `$1${ADDED}`))
          : await rewrite(next, file, (html) => html.replace('</main>', '<p>Outside what is searched.</p></main>'));
      ahead.written(file, body);
    }
    const report = await buildSearchIndex(next, {
      pagesPerBundle: PER_BUNDLE,
      reuse: either(await reuseUnchangedSearchBundles(previous), ahead.reuse),
    });
    await ahead.close();
    expect(existsSync(aside)).toBe(false);
    expect(ahead.taken(), 'the changed page’s bundle, indexed ahead').toBe(1);
    expect(report.reusedBundles).toBe(report.bundles);
    // Both written pages were read as they were written: the index step reads none.
    expect(report.pagesRead).toBe(0);
    expect(await fileDigests(path.join(next, 'pagefind'))).toEqual(await freshIndex(next));
  }, 120_000);

  it('leaves a bundle whose pages changed after it was indexed ahead to the index step', async () => {
    const aside = path.join(tmp, 'aside-2');
    const ahead = await changedPageWritten(aside, false);
    await ahead.indexed();
    expect(await readdir(aside), 'the bundle was indexed ahead').toHaveLength(1);
    // Written again once that bundle was indexed: what the index step reads is not what was indexed ahead.
    await rewrite(next, changed, (html) => html.replace(ADDED, '<p>Another sentence.</p>'));
    const report = await buildSearchIndex(next, {
      pagesPerBundle: PER_BUNDLE,
      reuse: either(await reuseUnchangedSearchBundles(previous), ahead.reuse),
    });
    await ahead.close();
    expect(ahead.taken()).toBe(0);
    expect(report.reusedBundles).toBe(report.bundles - 1);
    expect(await fileDigests(path.join(next, 'pagefind'))).toEqual(await freshIndex(next));
  }, 120_000);

  it('stops Pagefind when no index step follows (a render that failed after a bundle began)', async () => {
    const pagefindChildren = () =>
      promisify(execFile)('pgrep', ['-P', String(process.pid), '-f', 'pagefind']).then(
        ({ stdout }) => stdout.trim().split('\n').filter(Boolean),
        () => [],
      );
    const aside = path.join(tmp, 'aside-4');
    const ahead = await changedPageWritten(aside, false);
    await ahead.indexed();
    expect(await pagefindChildren(), 'the bundle indexed ahead started Pagefind').not.toEqual([]);
    await ahead.close();
    expect(await pagefindChildren()).toEqual([]);
    expect(existsSync(aside)).toBe(false);
  }, 120_000);

  it('indexes nothing ahead for a change with new or removed pages', async () => {
    const ahead = await changedPageWritten(path.join(tmp, 'aside-3'), true);
    await buildSearchIndex(next, { pagesPerBundle: PER_BUNDLE, reuse: either(await reuseUnchangedSearchBundles(previous), ahead.reuse) });
    await ahead.close();
    expect(ahead.taken()).toBe(0);
  }, 120_000);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});
