/**
 * Searching the index in the browser (bundled into `_search/engine.<hash>.js`;
 * plain functions, so Node tests run the very same code): words are matched
 * in every language's index with that language's stemming, all words must
 * match (the last one also as a prefix, so results follow the typing; longer
 * words forgive a typo, on the stem and on the word as typed, so a typo that
 * changes the stem is forgiven too), titles and topics count more than body
 * text, and filters narrow by type, topic, language and year.
 */
import MiniSearch, { type AsPlainObject, type Query, type SearchResult } from 'minisearch';
import type { DocMeta, FilterKey, Filters } from './format.ts';
import { FIELD_BOOST, indexLanguage, indexOptions, surfaceOf, termsIn, words } from './terms.ts';

export interface SearchHit {
  id: number;
  /** The index terms that matched (for highlighting), empty for a filter-only listing. */
  terms: string[];
}

/** A run of excerpt text, marked when it is a matched word. */
export type ExcerptPart = [text: string, mark: boolean];

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export class SearchIndex {
  readonly docs: readonly DocMeta[];
  private readonly indexes: Map<string, MiniSearch>;

  constructor(docs: readonly DocMeta[], indexes: Record<string, AsPlainObject | MiniSearch>) {
    this.docs = docs;
    this.indexes = new Map(
      Object.entries(indexes).map(([lang, data]) => [
        lang,
        data instanceof MiniSearch ? data : MiniSearch.loadJS(data, indexOptions(lang)),
      ]),
    );
  }

  /** How many documents carry each value of each filter (what the filter menus may offer). */
  filterValues(): Record<FilterKey, Record<string, number>> {
    const out: Record<FilterKey, Record<string, number>> = { type: {}, tag: {}, language: {}, year: {} };
    const count = (key: FilterKey, value: string | null) => {
      if (value) out[key][value] = (out[key][value] ?? 0) + 1;
    };
    for (const doc of this.docs) {
      count('type', doc.type);
      count('language', doc.lang);
      count('year', doc.year);
      for (const tag of doc.tags) count('tag', tag);
    }
    return out;
  }

  matches(id: number, filters: Filters): boolean {
    const doc = this.docs[id];
    if (!doc) return false;
    return (
      (!filters.type || doc.type === filters.type) &&
      (!filters.language || doc.lang === filters.language) &&
      (!filters.year || doc.year === filters.year) &&
      (!filters.tag || doc.tags.includes(filters.tag))
    );
  }

  /** Documents matching the words (best first) and the filters; with no words, everything the filters keep, newest first. */
  search(query: string, filters: Filters = {}): SearchHit[] {
    if (query.trim() === '') {
      return this.docs
        .map((_, id) => id)
        .filter((id) => this.matches(id, filters))
        .sort((a, b) => (this.docs[b]!.date ?? '').localeCompare(this.docs[a]!.date ?? '') || a - b)
        .map((id) => ({ id, terms: [] }));
    }
    const results: SearchResult[] = [];
    const typed = words(query);
    for (const [lang, index] of this.indexes) {
      if (filters.language && indexLanguage(filters.language) !== lang) continue;
      const stem = termsIn(lang);
      results.push(
        ...index.search(
          {
            combineWith: 'AND',
            queries: typed.map((word, i) => wordQuery(word, i === typed.length - 1, stem)),
          },
          { boost: FIELD_BOOST, filter: (result) => this.matches(Number(result.id), filters) },
        ),
      );
    }
    return results.sort((a, b) => b.score - a.score || Number(a.id) - Number(b.id)).map((r) => ({ id: Number(r.id), terms: r.terms }));
  }

  /** About `length` words of `text` around where the hit's terms are densest, matched words marked. */
  excerpt(hit: SearchHit, text: string, length = 28): ExcerptPart[] {
    const doc = this.docs[hit.id];
    const term = termsIn(langOf(doc));
    const matched = new Set(hit.terms);
    const found = [...text.matchAll(WORD)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      mark: matched.has(term(m[0])) || matched.has(surfaceOf(m[0])),
    }));
    if (found.length === 0) return text ? [[text, false]] : [];
    let first = 0;
    if (matched.size > 0) {
      let best = -1;
      let marks = 0;
      for (let i = 0; i < found.length; i++) {
        if (found[i]!.mark) marks++;
        if (i >= length && found[i - length]!.mark) marks--;
        if (marks > best) {
          best = marks;
          first = Math.max(0, i - length + 1);
        }
      }
      // From a few words before the first match of the densest stretch, as far as the length allows.
      const firstMark = found.findIndex((w, i) => i >= first && w.mark);
      first = Math.max(0, Math.min(firstMark - 4, found.length - length));
    }
    const last = Math.min(found.length, first + length) - 1;
    const parts: ExcerptPart[] = [];
    let at = found[first]!.start;
    for (let i = first; i <= last; i++) {
      const w = found[i]!;
      if (!w.mark) continue;
      if (w.start > at) parts.push([text.slice(at, w.start), false]);
      parts.push([text.slice(w.start, w.end), true]);
      at = w.end;
    }
    const end = found[last]!.end;
    if (end > at) parts.push([text.slice(at, end), false]);
    if (first > 0) parts.unshift(['…', false]);
    if (last < found.length - 1) parts.push(['…', false]);
    return parts;
  }
}

/**
 * One typed word: its stem or the word as written (either may be a typo away in a longer word),
 * as a prefix when it is the last word (results follow the typing).
 */
function wordQuery(word: string, last: boolean, stem: (word: string) => string): Query {
  const fuzzy = (term: string) => (term.length > 5 ? 0.2 : false);
  return {
    combineWith: 'OR',
    queries: [
      { queries: [word], processTerm: stem, prefix: last, fuzzy },
      { queries: [word], processTerm: surfaceOf, prefix: last, fuzzy },
    ],
  };
}

/** The index a document lives in. */
function langOf(doc: DocMeta | undefined): string {
  return indexLanguage(doc?.lang);
}
