/**
 * Paging through a list endpoint without relying on `paging.total` (the live
 * service sends `total` = `limit`): it only ever decides what is requested ahead.
 *
 * - Starts at page 1 (configurable) with `limit` (default 100) and stops on a
 *   short or empty page.
 * - A server that answers the same page twice (e.g. one that ignores `page`)
 *   is an error, not an endless loop. One case is expected and absorbed: when
 *   starting at page 0, a page 1 equal to page 0 means the server treats 0 and
 *   1 alike as the first page, so it is skipped.
 * - Items already seen (by `id`) are dropped, so a list that shifts while it
 *   is paged (a release published mid-build) yields no duplicates; a full page
 *   of nothing but seen items is treated as a repeat.
 * - `maxPages` is a hard ceiling.
 * - `readAhead`: once a full page proves the list goes on, up to this many
 *   following pages are requested at once (latency-bound lists get faster; at
 *   most `readAhead` requests are wasted past the end). Slots of the client's
 *   limiter that nothing waits for are read ahead into as well (`spare`), no
 *   further than the list has already proven long nor `concurrency` pages past
 *   the one received: then at most concurrency − 1 requests are wasted.
 * - A `paging.total` is believed only when it cannot be the live service's
 *   echo of the limit: an integer larger than `limit`, on a full page, and not
 *   below the items already received. Then every page up to the one that
 *   should come back short or empty is requested at once (the client's limiter
 *   bounds how many run, `maxPages` how many are asked for). The total only
 *   decides what is requested ahead, never where the list ends: that is still
 *   the first short or empty page, so a list that shrinks or grows while it is
 *   paged is read as it is.
 * - The generator drops the requests still waiting for a slot and waits for
 *   those already sent before it finishes, so none outlive it.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { NewsroomApiError } from './errors.ts';

export interface FetchedPage {
  /** The `data` of the envelope, unchecked. */
  data: unknown;
  /** Path and query of the page request, for error messages. */
  endpoint: string;
  /** `paging.total` as sent, unchecked (the live service sends the limit). */
  total?: unknown;
  /** The SHA-256 of the answer's bytes, when the fetcher knows it. */
  sha256?: string;
}

/** `unneeded` aborts when the list no longer needs the page: a request still waiting for a slot should not be sent. */
export type PageFetcher = (page: number, limit: number, unneeded: AbortSignal) => Promise<FetchedPage>;

export interface PagingOptions {
  /** Items per page (default 100). */
  limit?: number;
  /** Number of the first page (default 1; the emulator and live service treat 0 and 1 alike). */
  firstPage?: number;
  /** Safety net: fail when a list has more pages than this (default 10 000). */
  maxPages?: number;
  /** Extra pages in flight once the list is known to go on (default 0). */
  readAhead?: number;
  /**
   * Called for each page that was fetched but never needed (read ahead past the list's end):
   * whether such a page was sent before the list ended depends on timing, so the client forgets
   * it among the answers a build used, which must be the same for the same data.
   */
  unused?: (page: FetchedPage) => void;
  /**
   * The client's limiter. With `readAhead` above 0, the pager also reads ahead into its spare
   * slots (free while nothing waits for one), never further than the list has proven long and
   * never more than `concurrency` pages past the one just received: requests that would otherwise
   * not run at all, so a long list left alone at the end of a load is not held to `readAhead + 1`
   * pages in flight.
   */
  spare?: { slots(): number; concurrency: number };
}

export interface PageInfo<T> {
  /** Page number as requested. */
  page: number;
  items: T[];
  /** Items on the page as the server sent it (before duplicates were dropped). */
  received: number;
  endpoint: string;
  /** The SHA-256 of the page's answer, when the fetcher knows it (the client's always does). */
  sha256?: string;
}

export const DEFAULT_PAGE_LIMIT = 100;
export const DEFAULT_MAX_PAGES = 10_000;

function pageSignature(items: readonly unknown[]): string {
  const ids = items.map(idOf);
  if (ids.every((id) => id !== undefined)) return `ids:${ids.join(',')}`;
  return `sha256:${createHash('sha256').update(JSON.stringify(items)).digest('hex')}`;
}

function idOf(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'number' || typeof id === 'string' ? `${typeof id}:${id}` : undefined;
}

function pagingError(
  endpoint: string,
  kind: 'repeated-page' | 'page-ceiling' | 'bad-envelope',
  detail: string,
  advice: string,
): NewsroomApiError {
  return new NewsroomApiError({ kind, detail, advice, retryable: false, endpoint, attempts: 1 });
}

