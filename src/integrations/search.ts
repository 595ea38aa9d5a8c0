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
 *   (src/search/pagefind-bundles.ts); the search page loads every bundle, or
 *   only the one its language filter names, and merges the results.
 * - The same pages give the same bytes: Pagefind names its files by content
 *   hash and writes no timestamp (checked by test/site/built/search.test.ts).
 * - The search page's controller is a classic script bundled from
 *   src/search/client/ into `_search/` (src/search/bundle.ts); the offline
 *   archive adds the script-file index beside it (src/search/index-files.ts),
 *   which a page opened from a folder can load where Pagefind cannot.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { detached } from '../lib/detached.ts';
import { PAGEFIND_DIR } from '../lib/search.ts';
import { searchScripts } from '../search/bundle.ts';
import { NOT_SEARCHED, searchDocument, sitePathOf } from '../search/documents.ts';
import { SEARCH_DIR, type PageMeta } from '../search/format.ts';
import { PAGEFIND_MANIFEST, VOCABULARY_FILTER, VOCABULARY_URL, type PagefindManifest } from '../search/pagefind-bundles.ts';
import { indexLanguage, words } from '../search/terms.ts';

export interface SearchIndexOptions {
  /** Site paths never indexed (relative to the output folder, `/` separators). */
  exclude?: string[];
  /** Where the bundle goes (default `<siteDir>/pagefind`). */
  outputPath?: string;
}

export default function search(options: SearchIndexOptions = {}): AstroIntegration {
  return {
    name: 'pressroom-static:search',
    hooks: {
      // Bundled here first, where the client sources are found (the search page reads the same bundle).
      'astro:build:start': async () => {
        await searchScripts();
      },
      'astro:build:done': async ({ dir, logger }) => {
        const siteDir = fileURLToPath(dir);
        await writeSearchController(siteDir);
        await buildSearchIndex(siteDir, { exclude: options.exclude, logger });
      },
    },
  };
}

