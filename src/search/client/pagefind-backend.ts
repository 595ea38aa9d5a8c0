/**
 * The served site's search: Pagefind's bundle under `pagefind/`, a module it
 * loads itself (which is why it needs HTTP). Its excerpts come as HTML with
 * `<mark>`s; only their text and marks are kept.
 */
import type { ExcerptPart } from '../engine.ts';
import type { ResultView, SearchBackend } from './backend.ts';

interface PagefindData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(term: string | null, options?: { filters?: Record<string, string>; sort?: Record<string, 'asc' | 'desc'> }): Promise<{ results: Array<{ data(): Promise<PagefindData> }> } | null>;
  filters(): Promise<Record<string, Record<string, number>>>;
}

/** `siteRoot` as the page writes it (`/`); `datedTypes`: types whose filter-only listing is sorted newest first. */
export async function pagefindBackend(siteRoot: string, datedTypes: readonly string[]): Promise<SearchBackend> {
  const pagefind = (await import(new URL(`${siteRoot}pagefind/pagefind.js`, location.href).href)) as Pagefind;
  await pagefind.options({ excerptLength: 28, excerptEllipsis: '…' });
  await pagefind.init();
  return {
    filterValues: () => pagefind.filters(),
    search: async (term, filters) => {
      const dated = (filters.type !== undefined && datedTypes.includes(filters.type)) || filters.year !== undefined;
      const response = await pagefind.search(term || null, term || !dated ? { filters } : { filters, sort: { date: 'desc' } });
      return (response?.results ?? []).map((result) => async (): Promise<ResultView> => {
        const data = await result.data();
        return {
          href: /^\/(?![/\\])/.test(data.url) ? data.url : '#',
          title: data.meta.title || data.url,
          type: data.meta.type ?? '',
          lang: data.meta.language ?? '',
          date: data.meta.date ?? null,
          excerpt: excerptParts(data.excerpt),
        };
      });
    },
  };
}

function excerptParts(html: string): ExcerptPart[] {
  // DOMParser documents run no script; only text and <mark> are kept.
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return [...doc.body.childNodes].map((node) => [node.textContent ?? '', node.nodeName === 'MARK']);
}
