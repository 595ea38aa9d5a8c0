/**
 * The static search index of the built site (src/integrations/search.ts):
 * Pagefind's bundles are in /pagefind/<language>/, one per language (split by
 * URL hash into `<language>-0/`, `-1/`, … past a bundle's page count), only the
 * pages that mark their content, with the filters the search page offers, which
 * bundle holds each page recorded in /pagefind/pages.json, and the same pages
 * always give the same bytes.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSearchIndex } from '../../../src/integrations/search.ts';
import {
  PAGEFIND_MANIFEST,
  PAGEFIND_MEMBERSHIP,
  PAGES_PER_BUNDLE,
  WORDS_DIR,
  type PagefindManifest,
  type PagefindMembership,
  type WordShard,
} from '../../../src/search/pagefind-bundles.ts';
import { bundleMembership } from '../../../src/search/bundle-membership.ts';
import { indexLanguage } from '../../../src/search/terms.ts';
import { bundleFragments, bundleUrls, elements, listFiles, loadPages, type BuiltPage } from '../helpers.ts';
import { SOURCE_CONDITION_FLAG } from '../../../src/config/source-condition.ts';
import { reuseUnchangedSearchBundles } from '../../../scripts/partial-build.ts';
import { fileDigests } from '../../helpers/file-tree.ts';
import { keepSearchablePages } from '../../../src/search/searchable-pages.ts';
import { NOT_SEARCHED } from '../../../src/search/documents.ts';

const siteDir = inject('siteDir');
const bundle = path.join(siteDir, 'pagefind');
let pages: BuiltPage[];

beforeAll(async () => {
  pages = await loadPages(siteDir);
});

/** The search metadata a page declares: name → values (from <SearchMeta>). */
function searchMeta(page: BuiltPage): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of elements(page.doc, 'meta')) {
    const name = m.attribs.name ?? '';
    if (!name.startsWith('pagefind:')) continue;
    out.set(name.slice(9), [...(out.get(name.slice(9)) ?? []), m.attribs.content ?? '']);
  }
  return out;
}
const hasBody = (page: BuiltPage) => page.html.includes('data-pagefind-body');

/** Pages per language as the index groups them. */
function pagesPerLanguage(searchable: BuiltPage[]): Map<string, number> {
  const expected = new Map<string, number>();
  for (const page of searchable) {
    const lang = indexLanguage(searchMeta(page).get('language')?.[0]);
    expected.set(lang, (expected.get(lang) ?? 0) + 1);
  }
  return expected;
}

