/**
 * Lists that do not shift (src/lib/listing-pages.ts): which pages of a listing change when items
 * come and go. A page's HTML is made from its `ListingPage` alone (items, number, pagination), so
 * a page whose `ListingPage` is the same is the same page.
 */
import { describe, expect, it } from 'vitest';
import { listingPages, numberedPageCount, pageOfIndex, pageParam, type ListingPage } from '../../../src/lib/listing-pages.ts';
import { archiveHref, coverageHref, releasesHref, tagHref } from '../../../src/lib/paths.ts';

const SIZE = 10;
/** Items 1…n, n the newest: newest first, as listings are. */
const items = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => from + n - 1 - i);
const key = (page: ListingPage<unknown>) => (page.number === null ? 'front' : String(page.number));
const pagesOf = (list: readonly number[]) => new Map(listingPages(list, SIZE).map((p) => [key(p), JSON.stringify(p)]));

/** The pages that differ between two states of a list: changed, added or gone. */
function changed(before: readonly number[], after: readonly number[]): string[] {
  const [a, b] = [pagesOf(before), pagesOf(after)];
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}

describe('listing pages', () => {
  it('puts the newest on the front page and numbers whole pages from the oldest', () => {
    const pages = listingPages(items(47), SIZE);
    expect(pages.map((p) => [p.number, p.data.length, p.data[0], p.data.at(-1)])).toEqual([
      [null, 17, 47, 31],
      [3, 10, 30, 21],
      [2, 10, 20, 11],
      [1, 10, 10, 1],
    ]);
    // Every item once, newest first, reading the front page and then older and older pages.
    expect(pages.flatMap((p) => p.data)).toEqual(items(47));
    expect(pages[0]!.total).toBe(47);
    expect(pages.slice(1).map((p) => p.total)).toEqual([undefined, undefined, undefined]);
  });

  it('has a front page only below two pages of items, and for an empty list', () => {
    for (const n of [0, 1, SIZE, 2 * SIZE - 1]) {
      const pages = listingPages(items(n), SIZE);
      expect(
        pages.map((p) => [p.number, p.data.length, p.links, p.older]),
        `${n} items`,
      ).toEqual([[null, n, [], undefined]]);
    }
    expect(listingPages(items(2 * SIZE), SIZE).map((p) => [p.number, p.data.length])).toEqual([
      [null, SIZE],
      [1, SIZE],
    ]);
  });

  it('links newer and older pages and a window of numbers, the front page first', () => {
    const byNumber = new Map(listingPages(items(10 * SIZE), SIZE).map((p) => [p.number, p]));
    const nav = (n: number | null) => {
      const { newer, older, links } = byNumber.get(n)!;
      return { newer, older, links };
    };
    expect(nav(null)).toEqual({ newer: undefined, older: 9, links: [null, 9, 8, 'gap', 1] });
    expect(nav(9)).toEqual({ newer: null, older: 8, links: [null, 9, 8, 7, 'gap', 1] });
    expect(nav(5)).toEqual({ newer: 6, older: 4, links: [null, 'gap', 7, 6, 5, 4, 3, 'gap', 1] });
    expect(nav(1)).toEqual({ newer: 2, older: undefined, links: [null, 'gap', 3, 2, 1] });
  });

  it('places each item on the page that lists it', () => {
    for (const n of [0, 5, 19, 20, 21, 39, 40, 47, 100]) {
      const list = items(n);
      for (const page of listingPages(list, SIZE))
        for (const item of page.data) expect(pageOfIndex(list.indexOf(item), n, SIZE), `${item} of ${n}`).toBe(page.number);
    }
  });

  it('changes only the front page for a new release, and every SIZE releases adds one page and relinks its three neighbours', () => {
    for (let n = 0; n <= 12 * SIZE; n++) {
      const numbered = numberedPageCount(n + 1, SIZE);
      const grew = numbered > numberedPageCount(n, SIZE);
      // A new numbered page, and the pagination of the three below it (their links up to two pages newer, and the gap before the front page).
      const expected = grew
        ? ['front', ...[numbered, numbered - 1, numbered - 2, numbered - 3].filter((k) => k >= 1).map(String)]
        : ['front'];
      expect(changed(items(n), items(n + 1)), `${n} → ${n + 1} items`).toEqual(expected.sort());
    }
  });

  it('changes the front page, one new page and its neighbours for SIZE new releases at once', () => {
    for (let n = 2 * SIZE; n <= 6 * SIZE; n += 3) {
      const after = changed(items(n), items(n + SIZE));
      const numbered = numberedPageCount(n + SIZE, SIZE);
      expect(after, `${n} → ${n + SIZE} items`).toContain(String(numbered));
      expect(after.length, `${n} → ${n + SIZE} items: ${after.join(' ')}`).toBeLessThanOrEqual(5);
    }
  });

  it('changes only the front page when a release on it is unpublished, unless the front page had just one page of items', () => {
    for (let n = 2 * SIZE; n <= 8 * SIZE; n++) {
      const list = items(n);
      const after = list.filter((x) => x !== n - 2);
      const numbered = numberedPageCount(n, SIZE);
      // At exactly SIZE items on the front page, the newest numbered page joins it again (and its neighbours' links change).
      const expected =
        n % SIZE === 0 ? ['front', ...[numbered, numbered - 1, numbered - 2, numbered - 3].filter((k) => k >= 1).map(String)] : ['front'];
      expect(changed(list, after), `unpublishing the third newest of ${n}`).toEqual(expected.sort());
    }
  });

  it('keeps the pages older than an unpublished release as they were', () => {
    const list = items(10 * SIZE + 5);
    // Item 35 is on page 4 (items 31…40): pages 1 to 3 stay, page 4 and every newer page move by one.
    const after = changed(
      list,
      list.filter((x) => x !== 35),
    );
    expect(after).toEqual(['4', '5', '6', '7', '8', '9', 'front'].sort());
  });

  it('changes nothing when an item is edited in place', () => {
    expect(changed(items(73), items(73))).toEqual([]);
  });

  it('writes numbered pages at their number and the front page at the listing itself', () => {
    expect([pageParam(null), pageParam(1), pageParam(3, 'page/')]).toEqual([undefined, '1', 'page/3']);
    expect([releasesHref(), releasesHref(null), releasesHref(1), coverageHref(2)]).toEqual([
      '/releases/',
      '/releases/',
      '/releases/1/',
      '/coverage/2/',
    ]);
    expect([archiveHref(2025, undefined, 1), archiveHref(2025, 3, null), archiveHref(2025, 3, 2)]).toEqual([
      '/archive/2025/page/1/',
      '/archive/2025/03/',
      '/archive/2025/03/page/2/',
    ]);
    expect(tagHref({ id: 1, slug: 'cargo' }, 1)).toBe('/tags/cargo/1/');
  });
});
