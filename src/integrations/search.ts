/**
 * Static search: after the build, indexes the built pages with Pagefind and
 * writes its bundles to `<outDir>/pagefind/` (searched by src/pages/search.astro
 * in the browser: no server, no key, no third-party request).
 *
 * - Indexes the real output folder the build wrote (the `dir` of
 *   `astro:build:done`: scripts/build.ts builds into a staging folder and swaps
 *   it in only on success, so a failed index leaves the previous site as it was).
 * - Only pages that mark their content with `data-pagefind-body` are indexed,
 *   never the search page or the 404; filters come from <SearchMeta>
 *   (src/components/SearchMeta.astro).
 * - One bundle per language (`pagefind/nl/`, …), each stemmed with its own
 *   Snowball rules, named in `pagefind/bundles.json`
 *   (src/search/pagefind-bundles.ts), and a language with more than
 *   PAGES_PER_BUNDLE pages split by a hash of its pages' URLs (`en-0/`, `en-10/`,
 *   …; src/search/bundle-membership.ts) so that Pagefind's memory stays bounded
 *   and a changed page changes one bundle; `pagefind/pages.json` records which.
 *   The search page asks the bundles that know its words (`pagefind/words/`,
 *   src/search/word-masks.ts), or every one, or its language filter's, and
 *   merges the results.
 * - The same pages give the same bytes: Pagefind names its files by content
 *   hash and writes no timestamp (checked by test/site/built/search.test.ts).
 * - Under `npm run dev` the same search works: the controller is served from
 *   memory and the pages the dev server renders are indexed on the first
 *   search (src/search/dev-search.ts).
 * - The search page's controller is a classic script bundled from
 *   src/search/client/ into `_search/` (src/search/bundle.ts); the offline
 *   archive adds the script-file index beside it (src/search/index-files.ts),
 *   which a page opened from a folder can load where Pagefind cannot.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import pLimit from 'p-limit';
import { releaseFreedMemory } from '../lib/freed-memory.ts';
import { filesOf } from '../lib/site-files.ts';
import { PAGEFIND_DIR } from '../search/vocabulary.ts';
import { settledOrStalled } from '../lib/stall-guard.ts';
import { searchScripts } from '../search/bundle.ts';
import { createDevSearch, type DevSearch } from '../search/dev-search.ts';
import { NOT_SEARCHED } from '../search/documents.ts';
import { readSearchablePages, type SearchablePages } from '../search/searchable-pages.ts';
import { SEARCH_DIR, type PageMeta } from '../search/format.ts';
import {
  PAGEFIND_MANIFEST,
  PAGEFIND_MEMBERSHIP,
  PAGES_PER_BUNDLE,
  WORDS_DIR,
  type PagefindManifest,
  type PagefindMembership,
} from '../search/pagefind-bundles.ts';
import { bundleMembership, type BundleMembership } from '../search/bundle-membership.ts';
import { wordShards } from '../search/word-masks.ts';
import { sessionState } from '../config/session.ts';

export interface SearchIndexOptions {
  /** Site paths never indexed (relative to the output folder, `/` separators). */
  exclude?: string[];
  /** Where the bundles go (default `<siteDir>/pagefind`). */
  outputPath?: string;
  /** The most pages one bundle holds (default PAGES_PER_BUNDLE). */
  pagesPerBundle?: number;
  /** The site's files, when the caller knows them (a warm change: every route of the new site); else the site is walked. */
  files?: readonly string[];
}

/** A bundle about to be written: its folder under the output, and a digest of everything Pagefind would read for it. */
export interface BundleToWrite {
  dir: string;
  /** Its language, its pages' URLs in order and what Pagefind reads of each (`pagefindInput`), digested. */
  input: string;
}

/**
 * Puts a bundle in `outputDir` without indexing it, when it can prove the bundle would come out
 * the same (the site it replaces has this bundle from the same input: scripts/partial-build.ts);
 * false to index it.
 */
export type ReuseBundle = (bundle: BundleToWrite, outputDir: string) => Promise<boolean>;

declare module '../config/session.ts' {
  interface SessionState {
    searchReuse: { make?: () => Promise<ReuseBundle> | undefined };
  }
}

