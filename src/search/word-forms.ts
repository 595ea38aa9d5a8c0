/**
 * How text splits into words and how a word is written for matching, without the stemmers
 * (terms.ts adds those): the search page's Pagefind controller needs these alone.
 */

/** Word boundaries: anything that is neither a letter, a digit nor a joining mark. */
export const SPLIT_WORDS = /[^\p{L}\p{N}\p{M}]+/u;

/** Every word of a text, in order (empty strings dropped). */
export function words(text: string): string[] {
  return text.split(SPLIT_WORDS).filter(Boolean);
}

export const MARKS = /\p{M}+/gu;

/** A word as written, for typo matching: lower-cased and without accents, not stemmed. */
export function surfaceOf(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(MARKS, '');
}
