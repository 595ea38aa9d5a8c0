/**
 * Which search bundle a page goes to (src/search/bundle-membership.ts): by a hash of its URL, so
 * that adding or removing one page changes one bundle, and a bundle's count of pages bounded.
 */
import { describe, expect, it } from 'vitest';
import { bundleMembership, type BundleMembership, type SearchablePage } from '../../../src/search/bundle-membership.ts';

const releases = (n: number, language = 'en', from = 0): SearchablePage[] =>
  Array.from({ length: n }, (_, i) => ({ url: `/${1000 + from + i}-release-${from + i}/`, language }));

/** Folder → its pages, for comparing two layouts. */
const layout = (bundles: BundleMembership[]) => new Map(bundles.map((b) => [b.dir, b.urls.join(' ')]));

/** The folders whose pages differ between two layouts (a folder only in one counts too). */
function changed(before: BundleMembership[], after: BundleMembership[]): string[] {
  const [a, b] = [layout(before), layout(after)];
  return [...new Set([...a.keys(), ...b.keys()])].filter((dir) => a.get(dir) !== b.get(dir)).sort();
}

describe('bundleMembership', () => {
  it('keeps a language that fits one bundle in one folder named after it', () => {
    const bundles = bundleMembership([...releases(30), ...releases(5, 'nl', 100)], 50);
    expect(bundles.map((b) => [b.dir, b.language, b.urls.length])).toEqual([
      ['en', 'en', 30],
      ['nl', 'nl', 5],
    ]);
  });

  it('splits a larger language by URL hash, every page in exactly one bundle of at most the bound', () => {
    const pages = releases(1000);
    const bundles = bundleMembership(pages, 100);
    expect(bundles.length).toBeGreaterThanOrEqual(10);
    for (const b of bundles) {
      expect(b.dir).toMatch(/^en-[01]+$/);
      expect(b.urls.length, b.dir).toBeLessThanOrEqual(100);
      // Split from a bucket of more than the bound: a hash spreads evenly, so no bucket is nearly empty.
      expect(b.urls.length, b.dir).toBeGreaterThan(20);
    }
    expect(bundles.flatMap((b) => b.urls).sort()).toEqual(pages.map((p) => p.url).sort());
    expect(bundles.map((b) => b.dir)).toEqual(bundles.map((b) => b.dir).sort());
  });

  it('gives the same bundles whatever order the pages come in', () => {
    const pages = releases(500);
    expect(bundleMembership([...pages].reverse(), 60)).toEqual(bundleMembership(pages, 60));
  });

  it('changes one bundle when a page is added or removed, however many pages come before it', () => {
    const pages = releases(600);
    const before = bundleMembership(pages, 50);
    for (let n = 0; n < 12; n++) {
      const added = bundleMembership([...pages, ...releases(1, 'en', 5000 + n)], 50);
      const removed = bundleMembership(pages.toSpliced(n * 47, 1), 50);
      for (const after of [added, removed]) {
        const dirs = changed(before, after);
        // One bucket, or the bucket that just crossed the bound and its two halves (split or merged back).
        if (dirs.length !== 1) {
          expect(dirs).toHaveLength(3);
          const [parent, ...halves] = dirs.sort((a, b) => a.length - b.length);
          expect(halves).toEqual([`${parent}0`, `${parent}1`]);
        }
      }
    }
  });

  it('splits a bucket only when it grows past the bound, and merges it back only below it', () => {
    // Fill one language until its single bucket holds the bound, then one page more.
    const bound = 40;
    const full = releases(bound);
    expect(bundleMembership(full, bound).map((b) => b.dir)).toEqual(['en']);
    const over = bundleMembership([...full, ...releases(1, 'en', 999)], bound);
    expect(over.map((b) => b.dir)).toEqual(['en-0', 'en-1']);
    // Under the bound again: one bundle, exactly as before.
    expect(
      bundleMembership(
        over
          .flatMap((b) => b.urls)
          .filter((url) => url !== '/1999-release-999/')
          .map((url) => ({ url, language: 'en' })),
        bound,
      ),
    ).toEqual(bundleMembership(full, bound));
  });

  it('refuses a bound under one page', () => {
    expect(() => bundleMembership(releases(3), 0)).toThrow(/at least one page/);
  });
});
