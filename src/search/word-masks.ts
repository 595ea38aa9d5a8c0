/**
 * The word files of the served search (`pagefind/words/`, see pagefind-bundles.ts WORDS_DIR):
 * for every word of the site, which bundles know it, so the search page asks only those and no
 * bundle answers a foreign word by a short prefix of it. A bundle knows a word when one of its terms
 * (its pages' words stemmed with its language's rules, terms.ts) starts with the word's term in
 * that language: the test Pagefind makes before it falls back to a shorter prefix.
 */
import { surfaceOf, termsIn } from './terms.ts';
import { wordShard, type WordShard } from './pagefind-bundles.ts';

export interface BundleWords {
  language: string;
  /** Its pages' words, lower-cased. */
  words: Iterable<string>;
}

/** Shard file name → its words' masks (keys sorted), for `bundles` in the manifest's order. */
export function wordShards(bundles: readonly BundleWords[]): Map<string, WordShard> {
  // Per language: every term its bundles hold, sorted, with the mask of the bundles holding it.
  const byLanguage = new Map<string, { termOf: (word: string) => string; masks: Map<string, bigint> }>();
  const allWords = new Set<string>();
  bundles.forEach(({ language, words }, n) => {
    let index = byLanguage.get(language);
    if (!index) byLanguage.set(language, (index = { termOf: termsIn(language), masks: new Map() }));
    const bit = 1n << BigInt(n);
    const own = new Set<string>();
    for (const word of words) {
      allWords.add(word);
      own.add(index.termOf(word));
    }
    for (const term of own) index.masks.set(term, (index.masks.get(term) ?? 0n) | bit);
  });
  const languages = [...byLanguage.values()].map(({ termOf, masks }) => {
    const terms = [...masks.keys()].sort(byCodeUnit);
    return { termOf, terms, masks: terms.map((t) => masks.get(t)!) };
  });
  const masks = new Map<string, bigint>();
  for (const word of allWords) {
    let mask = 0n;
    // A bundle knows the word when one of its terms starts with the word's term in the bundle's language.
    for (const { termOf, terms, masks: termMasks } of languages) {
      const prefix = termOf(word);
      for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i++) mask |= termMasks[i]!;
    }
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

/** The first place in a sorted list whose string is not before `text`. */
function lowerBound(sorted: readonly string[], text: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < text) low = mid + 1;
    else high = mid;
  }
  return low;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
