/**
 * The serializer's root handler (src/lib/markdown.ts), with the output of mdast-util-to-markdown's
 * own and a fraction of its cost. Its `safe()` runs every one of the ~40 "unsafe" patterns (a
 * character that would start markup in some place) as a regular expression over every text, link
 * destination and alt text, which was most of serialising. A pattern only ever matches at its
 * character, so each value is made safe against just the patterns whose character it contains
 * (with the characters around it): the same escapes, from a handful of patterns.
 */
import { defaultHandlers, type Handle, type Unsafe } from 'mdast-util-to-markdown';
import type { Root } from 'mdast';

interface PatternIndex {
  patterns: readonly Unsafe[];
  /** One bit per ASCII character some pattern is about; a pattern about any other character is always run. */
  bits: Int32Array;
  /** The patterns to run for a set of bits, as made once. */
  subsets: Map<number, Unsafe[]>;
}

const BIT_COUNT = 31;

function patternIndex(patterns: readonly Unsafe[]): PatternIndex {
  const bits = new Int32Array(128);
  let next = 0;
  for (const { character } of patterns) {
    const code = character.charCodeAt(0);
    if (character.length === 1 && code < 128 && bits[code] === 0 && next < BIT_COUNT) bits[code] = 1 << next++;
  }
  return { patterns: [...patterns], bits, subsets: new Map() };
}

// The serializer copies the same patterns into a new list for every document: the index is kept
// for as long as the lists hold the same patterns.
let lastIndex: PatternIndex | undefined;
const indexes = new WeakMap<readonly Unsafe[], PatternIndex>();

function indexFor(patterns: readonly Unsafe[]): PatternIndex {
  let index = indexes.get(patterns);
  if (index) return index;
  const same = lastIndex && lastIndex.patterns.length === patterns.length && lastIndex.patterns.every((p, i) => p === patterns[i]);
  index = same ? lastIndex! : (lastIndex = patternIndex(patterns));
  indexes.set(patterns, index);
  return index;
}

/** The patterns of `patterns` that can match somewhere in `value`. */
export function possiblePatterns(patterns: readonly Unsafe[], value: string): Unsafe[] {
  const index = indexFor(patterns);
  const { bits } = index;
  let present = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 128) present |= bits[code]!;
  }
  let subset = index.subsets.get(present);
  if (!subset) {
    subset = patterns.filter(({ character }) => {
      const bit = character.length === 1 ? (bits[character.charCodeAt(0)] ?? 0) : 0;
      return bit === 0 || (present & bit) !== 0;
    });
    index.subsets.set(present, subset);
  }
  return subset;
}

/**
 * mdast-util-to-markdown's root handler, with the document's `safe()` made to run only the
 * patterns that can match: every text, link destination, title and alt text then goes through
 * a handful of patterns instead of all of them (the press contacts and facts of a Markdown twin
 * are some twenty links, each made safe against every pattern).
 */
export const rootWithPatternFilter: Handle = (node, parent, state, info) => {
  const safe = state.safe;
  state.safe = (value, config) => {
    const all = state.unsafe;
    state.unsafe = possiblePatterns(all, `${config.before ?? ''}${value ?? ''}${config.after ?? ''}`);
    try {
      return safe.call(state, value, config);
    } finally {
      state.unsafe = all;
    }
  };
  return defaultHandlers.root(node as Root, parent, state, info);
};
