/**
 * Static search: the filter vocabulary every page type shares, the search
 * page's address and its interface strings.
 *
 * Pages tell the index what they are with <SearchMeta> (filters `type`, `tag`,
 * `language`, `year`; metadata `type`, `language`, `date`; the search page's
 * query parameters are q, type, tag, lang, year) and mark the content to index
 * with `data-pagefind-body`; src/integrations/search.ts indexes the
 * built site (Pagefind, and the rest of src/search/ for the offline archive) and
 * src/pages/search.astro searches it in the browser.
 */
import { baseLanguage } from '../lib/i18n.ts';
import { yearMonthIn } from '../lib/dates.ts';
import { sitePath } from '../lib/paths.ts';

export const searchHref = sitePath('/search/');

/** Where the Pagefind bundle is written and served from (a reserved segment of paths.ts). */
export const PAGEFIND_DIR = 'pagefind';

/** The `type` filter's values, in the order the search page lists them. */
export const SEARCH_TYPES = ['release', 'page', 'topic', 'media-kit', 'media', 'event', 'coverage', 'contact'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The year a dated item is filed under: its calendar year in the press room's time zone (as the archive does). */
export function searchYear(date: string | null | undefined, timeZone: string): string | null {
  if (!date || Number.isNaN(Date.parse(date))) return null;
  const { year } = yearMonthIn(date, timeZone);
  return Number.isFinite(year) ? String(year) : null;
}

const en = {
  search: 'Search',
  searchLabel: 'Search the newsroom',
  siteSearch: 'Site search',
  searchTerms: 'Search for',
  filters: 'Filter results',
  type: 'Type',
  allTypes: 'All types',
  tag: 'Topic',
  allTags: 'All topics',
  language: 'Language',
  allLanguages: 'All languages',
  year: 'Year',
  allYears: 'All years',
  clearFilters: 'Clear filters',
  results: 'Results',
  resultCountOne: '1 result',
  resultCount: '{count} results',
  resultCountForOne: '1 result for “{query}”',
  resultCountFor: '{count} results for “{query}”',
  noResults: 'Nothing found. Try other words or fewer filters.',
  searching: 'Searching…',
  enterQuery: 'Type a word to search the whole newsroom, or choose a filter.',
  showMore: 'Show more results',
  needsScript: 'Search runs in your browser and needs JavaScript.',
  browseInstead: 'Or browse:',
  unavailable: 'Search could not be loaded. Try reloading the page.',
  'type.release': 'Press release',
  'type.page': 'Page',
  'type.topic': 'Topic',
  'type.media-kit': 'Media kit',
  'type.media': 'Media',
  'type.event': 'Event',
  'type.coverage': 'Coverage',
  'type.contact': 'Press contacts',
} as const;

export type SearchStringKey = keyof typeof en;
export type SearchStrings = Record<SearchStringKey, string>;

const nl: SearchStrings = {
  search: 'Zoeken',
  searchLabel: 'Zoek in de nieuwskamer',
  siteSearch: 'Zoeken op de site',
  searchTerms: 'Zoek naar',
  filters: 'Resultaten filteren',
  type: 'Soort',
  allTypes: 'Alle soorten',
  tag: 'Onderwerp',
  allTags: 'Alle onderwerpen',
  language: 'Taal',
  allLanguages: 'Alle talen',
  year: 'Jaar',
  allYears: 'Alle jaren',
  clearFilters: 'Filters wissen',
  results: 'Resultaten',
  resultCountOne: '1 resultaat',
  resultCount: '{count} resultaten',
  resultCountForOne: '1 resultaat voor “{query}”',
  resultCountFor: '{count} resultaten voor “{query}”',
  noResults: 'Niets gevonden. Probeer andere woorden of minder filters.',
  searching: 'Bezig met zoeken…',
  enterQuery: 'Typ een woord om de hele nieuwskamer te doorzoeken, of kies een filter.',
  showMore: 'Meer resultaten',
  needsScript: 'Zoeken gebeurt in uw browser en heeft JavaScript nodig.',
  browseInstead: 'Of blader door:',
  unavailable: 'Zoeken kon niet worden geladen. Probeer de pagina opnieuw te laden.',
  'type.release': 'Persbericht',
  'type.page': 'Pagina',
  'type.topic': 'Onderwerp',
  'type.media-kit': 'Mediakit',
  'type.media': 'Media',
  'type.event': 'Evenement',
  'type.coverage': 'In de media',
  'type.contact': 'Perscontacten',
};

const de: SearchStrings = {
  search: 'Suchen',
  searchLabel: 'Im Newsroom suchen',
  siteSearch: 'Website-Suche',
  searchTerms: 'Suchen nach',
  filters: 'Ergebnisse filtern',
  type: 'Art',
  allTypes: 'Alle Arten',
  tag: 'Thema',
  allTags: 'Alle Themen',
  language: 'Sprache',
  allLanguages: 'Alle Sprachen',
  year: 'Jahr',
  allYears: 'Alle Jahre',
  clearFilters: 'Filter zurücksetzen',
  results: 'Ergebnisse',
  resultCountOne: '1 Ergebnis',
  resultCount: '{count} Ergebnisse',
  resultCountForOne: '1 Ergebnis für „{query}“',
  resultCountFor: '{count} Ergebnisse für „{query}“',
  noResults: 'Nichts gefunden. Versuchen Sie andere Wörter oder weniger Filter.',
  searching: 'Suche läuft…',
  enterQuery: 'Geben Sie ein Wort ein, um den ganzen Newsroom zu durchsuchen, oder wählen Sie einen Filter.',
  showMore: 'Weitere Ergebnisse',
  needsScript: 'Die Suche läuft in Ihrem Browser und braucht JavaScript.',
  browseInstead: 'Oder stöbern Sie hier:',
  unavailable: 'Die Suche konnte nicht geladen werden. Laden Sie die Seite bitte neu.',
  'type.release': 'Pressemitteilung',
  'type.page': 'Seite',
  'type.topic': 'Thema',
  'type.media-kit': 'Pressemappe',
  'type.media': 'Medien',
  'type.event': 'Termin',
  'type.coverage': 'Medienbericht',
  'type.contact': 'Pressekontakte',
};

const fr: SearchStrings = {
  search: 'Rechercher',
  searchLabel: 'Rechercher dans la salle de presse',
  siteSearch: 'Recherche sur le site',
  searchTerms: 'Rechercher',
  filters: 'Filtrer les résultats',
  type: 'Type',
  allTypes: 'Tous les types',
  tag: 'Thème',
  allTags: 'Tous les thèmes',
  language: 'Langue',
  allLanguages: 'Toutes les langues',
  year: 'Année',
  allYears: 'Toutes les années',
  clearFilters: 'Effacer les filtres',
  results: 'Résultats',
  resultCountOne: '1 résultat',
  resultCount: '{count} résultats',
  resultCountForOne: '1 résultat pour « {query} »',
  resultCountFor: '{count} résultats pour « {query} »',
  noResults: 'Aucun résultat. Essayez d’autres mots ou moins de filtres.',
  searching: 'Recherche…',
  enterQuery: 'Saisissez un mot pour chercher dans toute la salle de presse, ou choisissez un filtre.',
  showMore: 'Plus de résultats',
  needsScript: 'La recherche fonctionne dans votre navigateur et demande JavaScript.',
  browseInstead: 'Ou parcourez :',
  unavailable: 'La recherche n’a pas pu être chargée. Essayez de recharger la page.',
  'type.release': 'Communiqué',
  'type.page': 'Page',
  'type.topic': 'Thème',
  'type.media-kit': 'Kit média',
  'type.media': 'Médias',
  'type.event': 'Événement',
  'type.coverage': 'Retombée presse',
  'type.contact': 'Contacts presse',
};

const DICTIONARIES: Record<string, SearchStrings> = { en, nl, de, fr };

/** The search interface strings for a page language (English when there is no dictionary). */
export function searchStrings(lang: string): SearchStrings {
  return DICTIONARIES[baseLanguage(lang)] ?? en;
}
