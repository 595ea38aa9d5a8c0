/**
 * The Newsroom API client: the one way loaders talk to the Read API.
 *
 *   const client = createNewsroomClient({ baseUrl, pressroomId, apiKey, concurrency: 8, cacheDir: '.cache/pressroom-http' });
 *   const releases = await client.list<PressRelease>('press_releases', { includes: 'tags' });
 *   const kit = await client.get<MediaKit>('media_kits/12');
 *
 * Paths are relative to `/v1/pressrooms/<id>`. Each attempt runs through the
 * shared limiter, sends the key as a bearer header, revalidates with the HTTP
 * cache, and is bounded in time and bytes; failures are retried by policy and
 * end as one-line NewsroomApiErrors. The key lives only in the client's settings: not on
 * the client object, not in stats, endpoints, errors or cache files.
 */
import { NewsroomApiError, type SettingNames } from './errors.ts';
import type { PruneResult } from '../cache-pruning.ts';
import { clientSettings } from './client-settings.ts';
import { createStatsRecorder } from './client-stats.ts';
import { createHttpCache, type HttpCache } from './http-cache.ts';
import { createJsonRequester } from './json-request.ts';
import { createLimiter, type Limiter, type QueuePlace } from './limiter.ts';
import { encodeQuery, normaliseApiPath, pathGroup } from './api-paths.ts';
import { createPager } from './list-pages.ts';
import type { PageInfo } from './paging.ts';
import type { FetchLike } from './transport.ts';

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

export interface NewsroomClientOptions {
  /** The API's base URL; `/v1/pressrooms/<id>/...` is appended. */
  baseUrl: string;
  /** Numeric id or domain of the press room. */
  pressroomId: string | number;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey?: string;
  /** Concurrent attempts (shared with whoever uses `client.limit`); default 8. */
  concurrency?: number;
  /** Folder for conditional-request cache entries; no cache when unset. */
  cacheDir?: string;
  /** Whole attempt, headers and body (default 30 000 ms). */
  timeoutMs?: number;
  /** No body bytes for this long aborts the attempt (default 10 000 ms). */
  stallTimeoutMs?: number;
  /** Body size cap per response (default 64 MiB). */
  maxResponseBytes?: number;
  /** Retries after the first attempt (default 4, so at most 5 attempts). */
  retries?: number;
  /** Backoff base (default 250 ms) and ceiling (default 10 000 ms); full jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Longest Retry-After honoured (default 60 000 ms). */
  retryAfterCapMs?: number;
  /** Items per page for `list`/`pages` (default 100). */
  pageLimit?: number;
  /** First page number (default 1). */
  firstPage?: number;
  /** Ceiling on pages per list (default 10 000). */
  maxPages?: number;
  /** Extra pages requested ahead once a list is known to go on (default min(2, concurrency - 1)). */
  readAhead?: number;
  /** Requests go through this fetch instead of undici's request (a snapshot's replay, an in-process API, tests). */
  fetch?: FetchLike;
  /** Injected for tests: the random source and sleep. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told about every retry (for a log line; holds no secret). */
  onRetry?: (event: { endpoint: string; attempt: number; delayMs: number; reason: string }) => void;
  userAgent?: string;
  /** How error advice names the settings (default: this package's option names). */
  settingNames?: Readonly<SettingNames>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Also counted here: the caller's own share of the traffic (a collection's report), exact under concurrency. */
  tally?: GroupStats;
}

export interface ListOptions extends RequestOptions {
  limit?: number;
  firstPage?: number;
  maxPages?: number;
  readAhead?: number;
}

export interface GroupStats {
  /** HTTP attempts sent (retries included). */
  requests: number;
  retries: number;
  /** 304 answers (body served from the HTTP cache). */
  notModified: number;
  /** Body bytes received over the network. */
  bytes: number;
  /** Calls that ended in a NewsroomApiError. */
  errors: number;
  /** Items returned by list/pages. */
  items: number;
  pages: number;
}

export interface ClientStats extends GroupStats {
  /** Wall time with at least one attempt in flight. */
  elapsedMs: number;
  /** Per path group: `press_releases`, `media_kits/:id`, `archive/clippings`, … */
  byGroup: Record<string, GroupStats>;
  /** On-disk HTTP cache: entries found (revalidated), stored, damaged (read as misses), failed writes. */
  cache: { found: number; stores: number; damaged: number; writeErrors: number } | null;
}

