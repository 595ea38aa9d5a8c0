/**
 * The served search's word files (src/search/word-masks.ts, read by src/search/client/pagefind-backend.ts):
 * a word leads the search page to the bundles that know it, stemmed with each bundle's own rules, so no
 * bundle is asked a foreign word it would answer by a short prefix.
 */
import { describe, expect, it } from 'vitest';
import { bundlesKnowing, wordShard, type WordShard } from '../../../src/search/pagefind-bundles.ts';
import { wordShards } from '../../../src/search/word-masks.ts';

const bundles = [
  { language: 'en', words: ['company', 'capacity', 'growth'] },
  { language: 'en', words: ['companies', 'wind'] },
  { language: 'nl', words: ['capaciteit', 'bedrijven', 'groei'] },
];
const shards = wordShards(bundles);
/** Which bundles (by their place) a search for `word` asks; null: all. */
function asked(word: string): number[] | null {
  const name = wordShard(word);
  const shard: WordShard = (name && shards.get(name)) || {};
  const mask = bundlesKnowing(shard, word);
  return mask === null ? null : bundles.map((_, n) => n).filter((n) => ((mask >> BigInt(n)) & 1n) === 1n);
}

describe('the word files', () => {
  it('send a word of one language to its bundles alone', () => {
    // English stems `capaciteit` to `capacit`, which `capac` (capacity) does not start with: English is not asked.
    expect(asked('capaciteit')).toEqual([2]);
    expect(asked('bedrijven')).toEqual([2]);
    expect(asked('wind')).toEqual([1]);
  });

  it('count a word known to a bundle by its stem (companies, company)', () => {
    expect(asked('companies')).toEqual([0, 1]);
  });

  it('ask every bundle that has a word the typed letters start with', () => {
    expect(asked('capa')).toEqual([0, 2]);
    expect(asked('gro')).toEqual([0, 2]);
  });

  it('ask every bundle for a word the site does not have, or a single letter', () => {
    expect(asked('zeppelin')).toBeNull();
    expect(wordShard('z')).toBeNull();
  });

  it('are named by the first two letters, keys sorted, the same bytes every time', () => {
    expect(wordShard('capacity')).toBe('6361.json');
    expect(wordShard('éa')).toBe('c3a961.json');
    expect([...shards.keys()]).toEqual([...shards.keys()].sort());
    expect(JSON.stringify([...wordShards(bundles)])).toBe(JSON.stringify([...shards]));
    expect(Object.keys(shards.get('6361.json')!)).toEqual(['capaciteit', 'capacity']);
  });
});