/**
 * The build command names how this build may take bundles from the site it replaces (a partial
 * build links most pages from it: scripts/partial-build.ts); without it every bundle is indexed.
 */
export function reuseSearchBundles(make: () => Promise<ReuseBundle> | undefined): void {
  sessionState('searchReuse', () => ({})).make = make;
}

export default function search(options: SearchIndexOptions = {}): AstroIntegration {
  let base = '/';
  let origin: string | undefined;
  let dev: DevSearch | undefined;
  return {
    name: 'pressroom-static:search',
    hooks: {
      'astro:config:done': ({ config }) => {
        base = config.base.endsWith('/') ? config.base : `${config.base}/`;
      },
      // `npm run dev`: the controller and an index of the pages the dev server renders (src/search/dev-search.ts).
      'astro:server:setup': ({ server, logger }) => {
        dev = createDevSearch({ base, origin: () => origin, log: (line) => logger.info(line) });
        server.middlewares.use(dev.middleware);
      },
      'astro:server:start': ({ address }) => {
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        origin = `http://${host === '[::]' || host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
      },
      'astro:server:done': async () => {
        await dev?.close();
      },
      // Bundled here first, where the client sources are found (the search page reads the same bundle).
      'astro:build:start': async () => {
        await searchScripts();
      },
      'astro:build:done': async ({ dir, logger }) => {
        const siteDir = fileURLToPath(dir);
        // The pages are written: what rendering freed goes back before Pagefind's process starts beside this one.
        const { beforeMiB, afterMiB } = releaseFreedMemory();
        logger.info(`memory: ${beforeMiB} MiB → ${afterMiB} MiB resident before indexing (freed pages returned)`);
        await writeSearchController(siteDir);
        const reuse = await sessionState('searchReuse', () => ({})).make?.();
        await buildSearchIndex(siteDir, { exclude: options.exclude, logger, reuse });
      },
    },
  };
}

export interface IndexReport {
  pages: number;
  bundles: number;
  /** Of them, taken as they were (`reuse`), not indexed again. */
  reusedBundles: number;
  /** Of the site's HTML files, those read now (the others kept from the last index: src/search/searchable-pages.ts). */
  pagesRead: number;
  files: number;
  /** The languages indexed (ISO 639-1), most pages first. */
  languages: string[];
  ms: number;
}

/** Writes the search page's controller script into `<siteDir>/_search/`. */
export async function writeSearchController(siteDir: string): Promise<void> {
  const { controller } = await searchScripts();
  await rm(path.join(siteDir, SEARCH_DIR), { recursive: true, force: true });
  await mkdir(path.join(siteDir, SEARCH_DIR), { recursive: true });
  await writeFile(path.join(siteDir, SEARCH_DIR, controller.name), controller.code);
}

type PagefindModule = typeof import('pagefind');

/** Indexes the HTML pages of a built site into `<siteDir>/pagefind/<language>/` (split by URL hash past PAGES_PER_BUNDLE pages). */
export async function buildSearchIndex(
  siteDir: string,
  options: SearchIndexOptions & { logger?: AstroIntegrationLogger; reuse?: ReuseBundle } = {},
): Promise<IndexReport> {
  const started = performance.now();
  const outputPath = options.outputPath ?? path.join(siteDir, PAGEFIND_DIR);
  // Imported here: the Pagefind service is a child process, started only when a build indexes.
  const pagefind = await import('pagefind');
  const manifest: PagefindManifest = { bundles: [], filters: {}, words: [] };
  const membership: PagefindMembership = {};
  let reused = 0;
  let site: SearchablePages;
  // Pagefind indexes in a process of its own: the bundles it writes follow one another (it holds one
  // bundle's pages at a time, and a warm change's bundle indexed ahead beside them: scripts/warm/
  // search-ahead.ts) while this one links the bundles kept and sorts the words (at L 0.4-0.5 s
  // of this one's beside a bundle's 1.8-2.7 s of Pagefind's, when a warm change could not index it ahead).
  let indexing = Promise.resolve();
  try {
    site = await readSearchablePages(siteDir, options.exclude ?? NOT_SEARCHED, options.files);
    manifest.filters = filterCounts(site.documents);
    const bundles = bundleMembership(site.pages, options.pagesPerBundle ?? PAGES_PER_BUNDLE);
    await rm(outputPath, { recursive: true, force: true });
    for (const bundle of bundles) {
      const target = path.join(outputPath, bundle.dir);
      const input = bundleInput(bundle, site.pagefindInputOf);
      if (await options.reuse?.({ dir: bundle.dir, input }, target)) reused++;
      else {
        indexing = indexing.then(() => unlessStalled(writeBundle(pagefind, siteDir, bundle, site.fileOf, target), bundle.dir));
        indexing.catch(() => undefined); // awaited below, after the words
      }
      manifest.bundles.push({ dir: bundle.dir, language: bundle.language, pages: bundle.urls.length });
      membership[bundle.dir] = { input, pages: bundle.urls };
    }
    await mkdir(path.join(outputPath, WORDS_DIR), { recursive: true });
    const shards = wordShards(bundles.map((b) => ({ language: b.language, words: site.wordsOf(b.urls) })));
    for (const [name, shard] of shards) await writeFile(path.join(outputPath, WORDS_DIR, name), `${JSON.stringify(shard)}\n`);
    manifest.words = [...shards.keys()];
    await indexing;
  } finally {
    // Never closed under a bundle it is writing, even when this side failed first.
    await indexing.catch(() => undefined);
    await pagefind.close();
  }
  await writeFile(path.join(outputPath, PAGEFIND_MEMBERSHIP), `${JSON.stringify(membership)}\n`);
  await writeFile(path.join(outputPath, PAGEFIND_MANIFEST), `${JSON.stringify(manifest)}\n`);

  const files = (await filesOf(outputPath)).length;
  const report = {
    pages: manifest.bundles.reduce((n, b) => n + b.pages, 0),
    bundles: manifest.bundles.length,
    reusedBundles: reused,
    pagesRead: site.read,
    files,
    languages: languagesByPages(manifest.bundles),
    ms: Math.round(performance.now() - started),
  };
  const perBundle = manifest.bundles.map((b) => `${b.dir} ${b.pages}`).join(', ');
  const kept =
    reused > 0 ? `, ${reused} of ${manifest.bundles.length} bundles kept from the previous site (their pages read as before)` : '';
  options.logger?.info(
    `search: ${report.pages} pages indexed, each language with its own stemming (${perBundle}), ${files} files in /${PAGEFIND_DIR}/${kept}, ${report.ms} ms`,
  );
  return report;
}

/**
 * One bundle indexed now into `outputPath`, exactly as `buildSearchIndex` indexes it, its pages read
 * from `siteDir` (a warm change indexes a bundle while it renders the rest: scripts/warm/search-ahead.ts).
 * Pagefind's service is left running for the `buildSearchIndex` that follows; the caller closes it
 * once it no longer needs the bundle (`closeSearchIndexer`).
 */
export async function indexBundle(
  siteDir: string,
  bundle: BundleMembership,
  fileOf: (url: string) => string,
  outputPath: string,
): Promise<void> {
  const pagefind = await import('pagefind');
  await unlessStalled(writeBundle(pagefind, siteDir, bundle, fileOf, outputPath), bundle.dir);
}

/** Stops Pagefind's service (a warm change's bundle indexed ahead and left unused may have started it again). */
export async function closeSearchIndexer(): Promise<void> {
  await (await import('pagefind')).close();
}

/** What Pagefind is given for a bundle: its language (the stemmer), then its pages in order, each as it reads them. */
export function bundleInput(bundle: BundleMembership, pagefindInputOf: (url: string) => string): string {
  const hash = createHash('sha256').update(bundle.language);
  for (const url of bundle.urls) hash.update('\0').update(url).update('\0').update(pagefindInputOf(url));
  return hash.digest('hex');
}

/** The bundles' languages, most pages first. */
function languagesByPages(bundles: PagefindManifest['bundles']): string[] {
  const pages = new Map<string, number>();
  for (const b of bundles) pages.set(b.language, (pages.get(b.language) ?? 0) + b.pages);
  return [...pages].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([language]) => language);
}

/**
 * `work`, or an error that names the bundle once Pagefind's service stopped: it never answers the
 * requests it was given when its process ends (a full disk or too little memory makes it panic),
 * and its client leaves their promises pending (src/lib/stall-guard.ts).
 */
async function unlessStalled<T>(work: Promise<T>, bundle: string): Promise<T> {
  const stopped = () =>
    new Error(
      `search index (${bundle}): Pagefind's indexer stopped without an answer (its own message is above; a full disk or too little memory are the usual causes)`,
    );
  try {
    return await settledOrStalled(work, stopped);
  } catch (error) {
    // What Pagefind's client says when its process was gone as a request was sent.
    throw error instanceof Error && error.message === 'Pagefind backend closed' ? stopped() : error;
  }
}

/** How many pages have each filter value, as Pagefind counts them (keys sorted: the same pages give the same bytes). */
function filterCounts(documents: PageMeta[]): PagefindManifest['filters'] {
  const counts: Record<string, Map<string, number>> = { type: new Map(), language: new Map(), year: new Map(), tag: new Map() };
  const add = (key: string, value: string | null) => {
    if (value) counts[key]!.set(value, (counts[key]!.get(value) ?? 0) + 1);
  };
  for (const doc of documents) {
    add('type', doc.type);
    add('language', doc.lang);
    add('year', doc.year);
    for (const tag of doc.tags) add('tag', tag);
  }
  const sorted = (values: Map<string, number>) => Object.fromEntries([...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return Object.fromEntries(Object.entries(counts).map(([key, values]) => [key, sorted(values)]));
}

/**
 * One bundle, written to `outputPath` by an index of its own, stemmed with its language's rules: its
 * pages, read again. The index is let go before the next bundle, so Pagefind holds one bundle's
 * pages at a time.
 */
async function writeBundle(
  pagefind: PagefindModule,
  siteDir: string,
  bundle: BundleMembership,
  fileOf: (url: string) => string,
  outputPath: string,
): Promise<void> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: bundle.language, keepIndexUrl: false });
  if (!index) throw new Error(`search index: Pagefind did not start: ${errors.join('; ')}`);
  // Read first (PAGES_READ_AT_ONCE files open at a time), then sent one after another without waiting for each answer:
  // Pagefind's service takes its requests in the order they come (the same index, the same bytes), and
  // a round trip per page was most of a bundle's time. A page read and sent per turn of an event loop
  // busy rendering (a warm change indexes while it renders: scripts/warm/search-ahead.ts) fed Pagefind
  // so slowly that an L bundle it indexes in 1.8 s took 5.2 s.
  const read = pLimit(PAGES_READ_AT_ONCE);
  const contents = await Promise.all(bundle.urls.map((url) => read(() => readFile(path.join(siteDir, fileOf(url)), 'utf8'))));
  const adding: Array<Promise<{ errors: string[] }>> = [];
  for (const [n, url] of bundle.urls.entries()) {
    const added = index.addHTMLFile({ url, content: contents[n]! });
    // Sent (encoded into the service's pipe): let go, not held until the bundle is written.
    contents[n] = '';
    added.catch(() => undefined); // awaited below, with the others
    adding.push(added);
  }
  for (const [n, added] of (await Promise.all(adding)).entries())
    if (added.errors.length > 0) throw new Error(`search index: ${bundle.urls[n]}: ${added.errors.join('; ')}`);
  const written = await index.writeFiles({ outputPath });
  if (written.errors.length > 0) throw new Error(`search index (${bundle.dir}): ${written.errors.join('; ')}`);
  await index.deleteIndex();
  // The search page has its own interface (src/search/client/): Pagefind's ready-made ones (~430 KB a bundle) are never loaded.
  await Promise.all(PAGEFIND_UI_FILES.map((file) => rm(path.join(outputPath, file), { force: true })));
}

/** Page files open at once while a bundle's pages are read (far below any open-file limit). */
const PAGES_READ_AT_ONCE = 32;

const PAGEFIND_UI_FILES = [
  'pagefind-ui.js',
  'pagefind-ui.css',
  'pagefind-modular-ui.js',
  'pagefind-modular-ui.css',
  'pagefind-component-ui.js',
  'pagefind-component-ui.css',
  'pagefind-highlight.js',
];
