/**
 * What the search index is decided on: every page of a built site that marks content to search
 * (`data-pagefind-body`), with its language, what it says it is and its words. Only those pages go
 * into an index: Pagefind would index a whole page when none of its index's pages marks any content.
 *
 * A process that indexes the same site again and again (the webhook receiver's warm renderer:
 * scripts/warm/) calls `keepSearchablePages()` first: each page file is then kept with what it gave,
 * and a file that is the same file the next time (device, inode, size and mtime: the hard link of the
 * live site's a change leaves alone) is not read or parsed again. Reading every page took about 1 s
 * of a 3 s demo change, and an L site has some 15,000 pages; a one-off build keeps nothing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { detached } from '../lib/detached.ts';
import { fileIdentity } from '../lib/file-identity.ts';
import { byPath, filesOf } from '../lib/site-files.ts';
import { indexedPage, sitePathOf } from './documents.ts';
import type { PageMeta } from './format.ts';
import { PAGEFIND_DIR } from './vocabulary.ts';
import { indexLanguage, words as pageWords } from './terms.ts';

export interface SearchablePages {
  /** Every page that marks content to search, with its language: what bundle membership is decided on. */
  pages: Array<{ url: string; language: string }>;
  documents: PageMeta[];
  /** A page's HTML file (site-relative). */
  fileOf: (url: string) => string;
  /** A digest of what Pagefind reads of a page (documents.ts `pagefindInput`). */
  pagefindInputOf: (url: string) => string;
  /** Every word of these pages, lower-cased, once. */
  wordsOf: (urls: readonly string[]) => Set<string>;
  /** Of the HTML files, those read and parsed now (the others were kept as they were). */
  read: number;
}

/** A page as the index sees it; null for an HTML file that marks nothing to search. */
type PageRead = { meta: PageMeta; language: string; wordIds: Uint32Array; pagefindInput: string } | null;

/**
 * The site's words, each once: a page's words are kept as numbers into it (a press room repeats its
 * words: 10,000 releases keep some 100,000 words, not every page's).
 */
interface Vocabulary {
  ids: Map<string, number>;
  list: string[];
}

interface KeptPages {
  vocabulary: Vocabulary;
  /** Site path → the file's identity when it was read, and what it gave. */
  files: Map<string, { identity: string; page: PageRead }>;
}

let kept: KeptPages | undefined;

/** From now on this process keeps each page's reading for the next index of the same site (or, with false, no longer). */
export function keepSearchablePages(keep = true): void {
  if (!keep) kept = undefined;
  else kept ??= { vocabulary: { ids: new Map(), list: [] }, files: new Map() };
}

/**
 * What Pagefind read of a page file when this process last indexed it (the search of a warm change:
 * scripts/warm/search-ahead.ts): null for a page that marked nothing to search, undefined when no
 * reading of it is kept.
 */
export function keptPagefindInput(file: string): string | null | undefined {
  const page = kept?.files.get(file)?.page;
  return page === undefined ? undefined : (page?.pagefindInput ?? null);
}

/**
 * A page file this process has just written (a warm change renders it), read from its HTML now and
 * kept under the file's identity, so the index that follows does not read it again: what Pagefind
 * will read of it, or null when it marks nothing to search. Nothing is kept when this process keeps
 * no readings (`keepSearchablePages`).
 */
export function keepWrittenPage(siteDir: string, file: string, html: string): string | null {
  const page = readPage(html, file, kept?.vocabulary ?? { ids: new Map(), list: [] });
  const identity = kept && fileIdentity(path.join(siteDir, file));
  if (identity !== undefined) kept!.files.set(file, { identity, page });
  return page?.pagefindInput ?? null;
}

/**
 * The HTML pages of `siteDir` (but `skip` and Pagefind's own folder), read once each. `siteFiles`,
 * when the caller knows them, spares walking the site (a warm change: its routes; 120,000 entries at L).
 */
export async function readSearchablePages(
  siteDir: string,
  skip: readonly string[],
  siteFiles?: readonly string[],
): Promise<SearchablePages> {
  const excluded = new Set(skip);
  const files = (siteFiles ? [...siteFiles].sort(byPath) : await filesOf(siteDir)).filter(
    (f) => f.endsWith('.html') && !f.startsWith(`${PAGEFIND_DIR}/`) && !excluded.has(f),
  );
  const vocabulary = kept?.vocabulary ?? { ids: new Map(), list: [] };
  // A new file never has a kept file's identity: it is written after the kept one, which is still linked from the live site.
  const identities = kept ? files.map((file) => fileIdentity(path.join(siteDir, file))) : [];
  const keptNow = new Map<string, { identity: string; page: PageRead }>();
  const pages: SearchablePages['pages'] = [];
  const documents: PageMeta[] = [];
  const byUrl = new Map<string, { file: string; page: NonNullable<PageRead> }>();
  let read = 0;
  for (const [n, file] of files.entries()) {
    const identity = identities[n];
    const earlier = identity === undefined ? undefined : kept?.files.get(file);
    let page: PageRead;
    if (earlier && earlier.identity === identity) page = earlier.page;
    else {
      page = readPage(await readFile(path.join(siteDir, file), 'utf8'), file, vocabulary);
      read++;
    }
    if (identity !== undefined) keptNow.set(file, { identity, page });
    if (!page) continue;
    pages.push({ url: page.meta.url, language: page.language });
    documents.push(page.meta);
    byUrl.set(page.meta.url, { file, page });
  }
  if (kept) kept.files = keptNow;
  return {
    pages,
    documents,
    fileOf: (url) => byUrl.get(url)!.file,
    pagefindInputOf: (url) => byUrl.get(url)!.page.pagefindInput,
    wordsOf: (urls) => {
      const out = new Set<string>();
      for (const url of urls) for (const id of byUrl.get(url)!.page.wordIds) out.add(vocabulary.list[id]!);
      return out;
    },
    read,
  };
}

function readPage(html: string, file: string, vocabulary: Vocabulary): PageRead {
  const indexed = indexedPage(html, sitePathOf(file));
  if (!indexed) return null;
  const { pagefindInput } = indexed;
  const { text, ...meta } = indexed.document;
  const ids = new Set<number>();
  for (const word of pageWords(`${meta.title} ${meta.tags.join(' ')} ${text}`)) {
    const lower = word.toLowerCase();
    let id = vocabulary.ids.get(lower);
    if (id === undefined) {
      id = vocabulary.list.push(detached(lower)) - 1;
      vocabulary.ids.set(vocabulary.list[id]!, id);
    }
    ids.add(id);
  }
  const keptMeta = detachedMeta(meta);
  return { meta: keptMeta, language: indexLanguage(keptMeta.lang), wordIds: Uint32Array.from(ids), pagefindInput };
}

/**
 * What is kept of a page until every page is indexed, as copies of its own: the parser's values are
 * views of the page's whole HTML, and at 10,000 releases keeping them held every page read (400 MB).
 */
function detachedMeta(meta: PageMeta): PageMeta {
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
