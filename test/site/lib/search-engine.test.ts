/**
 * The offline search engine (src/search/engine.ts, the code the archive's
 * browser runs) over a few pages: each language stemmed with its own rules,
 * every word required, the last one also as a prefix, a typo forgiven on the
 * stem and on the word as typed, filters, filter-only
 * listings newest first, excerpts around the matched words.
 */
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../src/search/engine.ts';
import type { DocMeta } from '../../../src/search/format.ts';
import { indexLanguage, indexOptions, termOf } from '../../../src/search/terms.ts';

interface Page extends Omit<DocMeta, 'chunk'> {
  text: string;
}

const pages: Page[] = [
  {
    url: '/1-en/',
    title: 'Northwind opens new offices',
    type: 'release',
    lang: 'en',
    date: '2025-03-01T09:00:00Z',
    year: '2025',
    tags: ['People'],
    text: 'The company is opening offices in three cities. Developments follow. Its sustainability report is out.',
  },
  {
    url: '/2-nl/',
    title: 'Northwind opent nieuwe kantoren',
    type: 'release',
    lang: 'nl',
    date: '2026-01-10T09:00:00Z',
    year: '2026',
    tags: ['People'],
    text: 'Het bedrijf opent kantoren voor bedrijven in drie steden. Ontwikkelingen volgen.',
  },
  {
    url: '/3-de/',
    title: 'Northwind eröffnet Büros',
    type: 'release',
    lang: 'de',
    date: '2024-05-05T09:00:00Z',
    year: '2024',
    tags: ['Expansion'],
    text: 'Das Unternehmen eröffnet Büros für Unternehmen und Häuser in drei Städten.',
  },
  {
    url: '/tags/people/',
    title: 'People',
    type: 'topic',
    lang: 'en',
    date: null,
    year: null,
    tags: ['People'],
    text: 'Everything about people at Northwind.',
  },
];

function engine(): SearchIndex {
  const byLang = new Map<string, MiniSearch>();
  pages.forEach((page, id) => {
    const lang = indexLanguage(page.lang);
    if (!byLang.has(lang)) byLang.set(lang, new MiniSearch(indexOptions(lang)));
    byLang.get(lang)!.add({ id, title: page.title, tags: page.tags.join(' '), text: page.text });
  });
  // Through JSON, as the browser gets it.
  const indexes = Object.fromEntries([...byLang].map(([lang, index]) => [lang, JSON.parse(JSON.stringify(index))]));
  return new SearchIndex(
    pages.map((p, i) => ({ ...p, chunk: i })),
    indexes,
  );
}

const urls = (index: SearchIndex, query: string, filters = {}) => index.search(query, filters).map((hit) => pages[hit.id]!.url);

describe('the offline search engine', () => {
  it('stems each language with its own rules', () => {
    expect(termOf('kantoren', 'nl')).toBe(termOf('kantoor', 'nl'));
    expect(termOf('ontwikkelingen', 'nl')).toBe(termOf('ontwikkeling', 'nl'));
    expect(termOf('Unternehmen', 'de')).toBe(termOf('unternehmens', 'de'));
    expect(termOf('Häuser', 'de')).toBe(termOf('hauser', 'de'));
    expect(termOf('developments', 'en')).toBe(termOf('development', 'en'));
    // English rules would not join the Dutch plurals with their singulars.
    expect(termOf('kantoren', 'en')).not.toBe(termOf('kantoor', 'en'));
    expect(termOf('ontwikkelingen', 'en')).not.toBe(termOf('ontwikkeling', 'en'));
    const index = engine();
    expect(urls(index, 'kantoor')).toEqual(['/2-nl/']);
    expect(urls(index, 'ontwikkeling')).toEqual(['/2-nl/']);
    expect(urls(index, 'development')).toEqual(['/1-en/']);
    expect(urls(index, 'hauser')).toEqual(['/3-de/']);
  });

  it('needs every word, takes the last as a prefix, forgives a typo in a long word, and ranks titles first', () => {
    const index = engine();
    expect(urls(index, 'offices cities')).toEqual(['/1-en/']);
    expect(urls(index, 'offices kantoren')).toEqual([]);
    expect(urls(index, 'cities northw')).toEqual(['/1-en/']);
    expect(urls(index, 'northw cities')).toEqual([]);
    expect(urls(index, 'Developmants')).toEqual(['/1-en/']);
    // A typo that changes the stem (`sustainabilti` is six letters from `sustain`) is forgiven on the word as typed.
    expect(urls(index, 'sustainabilty offices')).toEqual(['/1-en/']);
    expect(urls(index, 'offices sustainabilty')).toEqual(['/1-en/']);
    expect(urls(index, 'kantoren ontwikkelingn')).toEqual(['/2-nl/']);
    expect(urls(index, 'people')[0]).toBe('/tags/people/');
  });

  it('filters by type, topic, language and year; with filters alone lists newest first', () => {
    const index = engine();
    expect(urls(index, 'northwind').sort()).toEqual(pages.map((p) => p.url).sort());
    expect(urls(index, 'northwind', { type: 'topic' })).toEqual(['/tags/people/']);
    expect(urls(index, 'northwind', { tag: 'Expansion' })).toEqual(['/3-de/']);
    expect(urls(index, 'northwind', { language: 'nl' })).toEqual(['/2-nl/']);
    expect(urls(index, 'northwind', { year: '2025' })).toEqual(['/1-en/']);
    expect(urls(index, '', { type: 'release' })).toEqual(['/2-nl/', '/1-en/', '/3-de/']);
    expect(index.filterValues()).toEqual({
      type: { release: 3, topic: 1 },
      tag: { People: 3, Expansion: 1 },
      language: { en: 2, nl: 1, de: 1 },
      year: { 2025: 1, 2026: 1, 2024: 1 },
    });
  });

  it('excerpts the text around the matched words, marked', () => {
    const index = engine();
    const [hit] = index.search('bedrijf');
    const parts = index.excerpt(hit!, pages[1]!.text, 6);
    expect(parts.filter(([, mark]) => mark).map(([text]) => text)).toEqual(['bedrijf', 'bedrijven']);
    expect(parts.map(([text]) => text).join('')).toBe('Het bedrijf opent kantoren voor bedrijven…');
    const long = `${'word '.repeat(100)}bedrijven ${'word '.repeat(100)}`;
    const around = index
      .excerpt(hit!, long, 10)
      .map(([text]) => text)
      .join('');
    expect(around).toMatch(/^….*bedrijven.*…$/);
  });
});
