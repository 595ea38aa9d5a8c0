/**
 * How text becomes search terms, the same when the index is built (Node) and
 * when a query is typed (the browser bundle): words split on spaces and
 * punctuation, lower-cased, stemmed with the Snowball rules of the text's own
 * language (@orama/stemmers; Dutch pages with Dutch rules, German with German),
 * then stripped of accents so `Häuser` and `hauser` meet. Languages without a
 * stemmer are matched on whole (and prefixed) words. The index also holds each
 * word as written (lower-cased, without accents) where its stem differs, so a
 * typo is forgiven on the word as typed: `sustainabilty` is one letter from
 * `sustainability`, but its stem is six from `sustain`.
 */
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';

import { MARKS, surfaceOf, words } from './word-forms.ts';

export { SPLIT_WORDS, surfaceOf, words } from './word-forms.ts';

export type Stemmer = (word: string) => string;

/** Snowball stemmers by ISO 639-1 code: the languages press rooms publish in most. */
export const STEMMERS: Readonly<Record<string, Stemmer>> = {
  ar: arabic,
  da: danish,
  de: german,
  en: english,
  es: spanish,
  fi: finnish,
  fr: french,
  it: italian,
  nb: norwegian,
  nl: dutch,
  no: norwegian,
  pt: portuguese,
  ru: russian,
  sv: swedish,
  tr: turkish,
};

/** The index a page's language goes to: its primary subtag (`nl-BE` → `nl`), or `und` when unknown. */
export function indexLanguage(lang: string | null | undefined): string {
  const primary = /^[A-Za-z]{2,3}/.exec(lang ?? '')?.[0]?.toLowerCase();
  return primary ?? 'und';
}

/** The term a word is indexed and searched under, in `lang`. */
export function termOf(word: string, lang: string): string {
  const lower = word.toLowerCase();
  const stem = STEMMERS[lang];
  const stemmed = stem && lower.length > 2 && !/\d/.test(lower) ? stem(lower) : lower;
  return stemmed.normalize('NFD').replace(MARKS, '');
}

/** termOf for one language, remembering every word it has seen (a press room repeats its words; stemming is the indexer's main cost). */
export function termsIn(lang: string): (word: string) => string {
  const seen = new Map<string, string>();
  return (word) => {
    let term = seen.get(word);
    if (term === undefined) {
      term = termOf(word, lang);
      seen.set(word, term);
    }
    return term;
  };
}

/** The fields of a search document the index holds, and how much a match in each counts. */
export const SEARCH_FIELDS = ['title', 'tags', 'text'] as const;
export const FIELD_BOOST = { title: 3, tags: 2, text: 1 };

/**
 * MiniSearch's options for one language's index: the same when the index is written and when it is loaded.
 * Each word is indexed under its stem and, where that differs, as written (see the module comment).
 */
export function indexOptions(lang: string): {
  fields: string[];
  storeFields: string[];
  tokenize: (text: string) => string[];
  processTerm: (word: string) => string | string[];
} {
  const stem = termsIn(lang);
  return {
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize: words,
    processTerm: (word) => {
      const stemmed = stem(word);
      const written = surfaceOf(word);
      return written === stemmed ? stemmed : [stemmed, written];
    },
  };
}
