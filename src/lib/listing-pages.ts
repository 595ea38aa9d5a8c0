/**
 * Pages of a list that do not shift (every paginated listing of the site: /releases/, /<lang>/,
 * /tags/<slug>/, /coverage/, /media/<section>/, /archive/<year>/, /archive/<year>/<month>/).
 *
 * The list is newest first. Its numbered pages count from the oldest: page 1 holds the `size`
 * oldest items, page 2 the next `size`, and so on, each exactly `size` items; the front page (the
 * listing's own address, no number) holds the newest rest, between `size` and 2·`size` − 1 items
 * (all of them when there are fewer). A new item goes to the front page, so the numbered pages
 * keep their items: one new release changes the front page, and every `size` releases adds one
 * numbered page (whose neighbours' pagination then links it). Newest-first numbering would move
 * every item of every page by one instead.
 *
 * A numbered page prints nothing of the list beyond its `ListingPage` (items, number, pagination):
 * no count of items or pages, so a partial build can tell from the `ListingPage`s which pages of a
 * listing a change touches (docs/site-pages.md, "Lists that do not shift"). The one exception is
 * an archive year's month headings, which count their whole month.
 */

/** One step of the pagination: a page's number, `null` for the front page, `gap` for the pages left out. */
export type PageLink = number | null | 'gap';

export interface ListingPage<T> {
  /** The page's items, newest first. */
  data: T[];
  /** `null` for the front page; else the page's number, 1 being the oldest. */
  number: number | null;
  /** How many items the whole list has: on the front page only, which every new item changes anyway. */
  total?: number;
  /** The next newer page (`null`: the front page); undefined on the front page itself. */
  newer?: number | null;
  /** The next older page; undefined on page 1 and on a front page without numbered pages. */
  older?: number;
  /**
   * What the pagination shows, newest first: the front page, the pages up to two either side of this
   * one, page 1, and gaps between; empty when the list has one page.
   */
  links: PageLink[];
}

/** Numbered pages of a list of `total` items: every item beyond the front page's first `size`, in whole pages. */
export function numberedPageCount(total: number, size: number): number {
  return Math.max(0, Math.floor(total / size) - 1);
}

/**
 * The page an item is on, from its index in the newest-first list of `total` items: its number,
 * or `null` for the front page.
 */
export function pageOfIndex(index: number, total: number, size: number): number | null {
  const page = Math.floor((total - 1 - index) / size) + 1;
  return page <= numberedPageCount(total, size) ? page : null;
}

/** The pages of a newest-first list, front page first and then the numbered ones down to 1; an empty list still has its front page. */
export function listingPages<T>(list: readonly T[], size: number): Array<ListingPage<T>> {
  const total = list.length;
  const numbered = numberedPageCount(total, size);
  const frontItems = total - numbered * size;
  const front: ListingPage<T> = {
    data: list.slice(0, frontItems),
    number: null,
    total,
    ...(numbered > 0 && { older: numbered }),
    links: pageLinks(null, numbered),
  };
  const pages = [front];
  for (let number = numbered; number >= 1; number--) {
    pages.push({
      data: list.slice(total - number * size, total - (number - 1) * size),
      number,
      newer: number === numbered ? null : number + 1,
      ...(number > 1 && { older: number - 1 }),
      links: pageLinks(number, numbered),
    });
  }
  return pages;
}

/** The pagination of page `current` (`null`: the front page) of a list with `numbered` numbered pages. */
function pageLinks(current: number | null, numbered: number): PageLink[] {
  if (numbered === 0) return [];
  // The front page ranks above the newest numbered page: ranks run 1 … numbered + 1.
  const frontRank = numbered + 1;
  const rank = current ?? frontRank;
  const shown = [...new Set([frontRank, rank + 2, rank + 1, rank, rank - 1, rank - 2, 1])]
    .filter((n) => n >= 1 && n <= frontRank)
    .sort((a, b) => b - a);
  const links: PageLink[] = [];
  let previous: number | undefined;
  for (const n of shown) {
    if (previous !== undefined && previous - n > 1) links.push('gap');
    links.push(n === frontRank ? null : n);
    previous = n;
  }
  return links;
}

/**
 * The rest parameter of a listing route for a page: none for the front page, the number after it
 * (`prefix` before it: the archive's `page/`, see archiveHref in paths.ts).
 */
export const pageParam = (number: number | null, prefix = ''): string | undefined => (number === null ? undefined : `${prefix}${number}`);
