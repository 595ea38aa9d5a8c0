/**
 * How the served site's Pagefind bundles are laid out, shared by the indexer
 * (src/integrations/search.ts) and the search page's controller: each language
 * under `pagefind/<language>/`, stemmed with that language's rules, and a
 * language with more pages than one bundle holds split by a hash of its pages'
 * URLs into `pagefind/<language>-0/`, `-10/`, `-11/`, … (bundle-membership.ts),
 * so that a changed page changes one bundle. `pagefind/bundles.json` names them,
 * `pagefind/pages.json` lists each bundle's pages, and `pagefind/words/` tells
 * the search page which bundles know a word.
 */

/** The manifest beside the bundles: which bundles there are, and how many pages each holds. */
export const PAGEFIND_MANIFEST = 'bundles.json';

/**
 * Which pages each bundle holds and what Pagefind read of them (`{ "<dir>": { "input": digest,
 * "pages": ["/url/", …] } }`, sorted): what a partial build reads to take the bundles whose input did
 * not change from the site it replaces. The search page never loads it.
 */
export const PAGEFIND_MEMBERSHIP = 'pages.json';

export interface PagefindManifest {
  /** Sorted by folder: a bundle's place in this list is its bit in the word files' masks. */
  bundles: Array<{
    /** Its folder under `pagefind/`. */
    dir: string;
    language: string;
    pages: number;
  }>;
  /**
   * Filter → value → how many pages have it, over every bundle: the search page
   * offers the filters without loading a bundle, and loads a bundle only when a
   * search needs it.
   */
  filters: Record<string, Record<string, number>>;
  /** The word files in `words/` (WORDS_DIR), sorted: the search page fetches only files that exist. */
  words: string[];
}

export type PagefindMembership = Record<string, { input: string; pages: string[] }>;

/**
 * The most pages one bundle holds. Pagefind writes a bundle from memory it
 * holds until the end (about 190 KB a page, 1.6 GB for 8,600 pages), and a
 * changed page has its whole bundle written again (about 4 ms a page): bundles
 * of at most 1,000 pages (about 540 each for 10,000 releases' 8,600 English
 * pages, 16 bundles) keep Pagefind near 0.3 GB and a one-page change near 2–4 s
 * of indexing, for a few more files fetched by a search that spans them.
 */
export const PAGES_PER_BUNDLE = 1000;

/**
 * Where the word files are (`pagefind/words/<shard>.json`). Pagefind reads a word it does not know
 * as its longest known prefix, so a Dutch word asked of an English bundle would find English pages by
 * a few letters (`capaciteit` → `capac`, "capacity"). The search page therefore asks only the bundles
 * that know each of its words: a word file maps every word of the site (lower-cased, without accents)
 * to the bundles with a term it is a prefix of, stemmed with each bundle's rules (terms.ts), as a
 * hexadecimal mask over the manifest's bundles. A word no bundle knows is asked of all, as one
 * index would be. The files are small JSON beside the bundles, so a new word never changes a bundle.
 */
export const WORDS_DIR = 'words';

/** Word → hexadecimal mask of the bundles that know it (bit n: the manifest's n-th bundle). */
export type WordShard = Record<string, string>;

/**
 * The file a word's entry is in, named by its first two characters (as UTF-8 in hexadecimal,
 * `ca` → `6361.json`), or null for a one-letter word, which every bundle is asked.
 */
export function wordShard(word: string): string | null {
  const head = [...word].slice(0, 2);
  if (head.length < 2) return null;
  return `${[...new TextEncoder().encode(head.join(''))].map((b) => b.toString(16).padStart(2, '0')).join('')}.json`;
}

/**
 * The bundles (as a mask over the manifest's) a search for `word` must ask: the union of every
 * word of the shard that starts with it (the last word of a query is typed as a prefix), or null
 * when none does, or the word is too short for a shard: then every bundle is asked.
 */
export function bundlesKnowing(shard: WordShard, word: string): bigint | null {
  let mask: bigint | null = null;
  for (const [key, hex] of Object.entries(shard)) if (key.startsWith(word)) mask = (mask ?? 0n) | BigInt(`0x${hex}`);
  return mask;
}
