/**
 * `client.pages()`: a list endpoint page by page (paging.ts does the walking
 * and its safety nets), with the client's paging defaults, pages and items
 * counted, and errors named the caller's way.
 */
import type { ListOptions, Query } from './types.ts';
import type { ClientSettings } from './client-settings.ts';
import type { StatsRecorder } from './client-stats.ts';
import { normaliseApiPath, pathGroup } from './api-paths.ts';
import { PAGE_PRIORITY, type QueuePlace } from './limiter.ts';
import { pageInfos, type FetchedPage, type PageInfo } from './paging.ts';

export interface PagerContext {
  settings: ClientSettings;
  stats: StatsRecorder;
  /** The error as the caller sees it (URL, setting names). */
  named(error: unknown): unknown;
  /** One page: its `data`, endpoint and `paging.total`. */
  fetchPage(path: string, query: Query, options: ListOptions, place: QueuePlace): Promise<FetchedPage>;
  /** A page fetched but never needed: not one of the answers the build used. */
  forgetAnswer(endpoint: string): void;
  /** The client's limiter, for reading ahead into slots nothing waits for. */
  spare: { slots(): number; concurrency: number };
}

export function createPager({ settings, stats, named, fetchPage, forgetAnswer, spare }: PagerContext) {
  return function pagesOf<T>(
    path: string,
    query: Query | undefined,
    listOptions: ListOptions = {},
  ): AsyncGenerator<PageInfo<T>, void, undefined> {
    if (query && ('page' in query || 'limit' in query)) {
      throw new TypeError('list/pages set "page" and "limit" themselves; pass the page size as options.limit');
    }
    const group = pathGroup(normaliseApiPath(path));
    const { paging } = settings;
    const inner = pageInfos<T>(
      (page, pageLimit, unneeded) =>
        fetchPage(path, { ...query, page, limit: pageLimit }, listOptions, { priority: PAGE_PRIORITY, signal: unneeded }),
      {
        limit: listOptions.limit ?? paging.limit,
        firstPage: listOptions.firstPage ?? paging.firstPage,
        maxPages: listOptions.maxPages ?? paging.maxPages,
        readAhead: listOptions.readAhead ?? paging.readAhead,
        unused: ({ endpoint }) => forgetAnswer(endpoint),
        spare,
      },
    );
    return (async function* counted() {
      try {
        for await (const info of inner) {
          stats.bump(group, 'pages', 1, listOptions.tally);
          stats.bump(group, 'items', info.items.length, listOptions.tally);
          yield info;
        }
      } catch (error) {
        throw named(error);
      }
    })();
  };
}
