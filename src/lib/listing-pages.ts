/**
 * Pages of a listing that Astro's `paginate()` cannot number the way the site needs
 * (the archive's `/archive/2025/page/2/`, see archiveHref in paths.ts): the same
 * fields as Astro's `Page`, so <Pagination> and pagedTitle take either.
 */
import { LISTING_PAGE_SIZE } from './paths.ts';

export interface ListingPage<T> {
  data: T[];
  /** 1-based. */
  currentPage: number;
  lastPage: number;
  /** Index in the whole list of the page's first item. */
  start: number;
  total: number;
}

/** The pages of a list, in order; an empty list still has its first page. */
export function listingPages<T>(list: readonly T[], size: number = LISTING_PAGE_SIZE): Array<ListingPage<T>> {
  const lastPage = Math.max(1, Math.ceil(list.length / size));
  return Array.from({ length: lastPage }, (_, i) => ({
    data: list.slice(i * size, (i + 1) * size),
    currentPage: i + 1,
    lastPage,
    start: i * size,
    total: list.length,
  }));
}

/** The rest parameter of a page of a listing route: none for the first page, `page/<n>` after it. */
export const pageParam = (page: number): string | undefined => (page <= 1 ? undefined : `page/${page}`);
