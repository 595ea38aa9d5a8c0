/**
 * The search bundle's files, shared by the writer (index-files.ts) and the
 * browser (client/): every file under `_search/` is a classic script that
 * hands its data to one global function, so the index loads from `file://`
 * as well as over HTTP (no fetch, no module script).
 *
 *   _search/entry.js                 names the other files (fixed name: written last, read first)
 *   _search/engine.<hash>.js         MiniSearch, the stemmers and the query code
 *   _search/docs.<hash>.js           every searchable page: path, title, type, language, date, year, topics
 *   _search/index-<lang>.<hash>.js   one MiniSearch index per language, stemmed with that language's rules
 *   _search/text-<n>.<hash>.js       the pages' text for excerpts, in chunks loaded as results show
 *   _search/search.<hash>.js         the search page's controller (the page names it)
 */

export const SEARCH_DIR = '_search';
export const ENTRY_FILE = 'entry.js';
export const SEARCH_FORMAT = 'pressroom-search/1';

/** The global every search file calls: `pressroomSearchData(kind, key, data)`. */
export const REGISTER_GLOBAL = 'pressroomSearchData';

export interface SearchEntry {
  format: typeof SEARCH_FORMAT;
  engine: string;
  docs: string;
  /** Language → its index file. */
  indexes: Record<string, string>;
  /** Text chunk files, by chunk number. */
  text: string[];
}

/** What a result shows of a searchable page (and what the filters read). */
export interface PageMeta {
  /** Site path of the page (`/123-slug/`). */
  url: string;
  title: string;
  type: string;
  /** The page's language (its `<html lang>` as SearchMeta gives it). */
  lang: string;
  /** ISO date shown with the result, if the page has one. */
  date: string | null;
  year: string | null;
  /** Names of its topics. */
  tags: string[];
}

/** One searchable page in `docs.<hash>.js`. */
export interface DocMeta extends PageMeta {
  /** Which text chunk holds its text. */
  chunk: number;
}

export type FilterKey = 'type' | 'tag' | 'language' | 'year';
export type Filters = Partial<Record<FilterKey, string>>;

/** A file's registration call: `kind` and `key` name what it holds. */
export function registration(kind: string, key: string, data: unknown): string {
  return `${REGISTER_GLOBAL}(${JSON.stringify(kind)},${JSON.stringify(key)},${JSON.stringify(data)});\n`;
}
