/**
 * The word files of the served search (`pagefind/words/`, see pagefind-bundles.ts WORDS_DIR):
 * for every word of the site, which bundles know it, so the search page asks only those and no
 * bundle answers a foreign word by a short prefix of it. A bundle knows a word when one of its terms
 * (its pages' words stemmed with its language's rules, terms.ts) starts with the word's term in
 * that language: the test Pagefind makes before it falls back to a shorter prefix.
 */
import { surfaceOf, termOf } from './terms.ts';
import { wordShard, type WordShard } from './pagefind-bundles.ts';

export interface BundleWords {
  language: string;
  /** Its pages' words, lower-cased. */
  words: Iterable<string>;
}

/** Shard file name → its words' masks (keys sorted), for `bundles` in the manifest's order. */
export function wordShards(bundles: readonly BundleWords[]): Map<string, WordShard> {
  const allWords = new Set<string>();
  const terms = bundles.map(({ language, words }) => {
    const own = new Set<string>();
    for (const word of words) {
      allWords.add(word);
      own.add(termOf(word, language));
    }
    return [...own].sort(byCodeUnit);
  });
  const masks = new Map<string, bigint>();
  for (const word of allWords) {
    let mask = 0n;
    bundles.forEach(({ language }, n) => {
      if (hasPrefixed(terms[n]!, termOf(word, language))) mask |= 1n << BigInt(n);
    });
    const key = surfaceOf(word);
    masks.set(key, (masks.get(key) ?? 0n) | mask);
  }
  const shards = new Map<string, Record<string, string>>();
  for (const key of [...masks.keys()].sort(byCodeUnit)) {
    const shard = wordShard(key);
    if (!shard) continue;
    const entries = shards.get(shard) ?? shards.set(shard, {}).get(shard)!;
    entries[key] = masks.get(key)!.toString(16);
  }
  return new Map([...shards].sort(([a], [b]) => byCodeUnit(a, b)));
}

/** Whether a sorted list holds a string that starts with `prefix`. */
function hasPrefixed(sorted: readonly string[], prefix: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low < sorted.length && sorted[low]!.startsWith(prefix);
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
