/**
 * Which Pagefind bundle each searchable page goes to, so that one changed page
 * changes one bundle. Pagefind cannot update an index in place: a bundle whose
 * pages change is written again whole. Pages are therefore placed by a hash of
 * their URL, never by their position in a list (where one new page moved a
 * page across every later bundle):
 *
 * Each language starts as one bucket; a bucket holding more than `maxPages`
 * pages splits in two by the next bit of its pages' URL hashes, again and
 * again, until every bucket holds at most `maxPages` (extendible hashing). A
 * bucket's folder names its bits: `en` unsplit, then `en-0`, `en-10`, `en-11`, …
 *
 * Membership is a function of the set of pages alone (no memory of an earlier
 * build), so a partial build places pages exactly as a full build would. Adding
 * or removing a page changes the one bucket its hash falls in; when that bucket
 * crosses `maxPages` it splits in two (or, one page fewer, its two halves merge
 * back into one): at most `maxPages + 1` pages written again either way, the
 * cost of writing that one bucket. The hash spreads pages evenly, so a
 * language's buckets hold about the same number of pages: more than half of
 * `maxPages` (they split from a bucket that held more) and at most `maxPages`.
 */
import { createHash } from 'node:crypto';

export interface SearchablePage {
  /** The page's site path (`/123-slug/`): what is hashed. */
  url: string;
  /** The language whose bundles it goes to (terms.ts indexLanguage). */
  language: string;
}

export interface BundleMembership {
  /** Its folder under `pagefind/`: the language, then the bits its pages' hashes start with. */
  dir: string;
  language: string;
  /** Its pages' URLs, sorted. */
  urls: string[];
}

/** The deepest split: far past any press room (2^24 buckets), and no endless splitting of equal hashes. */
const MAX_DEPTH = 24;

/** The bundles `pages` go to, each with at most `maxPages` pages; sorted by folder name. */
export function bundleMembership(pages: readonly SearchablePage[], maxPages: number): BundleMembership[] {
  if (!(maxPages >= 1)) throw new Error(`search bundles: a bundle must hold at least one page (got ${maxPages})`);
  const byLanguage = new Map<string, Array<{ url: string; hash: Buffer }>>();
  for (const { url, language } of pages) {
    const list = byLanguage.get(language) ?? byLanguage.set(language, []).get(language)!;
    list.push({ url, hash: urlHash(url) });
  }
  const bundles: BundleMembership[] = [];
  for (const [language, list] of byLanguage) {
    const split = (members: typeof list, bits: string): void => {
      if (members.length === 0) return;
      if (members.length <= maxPages || bits.length >= MAX_DEPTH) {
        const urls = members.map((m) => m.url).sort(byCodeUnit);
        bundles.push({ dir: bucketDir(language, bits), language, urls });
        return;
      }
      const depth = bits.length;
      split(
        members.filter((m) => bitAt(m.hash, depth) === 0),
        `${bits}0`,
      );
      split(
        members.filter((m) => bitAt(m.hash, depth) === 1),
        `${bits}1`,
      );
    };
    split(list, '');
  }
  return bundles.sort((a, b) => byCodeUnit(a.dir, b.dir));
}

/** `en` for a language's only bucket, `en-01` for the bucket of hashes starting 0, 1. */
export function bucketDir(language: string, bits: string): string {
  return bits === '' ? language : `${language}-${bits}`;
}

function urlHash(url: string): Buffer {
  return createHash('sha256').update(url).digest();
}

function bitAt(hash: Buffer, index: number): number {
  return (hash[index >> 3]! >> (7 - (index & 7))) & 1;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