/** Yields every page (with its items) of a list, in order. */
export async function* pageInfos<T>(fetchPage: PageFetcher, options: PagingOptions = {}): AsyncGenerator<PageInfo<T>, void, undefined> {
  const { limit, first, maxPages, readAhead } = pagingSettings(options);
  const pages = pageLauncher(fetchPage, limit, first + maxPages); // one past the ceiling: fetched only to prove the list goes on
  const seen = new Set<string>();
  let previous: { page: number; signature: string } | undefined;
  let pagesYielded = 0;
  let page = first;
  pages.launchThrough(page, page);
  try {
    for (;;) {
      const { data, endpoint, total, sha256 } = await pages.take(page);
      if (!Array.isArray(data)) {
        throw pagingError(
          endpoint,
          'bad-envelope',
          `expected a list in "data", got ${data === null ? 'null' : typeof data}`,
          'this path is not a list endpoint, or {apiUrl} does not point at the Newsroom API',
        );
      }
      if (data.length === 0) return;
      if (pagesYielded >= maxPages) {
        throw pagingError(
          endpoint,
          'page-ceiling',
          `the list goes on past ${maxPages} pages of ${limit}`,
          'stopped as a safety net; raise maxPages if the press room is really this large',
        );
      }

      const signature = pageSignature(data);
      if (previous && previous.signature === signature) {
        if (previous.page !== 0 || page !== 1)
          throw repeatedPage(
            endpoint,
            `page ${page} repeats page ${previous.page} (the same ${data.length} items)`,
            'ignore the "page" parameter',
          );
        // 0 and 1 are both the first page on this server: skip the echo.
        previous = { page, signature };
        page++;
        pages.launchThrough(page, page + readAhead);
        continue;
      }

      const items = unseenItems(data as T[], seen);
      if (items.length === 0 && data.length >= limit)
        throw repeatedPage(endpoint, `page ${page} holds only items of earlier pages`, 'cycle through pages');

      previous = { page, signature };
      pagesYielded++;
      const full = data.length >= limit;
      // Start the next pages before handing this one out: up to where the total says the list ends, or the read-ahead window.
      if (full) {
        const byTotal = lastPageByTotal(total, { page, limit, received: pagesYielded * limit });
        const end = byTotal ?? page + 1 + readAhead;
        const { spare } = options;
        pages.launchThrough(page + 1, end);
        if (spare && byTotal === undefined && readAhead > 0)
          pages.launchThrough(end + 1, Math.min(end + Math.min(spare.slots(), pagesYielded), page + spare.concurrency));
      }
      yield { page, items, received: data.length, endpoint, ...(sha256 === undefined ? {} : { sha256 }) };
      if (!full) return;
      page++;
    }
  } finally {
    // Never leave a request running after the list is done (or abandoned).
    for (const outcome of await pages.settle()) if (outcome.status === 'fulfilled') options.unused?.(outcome.value);
  }
}

/** The paging options with their defaults, checked. */
function pagingSettings(options: PagingOptions): { limit: number; first: number; maxPages: number; readAhead: number } {
  const limit = options.limit ?? DEFAULT_PAGE_LIMIT;
  const first = options.firstPage ?? 1;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const readAhead = Math.max(0, Math.floor(options.readAhead ?? 0));
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`paging limit must be a positive integer, got ${String(limit)}`);
  if (!Number.isInteger(first) || first < 0) throw new RangeError(`firstPage must be 0 or more, got ${String(first)}`);
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new RangeError(`maxPages must be a positive integer, got ${String(maxPages)}`);
  return { limit, first, maxPages, readAhead };
}

/** Page requests started ahead of need (each once, none past `lastAllowed`), taken in order. */
function pageLauncher(fetchPage: PageFetcher, limit: number, lastAllowed: number) {
  const inflight = new Map<number, Promise<FetchedPage>>();
  const unneeded = new AbortController();
  setMaxListeners(0, unneeded.signal); // one listener per page waiting in the limiter's queue: up to maxPages, not a leak
  return {
    launchThrough(from: number, to: number): void {
      for (let page = from; page <= Math.min(to, lastAllowed); page++) {
        if (inflight.has(page)) continue;
        const promise = fetchPage(page, limit, unneeded.signal);
        promise.catch(() => undefined); // awaited later, or abandoned past the end
        inflight.set(page, promise);
      }
    },
    async take(page: number): Promise<FetchedPage> {
      const pending = inflight.get(page);
      if (!pending) throw new Error(`paging: page ${page} was never requested`);
      const fetched = await pending;
      inflight.delete(page);
      return fetched;
    },
    settle() {
      unneeded.abort(new Error('paging: the list no longer needs this page'));
      return Promise.allSettled(inflight.values());
    },
  };
}

/**
 * The page that should come back short or empty according to `paging.total`,
 * or undefined when the total cannot be trusted: not an integer, not above the
 * limit (the live service sends `total` = `limit`), or below the items already
 * received on full pages (`received`, this page included).
 */
function lastPageByTotal(total: unknown, { page, limit, received }: { page: number; limit: number; received: number }): number | undefined {
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total <= limit || total < received) return undefined;
  return page + Math.floor((total - received) / limit) + 1;
}

/** The items of a page not seen on an earlier one (items without an id are always new). */
function unseenItems<T>(data: T[], seen: Set<string>): T[] {
  const items: T[] = [];
  for (const item of data) {
    const id = idOf(item);
    if (id === undefined) items.push(item);
    else if (!seen.has(id)) {
      seen.add(id);
      items.push(item);
    }
  }
  return items;
}

/** A server that pages wrongly: stopped instead of looping forever. */
function repeatedPage(endpoint: string, detail: string, seemsTo: string) {
  return pagingError(
    endpoint,
    'repeated-page',
    detail,
    `the server seems to ${seemsTo}; stopped instead of looping forever — check {apiUrl} points at a Newsroom API`,
  );
}