describe('the search index', () => {
  it('is written to /pagefind/ as one bundle per language, each stemmed with its own rules', async () => {
    expect(
      existsSync(path.join(bundle, PAGEFIND_MANIFEST)),
      'no /pagefind/ in the build: astro.config.mjs must list search() (src/integrations/search.ts) last',
    ).toBe(true);
    const manifest = JSON.parse(await readFile(path.join(bundle, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
    const expected = pagesPerLanguage(pages.filter(hasBody));
    expect(expected.size, 'the demo publishes in three languages').toBe(3);
    expect(new Map(manifest.bundles.map((b) => [b.language, b.pages]))).toEqual(expected);
    for (const { dir: folder, language, pages: count } of manifest.bundles) {
      expect(folder, 'fewer pages than a bundle holds: one bundle per language').toBe(language);
      const dir = path.join(bundle, folder);
      const entry = JSON.parse(await readFile(path.join(dir, 'pagefind-entry.json'), 'utf8')) as {
        languages: Record<string, { page_count: number; wasm: string }>;
      };
      // One language per bundle, with that language's stemmer: Dutch pages are never stemmed with English rules.
      expect(Object.keys(entry.languages), language).toEqual([language]);
      expect(entry.languages[language]!.wasm, language).toBe(language);
      // Its pages and nothing else: which bundles know a word is in the word files, not in the bundles.
      expect(entry.languages[language]!.page_count, language).toBe(count);
      expect(await bundleUrls(dir), language).toHaveLength(count);
      const files = (await listFiles(dir)).map((f) => path.relative(dir, f));
      expect(files).toContain('pagefind.js');
      expect(files).toContain(`wasm.${language}.pagefind`);
    }
  });

  it('records which bundle holds each page, as a hash of its URL places it, each page once', async () => {
    const manifest = JSON.parse(await readFile(path.join(bundle, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
    const membership = JSON.parse(await readFile(path.join(bundle, PAGEFIND_MEMBERSHIP), 'utf8')) as PagefindMembership;
    const searchable = pages.filter(hasBody);
    expect(Object.keys(membership)).toEqual(manifest.bundles.map((b) => b.dir));
    for (const { dir, pages: count } of manifest.bundles) {
      expect(membership[dir]!.pages, dir).toHaveLength(count);
      expect(membership[dir]!.input, dir).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(await bundleUrls(path.join(bundle, dir))), dir).toEqual(new Set(membership[dir]!.pages));
    }
    expect(
      Object.values(membership)
        .flatMap((b) => b.pages)
        .sort(),
      'every searchable page in exactly one bundle',
    ).toEqual(searchable.map((p) => p.path).sort());
    // What a later build that re-indexes one bundle reads is what the membership function gives for these pages.
    const placed = bundleMembership(
      searchable.map((p) => ({ url: p.path, language: indexLanguage(searchMeta(p).get('language')?.[0]) })),
      PAGES_PER_BUNDLE,
    );
    expect(Object.fromEntries(placed.map((b) => [b.dir, b.urls]))).toEqual(
      Object.fromEntries(Object.entries(membership).map(([dir, b]) => [dir, b.pages])),
    );
  });

  it('writes the word files the manifest names, every word of a bundle leading to it', async () => {
    const manifest = JSON.parse(await readFile(path.join(bundle, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
    const files = (await listFiles(path.join(bundle, WORDS_DIR))).map((f) => path.basename(f)).sort();
    expect(manifest.words).toEqual(files);
    expect(files.length).toBeGreaterThan(50);
    const dutch = manifest.bundles.findIndex((b) => b.language === 'nl');
    const shard = JSON.parse(await readFile(path.join(bundle, WORDS_DIR, '6265.json'), 'utf8')) as WordShard;
    // `bedrijven` (companies) is on Dutch pages alone: the search page asks the Dutch bundle only.
    expect(shard.bedrijven).toBe((1n << BigInt(dutch)).toString(16));
  });

  it('keeps of a topic page its name and description, not its release count, and names no result image for any page', async () => {
    const manifest = JSON.parse(await readFile(path.join(bundle, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
    const fragments = (await Promise.all(manifest.bundles.map(({ dir }) => bundleFragments(path.join(bundle, dir))))).flat();
    // Pagefind would take the first image after the title: on a topic page, the newest listed release's picture.
    expect(fragments.filter((fragment) => fragment.meta.image !== '').map((fragment) => fragment.url)).toEqual([]);
    const topics = fragments.filter((fragment) => /^\/tags\/[^/]+\/$/.test(fragment.url));
    expect(topics.length).toBeGreaterThan(5);
    for (const topic of topics) {
      const page = pages.find((p) => p.path === topic.url)!;
      expect(topic.content, topic.url).toContain(
        elements(page.doc, 'h1')[0]!
          .children.map((c) => ('data' in c ? c.data : ''))
          .join(''),
      );
      // The count changes with every release of the topic; searched, it would re-index the topic's bundle each time.
      expect(topic.content, topic.url).not.toMatch(/\d+ (?:press releases|persberichten|Pressemitteilungen)|1 press release/);
    }
  });

  it('indexes release, topic and custom pages with their filters, never the listings, the search page or the 404', () => {
    const byPath = new Map(pages.map((p) => [p.path, p]));
    const releases = pages.filter((p) => /^\/\d+-[^/]+\/$/.test(p.path));
    expect(releases.length).toBeGreaterThan(40);
    for (const page of releases) {
      const meta = searchMeta(page);
      expect(hasBody(page), page.path).toBe(true);
      expect(meta.get('type'), page.path).toEqual(['release']);
      expect(meta.get('language'), page.path).toEqual([elements(page.doc, 'html')[0]?.attribs.lang]);
      expect(meta.get('year')?.[0], page.path).toMatch(/^\d{4}$/);
    }
    for (const page of pages.filter((p) => /^\/tags\/[^/]+\/$/.test(p.path))) {
      expect(searchMeta(page).get('type'), page.path).toEqual(['topic']);
      expect(hasBody(page), page.path).toBe(true);
    }
    for (const page of pages.filter((p) => /^\/pages\/[^/]+\/$/.test(p.path))) {
      expect(searchMeta(page).get('type'), page.path).toEqual(['page']);
      expect(hasBody(page), page.path).toBe(true);
    }
    for (const p of ['/', '/releases/', '/archive/', '/tags/', '/search/', '/404.html']) {
      expect(byPath.has(p), p).toBe(true);
      expect(hasBody(byPath.get(p)!), p).toBe(false);
    }
  });

  it('keeps, from the previous site, every bundle whose pages Pagefind reads as before, byte for byte, and indexes the others again; a process that keeps pages reads only the pages written anew', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'pressroom-pagefind-reuse-'));
    const linkedCopy = async (from: string, to: string) => {
      await promisify(execFile)('cp', ['-al', from, to]);
      await rm(path.join(to, 'pagefind'), { recursive: true, force: true });
    };
    const rewrite = async (site: string, page: BuiltPage, edit: (html: string) => string) => {
      const file = path.join(site, page.path, 'index.html');
      const html = await readFile(file, 'utf8');
      await rm(file);
      await writeFile(file, edit(html));
      expect(await readFile(file, 'utf8'), page.path).not.toBe(html);
    };
    try {
      // The site as built, and the next site as a partial build lays it out: every file the previous
      // one's but two pages written anew, each in a bundle of its own: one whose searchable part
      // changed, one changed only outside it (as a release that lists a retitled one among its related releases).
      const previous = path.join(tmp, 'previous');
      await linkedCopy(siteDir, previous);
      const next = path.join(tmp, 'next');
      await linkedCopy(previous, next);
      const searchable = pages.filter((p) => hasBody(p) && p.path.endsWith('/') && !p.path.startsWith('/pages/'));
      const placed = bundleMembership(
        searchable.map((p) => ({ url: p.path, language: indexLanguage(searchMeta(p).get('language')?.[0]) })),
        20,
      );
      const bundleOf = (page: BuiltPage) => placed.find((b) => b.urls.includes(page.path))!.dir;
      const changed = searchable.find((p) => p.html.includes('<main'))!;
      const outside = searchable.find((p) => p.html.includes('</main>') && bundleOf(p) !== bundleOf(changed))!;
      await rewrite(next, changed, (html) =>
        html.replace(/(<[^>]* data-pagefind-body[^>]*>)/, '$1<p>A sentence added after the site was built.</p>'),
      );
      await rewrite(next, outside, (html) => html.replace('</main>', '<p>A sentence outside what is searched.</p></main>'));
      // What indexing every bundle of the next site writes, every page read.
      const fresh = path.join(tmp, 'fresh');
      await buildSearchIndex(next, { outputPath: fresh, pagesPerBundle: 20 });

      // As the warm renderer does (scripts/warm/renderer.ts): the previous site indexed, its pages kept.
      keepSearchablePages(true);
      const htmlFiles = (await listFiles(previous))
        .map((f) => path.relative(previous, f))
        .filter((f) => f.endsWith('.html') && !NOT_SEARCHED.includes(f));
      expect((await buildSearchIndex(previous, { pagesPerBundle: 20 })).pagesRead).toBe(htmlFiles.length);
      const report = await buildSearchIndex(next, { pagesPerBundle: 20, reuse: await reuseUnchangedSearchBundles(previous) });
      expect(report.bundles).toBeGreaterThan(2);
      expect(report.reusedBundles, `only ${bundleOf(changed)} is indexed again`).toBe(report.bundles - 1);
      expect(report.pagesRead).toBe(2);
      expect(await fileDigests(path.join(next, 'pagefind'))).toEqual(await fileDigests(fresh));
    } finally {
      keepSearchablePages(false);
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('splits a language with more pages than a bundle holds, each page in exactly one bundle', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-pagefind-split-'));
    try {
      const report = await buildSearchIndex(siteDir, { outputPath: dir, pagesPerBundle: 4 });
      const manifest = JSON.parse(await readFile(path.join(dir, PAGEFIND_MANIFEST), 'utf8')) as PagefindManifest;
      const searchable = pages.filter(hasBody);
      const expected = pagesPerLanguage(searchable);
      expect(report.languages.sort()).toEqual([...expected.keys()].sort());
      expect(manifest.bundles.length).toBeGreaterThan(expected.size);
      const seen: string[] = [];
      for (const { dir: folder, language, pages: count } of manifest.bundles) {
        expect(folder).toMatch(new RegExp(`^${language}(-[01]+)?$`));
        expect(count, folder).toBeLessThanOrEqual(4);
        expect(count, folder).toBeGreaterThan(0);
        const urls = await bundleUrls(path.join(dir, folder));
        expect(urls, folder).toHaveLength(count);
        const entry = JSON.parse(await readFile(path.join(dir, folder, 'pagefind-entry.json'), 'utf8')) as {
          languages: Record<string, { wasm: string }>;
        };
        // Every part of a language is stemmed with its rules.
        expect(Object.keys(entry.languages), folder).toEqual([language]);
        seen.push(...urls);
      }
      for (const [language, count] of expected)
        expect(
          manifest.bundles.filter((b) => b.language === language).reduce((n, b) => n + b.pages, 0),
          language,
        ).toBe(count);
      expect(seen.sort(), 'every searchable page in exactly one bundle').toEqual(searchable.map((p) => p.path).sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === 'linux')("fails with a message, not silently, when Pagefind's process dies", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-pagefind-killed-'));
    // A process of its own: the failure is the event loop running dry, which a test worker's never does.
    // Pagefind is killed as it writes the first bundle (as a full disk stops it): nothing more is asked of it then.
    const script = `
      import { existsSync, readdirSync, readFileSync } from 'node:fs';
      import { buildSearchIndex } from ${JSON.stringify(path.resolve('src/integrations/search.ts'))};
      const out = ${JSON.stringify(dir)};
      const killer = setInterval(() => {
        if (!existsSync(out) || readdirSync(out).length === 0) return;
        for (const pid of readdirSync('/proc').filter((d) => /^\\d+$/.test(d))) {
          try {
            const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
            const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
            if (parent === process.pid && stat.includes('(pagefind')) { process.kill(Number(pid), 'SIGKILL'); clearInterval(killer); }
          } catch {}
        }
      }, 1);
      try {
        await buildSearchIndex(${JSON.stringify(siteDir)}, { outputPath: out });
        console.log('indexed');
      } catch (error) {
        console.log('failed: ' + error.message);
      }
      clearInterval(killer);`;
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [SOURCE_CONDITION_FLAG, '--input-type=module', '-e', script], {
        cwd: process.cwd(),
      });
      expect(stdout).toMatch(/^failed: search index \(\w+\): Pagefind's indexer stopped without an answer/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives the same bytes for the same pages', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-pagefind-'));
    try {
      await buildSearchIndex(siteDir, { outputPath: dir });
      const read = async (root: string) =>
        new Map(
          await Promise.all(
            (await listFiles(root)).map(async (f) => [path.relative(root, f), (await readFile(f)).toString('base64')] as const),
          ),
        );
      const [built, again] = await Promise.all([read(bundle), read(dir)]);
      expect([...again.keys()]).toEqual([...built.keys()]);
      for (const [file, bytes] of built) expect(again.get(file) === bytes, file).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
