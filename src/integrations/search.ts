/**
 * Static search: after the build, indexes the built pages with Pagefind and
 * writes its bundle to `<outDir>/pagefind/` (searched by src/pages/search.astro
 * in the browser: no server, no key, no third-party request).
 *
 * - Indexes the real output folder the build wrote (the `dir` of
 *   `astro:build:done`: scripts/build.ts builds into a staging folder and swaps
 *   it in only on success, so a failed index leaves the previous site as it was).
 * - Pages are added one by one in path order, never the search page or the 404.
 *   Only content inside `data-pagefind-body` is indexed once any page has it;
 *   filters come from <SearchMeta> (src/components/SearchMeta.astro).
 * - One index for the whole site, in the press room's language (`forceLanguage`,
 *   from the home page's <html lang>): Pagefind would otherwise split the index
 *   per language and a search page could only ever search its own language;
 *   languages are a filter instead.
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
import { PAGEFIND_DIR } from '../lib/search.ts';
import { searchScripts } from '../search/bundle.ts';
import { SEARCH_DIR } from '../search/format.ts';

export interface SearchIndexOptions {
  /** Site paths never indexed (relative to the output folder, `/` separators). */
  exclude?: string[];
  /** Where the bundle goes (default `<siteDir>/pagefind`). */
  outputPath?: string;
}

const DEFAULT_EXCLUDE = ['search/index.html', '404.html', '404/index.html'];

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
  language: string;
  ms: number;
}

/** Writes the search page's controller script into `<siteDir>/_search/`. */
export async function writeSearchController(siteDir: string): Promise<void> {
  const { controller } = await searchScripts();
  await rm(path.join(siteDir, SEARCH_DIR), { recursive: true, force: true });
  await mkdir(path.join(siteDir, SEARCH_DIR), { recursive: true });
  await writeFile(path.join(siteDir, SEARCH_DIR, controller.name), controller.code);
}

/** Indexes the HTML pages of a built site into `<siteDir>/pagefind/`. */
export async function buildSearchIndex(siteDir: string, options: SearchIndexOptions & { logger?: AstroIntegrationLogger } = {}): Promise<IndexReport> {
  const started = performance.now();
  const exclude = new Set(options.exclude ?? DEFAULT_EXCLUDE);
  const outputPath = options.outputPath ?? path.join(siteDir, PAGEFIND_DIR);
  const files = (await readdir(siteDir, { recursive: true }))
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.html') && !f.startsWith(`${PAGEFIND_DIR}/`) && !exclude.has(f))
    .sort();
  const language = await siteLanguage(siteDir);

  // Imported here: the Pagefind service is a child process, started only when a build indexes.
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: language, keepIndexUrl: false });
    if (!index) throw new Error(`search index: Pagefind did not start: ${errors.join('; ')}`);
    for (const file of files) {
      const url = `/${file.replace(/(^|\/)index\.html$/, '$1')}`;
      const added = await index.addHTMLFile({ url, content: await readFile(path.join(siteDir, file), 'utf8') });
      if (added.errors.length > 0) throw new Error(`search index: ${url}: ${added.errors.join('; ')}`);
    }
    await rm(outputPath, { recursive: true, force: true });
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(`search index: ${written.errors.join('; ')}`);
    const count = (await readdir(outputPath, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
    // Pages without `data-pagefind-body` are left out once any page has it: the entry file says how many went in.
    const entry = JSON.parse(await readFile(path.join(outputPath, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
    const pages = Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0);
    const report = { pages, files: count, language, ms: Math.round(performance.now() - started) };
    options.logger?.info(`search: ${pages} of ${files.length} pages indexed (${language}), ${count} files in /${PAGEFIND_DIR}/, ${report.ms} ms`);
    return report;
  } finally {
    await pagefind.close();
  }
}

/** The press room's language: the home page's <html lang> (Pagefind wants ISO 639-1, so the primary subtag). */
async function siteLanguage(siteDir: string): Promise<string> {
  try {
    const home = await readFile(path.join(siteDir, 'index.html'), 'utf8');
    const lang = /<html\b[^>]*\blang="([A-Za-z]{2,3})(?:[-_][^"]*)?"/i.exec(home)?.[1];
    if (lang) return lang.toLowerCase();
  } catch {
    // no home page: fall through
  }
  return 'en';
}
