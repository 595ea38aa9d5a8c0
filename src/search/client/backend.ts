/**
 * What the search page's controller asks of a search, whichever answers it:
 * Pagefind over HTTP (the served site), or the script-file index from
 * `file://` (the offline archive).
 */
import type { FilterKey, Filters } from '../format.ts';
import type { ExcerptPart } from '../engine.ts';

export interface ResultView {
  /** Where the result links to, as the page should write it. */
  href: string;
  title: string;
  type: string;
  lang: string;
  date: string | null;
  excerpt: ExcerptPart[];
}

export interface SearchBackend {
  /** Filter → value → how many pages have it. */
  filterValues(): Promise<Record<string, Record<string, number>>>;
  /** Matches, best (or, for filters alone, newest) first; each loads what it shows only when shown. */
  search(term: string, filters: Filters): Promise<Array<() => Promise<ResultView>>>;
}

export type { FilterKey, Filters };

/** Runs a classic script (the only kind a page opened from `file://` may load) and resolves once it ran. */
export function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`search: could not load ${src}`));
    document.head.append(script);
  });
}
