/**
 * The served site's search: Pagefind bundles under `pagefind/<language>/`
 * (split by URL hash for a large language: `<language>-0/`, `-10/`, …;
 * src/search/pagefind-bundles.ts), each a module Pagefind loads itself (which
 * is why it needs HTTP) and each stemming the query with its own language's
 * rules. Filters and their counts come from the manifest; a bundle loads when a
 * search first needs it. A query asks only the bundles that know each of its
 * words (the word files, `pagefind/words/`), a language filter only that
 * language's bundles, and the results are merged: by score for a query, newest
 * first for filters alone. Excerpts come as HTML with `<mark>`s; only their
 * text and marks are kept.
 */
import type { ExcerptPart } from '../engine.ts';
import { bundlesKnowing, PAGEFIND_MANIFEST, wordShard, WORDS_DIR, type PagefindManifest, type WordShard } from '../pagefind-bundles.ts';
import { surfaceOf, words } from '../word-forms.ts';
import type { ResultView, SearchBackend } from './backend.ts';
import { mergeNewestFirst } from './merge-results.ts';

interface PagefindData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
}
interface PagefindResult {
  score: number;
  data(): Promise<PagefindData>;
}
type PagefindFilters = Record<string, string | Record<string, string>>;
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(
    term: string | null,
    options?: { filters?: PagefindFilters; sort?: Record<string, 'asc' | 'desc'> },
  ): Promise<{ results: PagefindResult[] } | null>;
  filters(): Promise<Record<string, Record<string, number>>>;
}
interface Bundle {
  dir: string;
  pagefind: Pagefind;
}

/**
 * `siteRoot` as the page writes it (`/`, `/press/` under a base path); `datedTypes`: types whose filter-only listing is sorted newest first.
 * Result URLs come with the base path: Pagefind puts the folder above `pagefind/` (`/press/pagefind/en/` → `/press/`) before the indexed `/releases/`.
 */
export async function pagefindBackend(siteRoot: string, datedTypes: readonly string[]): Promise<SearchBackend> {
  const base = new URL(`${siteRoot}pagefind/`, location.href);
  const response = await fetch(new URL(PAGEFIND_MANIFEST, base));
  if (!response.ok) throw new Error(`search: ${PAGEFIND_MANIFEST} answered ${response.status}`);
  const manifest = (await response.json()) as PagefindManifest;
  // Each bundle's pagefind.js is its own module, so each keeps its own language's stemmer; loaded when a search first needs it.
  const loaded = new Map<string, Promise<Bundle>>();
  const bundle = ({ dir }: PagefindManifest['bundles'][number]): Promise<Bundle> => {
    let pending = loaded.get(dir);
    if (!pending) {
      pending = (async () => {
        const pagefind = (await import(new URL(`${dir}/pagefind.js`, base).href)) as Pagefind;
        await pagefind.options({ excerptLength: 28, excerptEllipsis: '…' });
        await pagefind.init();
        return { dir, pagefind };
      })();
      loaded.set(dir, pending);
    }
    return pending;
  };
  const shards = new Map<string, Promise<WordShard>>();
  const existing = new Set(manifest.words);
  const shard = (name: string): Promise<WordShard> => {
    let pending = shards.get(name);
    if (!pending) {
      pending = fetch(new URL(`${WORDS_DIR}/${name}`, base)).then((r) => {
        if (!r.ok) throw new Error(`search: ${WORDS_DIR}/${name} answered ${r.status}`);
        return r.json() as Promise<WordShard>;
      });
      shards.set(name, pending);
    }
    return pending;
  };
  /** The bundles (a mask over the manifest's) that know every word of `term`, or null when any bundle may. */
  const knowing = async (term: string): Promise<bigint | null> => {
    let mask: bigint | null = null;
    for (const word of words(term).map(surfaceOf)) {
      const name = wordShard(word);
      // No file: no word of the site starts with these letters, and every bundle answers as one index would.
      const known = name && existing.has(name) ? bundlesKnowing(await shard(name), word) : null;
      if (known !== null) mask = mask === null ? known : mask & known;
    }
    return mask;
  };

  return {
    filterValues: async () => manifest.filters,
    search: async (term, filters) => {
      const dated = !term && ((filters.type !== undefined && datedTypes.includes(filters.type)) || filters.year !== undefined);
      const mask = term ? await knowing(term) : null;
      const wanted = manifest.bundles.filter(
        (b, n) =>
          (!filters.language || b.language === languageOf(filters.language)) && (mask === null || ((mask >> BigInt(n)) & 1n) === 1n),
      );
      const answers = await Promise.all(
        wanted.map(async (entry) => {
          const b = await bundle(entry);
          const options = { filters: { ...filters } };
          const response = await b.pagefind.search(term || null, dated ? { ...options, sort: { date: 'desc' } } : options);
          return response?.results ?? [];
        }),
      );
      if (dated) return mergeNewestFirst(answers, async (result) => view(await result.data()));
      return answers
        .flat()
        .sort((a, b) => b.score - a.score)
        .map((result) => async () => view(await result.data()));
    },
  };
}

/** The bundle a language filter's value belongs to: its primary subtag, as the indexer groups pages. */
function languageOf(lang: string): string {
  return /^[A-Za-z]{2,3}/.exec(lang)?.[0]?.toLowerCase() ?? 'und';
}

function view(data: PagefindData): ResultView {
  return {
    href: /^\/(?![/\\])/.test(data.url) ? data.url : '#',
    title: data.meta.title || data.url,
    type: data.meta.type ?? '',
    lang: data.meta.language ?? '',
    date: data.meta.date ?? null,
    excerpt: excerptParts(data.excerpt),
  };
}

function excerptParts(html: string): ExcerptPart[] {
  // DOMParser documents run no script; only text and <mark> are kept.
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return [...doc.body.childNodes].map((node) => [node.textContent ?? '', node.nodeName === 'MARK']);
}