export interface IndexReport {
  pages: number;
  files: number;
  /** The bundles written, one per language (ISO 639-1), most pages first. */
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

/** Indexes the HTML pages of a built site into `<siteDir>/pagefind/<language>/`, one Pagefind bundle per language. */
export async function buildSearchIndex(
  siteDir: string,
  options: SearchIndexOptions & { logger?: AstroIntegrationLogger } = {},
): Promise<IndexReport> {
  const started = performance.now();
  const outputPath = options.outputPath ?? path.join(siteDir, PAGEFIND_DIR);
  // Imported here: the Pagefind service is a child process, started only when a build indexes.
  const pagefind = await import('pagefind');
  const manifest: PagefindManifest = { bundles: [], filters: {} };
  try {
    const languages = await indexSearchablePages(pagefind, siteDir, options.exclude ?? NOT_SEARCHED);
    manifest.filters = filterCounts([...languages.values()].flatMap((g) => g.documents));
    await rm(outputPath, { recursive: true, force: true });
    for (const [language, group] of languages) {
      const vocabulary = vocabularyFor(language, languages);
      await writeLanguageBundle(group.index, language, vocabulary, path.join(outputPath, language));
      manifest.bundles.push({ language, pages: group.files.length, vocabulary: vocabulary.length > 0 });
    }
  } finally {
    await pagefind.close();
  }
  await mkdir(outputPath, { recursive: true });
  await writeFile(path.join(outputPath, PAGEFIND_MANIFEST), `${JSON.stringify(manifest)}\n`);

  const files = (await readdir(outputPath, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  const report = {
    pages: manifest.bundles.reduce((n, b) => n + b.pages, 0),
    files,
    languages: manifest.bundles.map((b) => b.language),
    ms: Math.round(performance.now() - started),
  };
  const perLanguage = manifest.bundles.map((b) => `${b.language} ${b.pages}`).join(', ');
  options.logger?.info(
    `search: ${report.pages} pages indexed, each language with its own stemming (${perLanguage}), ${files} files in /${PAGEFIND_DIR}/, ${report.ms} ms`,
  );
  return report;
}

type PagefindIndex = NonNullable<Awaited<ReturnType<PagefindModule['createIndex']>>['index']>;

interface LanguageGroup {
  /** The language's Pagefind index, its pages added in path order. */
  index: PagefindIndex;
  /** Site-relative HTML files, in path order. */
  files: string[];
  /** What each of them says it is (<SearchMeta>), in the same order. */
  documents: PageMeta[];
  /** Every word of those pages, lower-cased. */
  words: Set<string>;
}

/**
 * Reads every page that marks content to search (`data-pagefind-body`) once: finds its language
 * and words, and adds it to that language's index (made at the language's first page). Only those
 * pages go into an index: Pagefind would index a whole page when none of its index's pages marks
 * any content. Groups come out most pages first.
 */
async function indexSearchablePages(
  pagefind: PagefindModule,
  siteDir: string,
  skip: readonly string[],
): Promise<Map<string, LanguageGroup>> {
  const excluded = new Set(skip);
  const files = (await readdir(siteDir, { recursive: true }))
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.html') && !f.startsWith(`${PAGEFIND_DIR}/`) && !excluded.has(f))
    .sort();
  const groups = new Map<string, LanguageGroup>();
  for (const file of files) {
    const url = sitePathOf(file);
    const content = await readFile(path.join(siteDir, file), 'utf8');
    const document = searchDocument(content, url);
    if (!document) continue;
    const language = indexLanguage(document.lang);
    let group = groups.get(language);
    if (!group)
      groups.set(language, (group = { index: await languageIndex(pagefind, language), files: [], documents: [], words: new Set() }));
    const added = await group.index.addHTMLFile({ url, content });
    if (added.errors.length > 0) throw new Error(`search index: ${url}: ${added.errors.join('; ')}`);
    const { text, ...meta } = document;
    group.files.push(file);
    group.documents.push(keptMeta(meta));
    for (const word of words(`${meta.title} ${meta.tags.join(' ')} ${text}`)) {
      const lower = word.toLowerCase();
      if (!group.words.has(lower)) group.words.add(detached(lower));
    }
  }
  return new Map([...groups].sort(([a, x], [b, y]) => y.files.length - x.files.length || a.localeCompare(b)));
}

/**
 * What is kept of a page until every page is indexed, as copies of its own: the parser's values are
 * views of the page's whole HTML, and at 10,000 releases keeping them held every page read (400 MB).
 */
function keptMeta(meta: PageMeta): PageMeta {
  return {
    url: detached(meta.url),
    title: detached(meta.title),
    type: detached(meta.type),
    lang: detached(meta.lang),
    date: meta.date === null ? null : detached(meta.date),
    year: meta.year === null ? null : detached(meta.year),
    tags: meta.tags.map(detached),
  };
}

/** A Pagefind index that stems with `language`'s rules. */
async function languageIndex(pagefind: PagefindModule, language: string): Promise<PagefindIndex> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: language, keepIndexUrl: false });
  if (!index) throw new Error(`search index: Pagefind did not start: ${errors.join('; ')}`);
  return index;
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
 * The words of the other languages' pages that this language's pages lack, sorted.
 * Each bundle holds them in one hidden record: Pagefind searches a word it does
 * not know as its longest known prefix, so without them a Dutch word typed into
 * the search would find English pages by some short prefix ("bedrijven" → "be").
 */
function vocabularyFor(language: string, groups: Map<string, LanguageGroup>): string[] {
  const own = groups.get(language)?.words ?? new Set<string>();
  const others = new Set<string>();
  for (const [other, group] of groups) {
    if (other === language) continue;
    for (const word of group.words) if (!own.has(word)) others.add(word);
  }
  return [...others].sort();
}

/** One language's bundle: its pages (already added) and the hidden vocabulary record, written to `outputPath`. */
async function writeLanguageBundle(index: PagefindIndex, language: string, vocabulary: string[], outputPath: string): Promise<void> {
  if (vocabulary.length > 0) {
    const added = await index.addCustomRecord({
      url: VOCABULARY_URL,
      content: vocabulary.join(' '),
      language,
      filters: { [VOCABULARY_FILTER]: ['1'] },
      meta: { title: '' },
    });
    if (added.errors.length > 0) throw new Error(`search index: the ${language} vocabulary record: ${added.errors.join('; ')}`);
  }
  const written = await index.writeFiles({ outputPath });
  if (written.errors.length > 0) throw new Error(`search index (${language}): ${written.errors.join('; ')}`);
  // The search page has its own interface (src/search/client/): Pagefind's ready-made ones (~430 KB a bundle) are never loaded.
  await Promise.all(PAGEFIND_UI_FILES.map((file) => rm(path.join(outputPath, file), { force: true })));
}

const PAGEFIND_UI_FILES = [
  'pagefind-ui.js',
  'pagefind-ui.css',
  'pagefind-modular-ui.js',
  'pagefind-modular-ui.css',
  'pagefind-component-ui.js',
  'pagefind-component-ui.css',
  'pagefind-highlight.js',
];
