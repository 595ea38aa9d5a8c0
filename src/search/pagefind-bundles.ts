/**
 * How the served site's Pagefind bundles are laid out, shared by the indexer
 * (src/integrations/search.ts) and the search page's controller: one bundle per
 * language under `pagefind/<language>/`, each stemmed with that language's
 * rules, and `pagefind/bundles.json` naming them.
 */

/** The manifest beside the bundles: which languages have one, and how many pages each holds. */
export const PAGEFIND_MANIFEST = 'bundles.json';

export interface PagefindManifest {
  /** Most pages first. */
  bundles: Array<{ language: string; pages: number; vocabulary: boolean }>;
  /**
   * Filter → value → how many pages have it, over every bundle: the search page
   * offers the filters without loading a bundle, and loads a bundle only when a
   * search needs it.
   */
  filters: Record<string, Record<string, number>>;
}

/**
 * The filter that marks each bundle's hidden vocabulary record (the other
 * languages' words, so Pagefind never searches a foreign word as a short
 * prefix of its own); every search leaves it out.
 */
export const VOCABULARY_FILTER = 'vocabulary';
export const VOCABULARY_URL = '/search/';
