/**
 * How the served site's Pagefind bundles are laid out, shared by the indexer
 * (src/integrations/search.ts) and the search page's controller: each language
 * under `pagefind/<language>/`, stemmed with that language's rules, and a
 * language with more pages than one bundle holds continued in
 * `pagefind/<language>-2/`, `-3/`, …; `pagefind/bundles.json` names them.
 */

/** The manifest beside the bundles: which languages have one, and how many pages each holds. */
export const PAGEFIND_MANIFEST = 'bundles.json';

export interface PagefindManifest {
  /** Most pages first. */
  bundles: Array<{
    /** Its folder under `pagefind/`. */
    dir: string;
    language: string;
    pages: number;
    vocabulary: boolean;
  }>;
  /**
   * Filter → value → how many pages have it, over every bundle: the search page
   * offers the filters without loading a bundle, and loads a bundle only when a
   * search needs it.
   */
  filters: Record<string, Record<string, number>>;
}

/**
 * The most pages one bundle holds. Pagefind writes a bundle from memory it
 * holds until the end (about 190 KB a page, 1.6 GB for 8,600 pages): bundles of
 * this size keep it near 0.4 GB whatever the press room's size (2,000 pages:
 * 0.55 GB, and the peak of a warm 10,000-release build's processes summed, at
 * indexing, 84 MiB higher), for a few more files fetched by a search that spans them.
 */
export const PAGES_PER_BUNDLE = 1500;

/** The folder of a language's `part`-th bundle (from 0): `en`, `en-2`, `en-3`, … */
export function bundleDir(language: string, part: number): string {
  return part === 0 ? language : `${language}-${part + 1}`;
}

/**
 * The filter that marks each bundle's hidden vocabulary record (the other
 * bundles' words, so Pagefind never searches a foreign word as a short
 * prefix of its own); every search leaves it out.
 */
export const VOCABULARY_FILTER = 'vocabulary';
export const VOCABULARY_URL = '/search/';
