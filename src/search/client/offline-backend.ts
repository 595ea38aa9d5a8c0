/**
 * The offline archive's search: the index under `_search/` (src/search/format.ts)
 * loaded as classic scripts that hand their data to `pressroomSearchData`, the
 * engine (MiniSearch and the stemmers) only with it, and each text chunk only
 * when a result from it is shown. Results link to the archive's own files.
 */
import type { DocMeta, SearchEntry } from '../format.ts';
import type { SearchHit, SearchIndex } from '../engine.ts';
import { loadScript, type ResultView, type SearchBackend } from './backend.ts';

export interface EngineModule {
  open(docs: DocMeta[], indexes: Record<string, unknown>): SearchIndex;
}

declare global {
  interface Window {
    pressroomSearchData?: (kind: string, key: string, data: unknown) => void;
  }
}

/**
 * `siteRoot` is the site's root as the page's own links write it (`../` in the archive), so
 * result links stay relative; a page opened from a folder needs a folder's `index.html` named.
 */
export async function offlineBackend(siteRoot: string): Promise<SearchBackend> {
  const data = new Map<string, unknown>();
  window.pressroomSearchData = (kind, key, value) => data.set(`${kind}:${key}`, value);
  const loading = new Map<string, Promise<unknown>>();
  const load = <T>(file: string, kind: string, key: string): Promise<T> => {
    const id = `${kind}:${key}`;
    if (!loading.has(id)) {
      loading.set(
        id,
        loadScript(new URL(`_search/${file}`, new URL(siteRoot, location.href)).href).then(() => {
          if (!data.has(id)) throw new Error(`search: _search/${file} held no ${id}`);
          return data.get(id);
        }),
      );
    }
    return loading.get(id) as Promise<T>;
  };

  const entry = await load<SearchEntry>('entry.js', 'entry', 'entry');
  const languages = Object.keys(entry.indexes);
  const [engine, docs, ...indexes] = await Promise.all([
    load<EngineModule>(entry.engine, 'engine', 'engine'),
    load<DocMeta[]>(entry.docs, 'docs', 'all'),
    ...languages.map((lang) => load<unknown>(entry.indexes[lang]!, 'index', lang)),
  ]);
  const index = engine.open(docs, Object.fromEntries(languages.map((lang, i) => [lang, indexes[i]])));
  const firstOfChunk = new Map<number, number>();
  docs.forEach((doc, id) => {
    if (!firstOfChunk.has(doc.chunk)) firstOfChunk.set(doc.chunk, id);
  });
  const fromFolder = location.protocol === 'file:';
  const href = (url: string) => `${siteRoot}${url.replace(/^\//, '')}${fromFolder && url.endsWith('/') ? 'index.html' : ''}`;

  const view = async (hit: SearchHit): Promise<ResultView> => {
    const doc = docs[hit.id]!;
    const texts = await load<string[]>(entry.text[doc.chunk]!, 'text', String(doc.chunk));
    const text = texts[hit.id - firstOfChunk.get(doc.chunk)!] ?? '';
    return { href: href(doc.url), title: doc.title, type: doc.type, lang: doc.lang, date: doc.date, excerpt: index.excerpt(hit, text) };
  };
  return {
    filterValues: async () => index.filterValues(),
    search: async (term, filters) => index.search(term, filters).map((hit) => () => view(hit)),
  };
}