export interface NewsroomClient {
  readonly baseUrl: string;
  readonly pressroomId: string;
  /** The shared concurrency limiter (for image downloads). Never wrap client calls in it. */
  readonly limit: Limiter;
  /** The `data` of a single-resource answer. */
  get<T = unknown>(path: string, query?: Query, options?: RequestOptions): Promise<T>;
  /** The whole JSON body. */
  getJson<T = unknown>(path: string, query?: Query, options?: RequestOptions): Promise<T>;
  /** Every item of a list endpoint, all pages. */
  list<T = unknown>(path: string, query?: Query, options?: ListOptions): Promise<T[]>;
  /** The pages of a list endpoint as they arrive (for progress). */
  pages<T = unknown>(path: string, query?: Query, options?: ListOptions): AsyncGenerator<PageInfo<T>, void, undefined>;
  /** Path and query as they appear in errors and logs, e.g. `/v1/pressrooms/4201/press_releases?page=2&limit=100`. */
  endpoint(path: string, query?: Query): string;
  stats(): ClientStats;
  /**
   * Every answer this client used, by endpoint: the SHA-256 of its body (a 304's body is the
   * cached one), the last one when asked twice. What a build was made from, for its fingerprint:
   * pages read ahead past a list's end are not among them (whether they went out is timing).
   */
  answers(): ReadonlyMap<string, string>;
  /** Once every page is rendered: removes HTTP cache entries no build has used for `maxAgeMs` (nothing without a cache). */
  pruneCache(maxAgeMs: number): Promise<PruneResult>;
}

export { encodeQuery, normaliseApiPath, pathGroup } from './api-paths.ts';
export { emptyGroupStats } from './client-stats.ts';

export function createNewsroomClient(options: NewsroomClientOptions): NewsroomClient {
  const settings = clientSettings(options);
  const limit = createLimiter(settings.concurrency);
  const cache: HttpCache | undefined = options.cacheDir ? createHttpCache({ dir: options.cacheDir, apiKey: settings.apiKey }) : undefined;
  const stats = createStatsRecorder();
  const answers = new Map<string, string>();
  let cacheWriteErrors = 0;
  const requestJson = createJsonRequester({
    settings,
    limit,
    cache,
    stats,
    answers,
    onRetry: options.onRetry,
    onCacheWriteError: () => cacheWriteErrors++,
  });

  /** Every error a caller sees carries the request's URL and the caller's names for settings. */
  const named = (error: unknown): unknown =>
    error instanceof NewsroomApiError
      ? error.with({ url: new URL(error.endpoint, settings.origin).href, settingNames: settings.settingNames })
      : error;

  const endpointOf = (path: string, query?: Query): string => {
    const p = normaliseApiPath(path);
    return `${settings.basePath}/v1/pressrooms/${encodeURIComponent(settings.pressroomId)}${p === '' ? '' : `/${p}`}${encodeQuery(query)}`;
  };

  /** The parsed body of one call (with retries), and its endpoint. */
  const call = async (
    path: string,
    query: Query | undefined,
    { signal, tally }: RequestOptions,
    place?: QueuePlace,
  ): Promise<{ body: unknown; endpoint: string }> => {
    const endpoint = endpointOf(path, query);
    try {
      return { body: await requestJson({ endpoint, group: pathGroup(normaliseApiPath(path)), signal, tally, place }), endpoint };
    } catch (error) {
      throw named(error);
    }
  };

  const envelopeData = (body: unknown, endpoint: string): unknown => {
    if (body === null || typeof body !== 'object' || !('data' in body)) {
      throw named(
        new NewsroomApiError({
          kind: 'bad-envelope',
          detail: 'the answer has no "data" field',
          advice: 'check {apiUrl} points at the Newsroom API',
          retryable: false,
          endpoint,
          attempts: 1,
        }),
      );
    }
    return (body as { data: unknown }).data;
  };

  /** `paging.total` as sent (unchecked: paging decides whether it means anything). */
  const pagingTotal = (body: unknown): unknown => {
    const paging = (body as { paging?: unknown }).paging;
    return paging !== null && typeof paging === 'object' ? (paging as { total?: unknown }).total : undefined;
  };

  const pagesOf = createPager({
    settings,
    stats,
    named,
    fetchPage: async (path, query, listOptions, place) => {
      const { body, endpoint } = await call(path, query, listOptions, place);
      return { data: envelopeData(body, endpoint), endpoint, total: pagingTotal(body) };
    },
    forgetAnswer: (endpoint) => answers.delete(endpoint),
    spare: { slots: () => limit.spare(), concurrency: settings.concurrency },
  });

  return {
    baseUrl: settings.baseUrl,
    pressroomId: settings.pressroomId,
    limit,
    endpoint: endpointOf,

    async get<T>(path: string, query?: Query, requestOptions: RequestOptions = {}): Promise<T> {
      const { body, endpoint } = await call(path, query, requestOptions);
      return envelopeData(body, endpoint) as T;
    },

    async getJson<T>(path: string, query?: Query, requestOptions: RequestOptions = {}): Promise<T> {
      return (await call(path, query, requestOptions)).body as T;
    },

    async list<T>(path: string, query?: Query, listOptions?: ListOptions): Promise<T[]> {
      const all: T[] = [];
      for await (const info of pagesOf<T>(path, query, listOptions)) {
        for (const item of info.items) all.push(item);
      }
      return all;
    },

    pages: pagesOf,

    answers: () => answers,

    pruneCache: (maxAgeMs) => cache?.prune(maxAgeMs) ?? Promise.resolve({ files: 0, bytes: 0 }),

    stats(): ClientStats {
      const cacheStats = cache?.stats();
      return stats.stats(
        cacheStats
          ? { found: cacheStats.found, stores: cacheStats.stores, damaged: cacheStats.damaged, writeErrors: cacheWriteErrors }
          : null,
      );
    },
  };
}
