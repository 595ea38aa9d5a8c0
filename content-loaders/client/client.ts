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
 * end as one-line NewsroomApiErrors. The key lives only in this closure: not on
 * the client object, not in stats, endpoints, errors or cache files.
 */
import { createHash } from 'node:crypto';
import { AttemptFailure, NewsroomApiError, sanitizeCause, type SettingNames } from './errors.ts';
import type { PruneResult } from '../cache-pruning.ts';
import { createHttpCache, type CachedResponse, type HttpCache } from './http-cache.ts';
import { DEFAULT_CONCURRENCY, createLimiter, type Limiter } from './limiter.ts';
import { DEFAULT_MAX_PAGES, DEFAULT_PAGE_LIMIT, pageInfos, type FetchedPage, type PageInfo } from './paging.ts';
import { attemptRequest, type FetchLike } from './request.ts';
import { defaultSleep, withRetry, type RetryEvent, type RetryPolicy } from './retry.ts';

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
  /** Injected for tests: the fetch implementation, random source and sleep. */
  fetch?: FetchLike;
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
   * cached one), the last one when asked twice. What a build was made from, for its fingerprint.
   */
  answers(): ReadonlyMap<string, string>;
  /** Once every page is rendered: removes HTTP cache entries no build has used for `maxAgeMs` (nothing without a cache). */
  pruneCache(maxAgeMs: number): Promise<PruneResult>;
}

const SEGMENT = /^[A-Za-z0-9_.~-]+$/;

/** Path relative to the press room, checked segment by segment; a leading `/` and a `.json` suffix are dropped. */
export function normaliseApiPath(path: string): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\.json$/, '');
  if (trimmed === '') return '';
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new TypeError(`Newsroom API path must be relative segments of letters, digits, '_', '-', '.', got ${JSON.stringify(path)}`);
    }
  }
  return segments.join('/');
}

/** `media_kits/12` → `media_kits/:id`; used to group stats. */
export function pathGroup(path: string): string {
  if (path === '') return '(pressroom)';
  return path
    .split('/')
    .map((s) => (/^\d+$/.test(s) ? ':id' : s))
    .join('/');
}

export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(name, Array.isArray(value) ? value.join(',') : String(value as string | number | boolean));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function emptyGroupStats(): GroupStats {
  return { requests: 0, retries: 0, notModified: 0, bytes: 0, errors: 0, items: 0, pages: 0 };
}

export function createNewsroomClient(options: NewsroomClientOptions): NewsroomClient {
  let parsedBase: URL;
  try {
    parsedBase = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`Newsroom API baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  if ((parsedBase.protocol !== 'http:' && parsedBase.protocol !== 'https:') || parsedBase.username || parsedBase.password || parsedBase.search || parsedBase.hash) {
    throw new TypeError('Newsroom API baseUrl must be an http(s) URL without credentials, query or fragment');
  }
  const baseUrl = `${parsedBase.origin}${parsedBase.pathname}`.replace(/\/+$/, '');
  const basePath = parsedBase.pathname.replace(/\/+$/, '');
  const pressroomId = String(options.pressroomId).trim();
  if (!/^[A-Za-z0-9.-]+$/.test(pressroomId)) {
    throw new TypeError(`pressroomId must be a numeric id or a domain, got ${JSON.stringify(options.pressroomId)}`);
  }
  const apiKey = options.apiKey === undefined || options.apiKey === '' ? undefined : options.apiKey;
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new TypeError('apiKey must be printable ASCII without spaces (value hidden)');
  }
  const secrets: readonly string[] = apiKey === undefined ? [] : [apiKey];
  /** Every error a caller sees carries the request's URL and the caller's names for settings. */
  const named = (error: unknown): unknown =>
    error instanceof NewsroomApiError ? error.with({ url: new URL(error.endpoint, parsedBase.origin).href, settingNames: options.settingNames }) : error;

  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const limit = createLimiter(concurrency);
  const cache: HttpCache | undefined = options.cacheDir ? createHttpCache({ dir: options.cacheDir, apiKey }) : undefined;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const stallTimeoutMs = options.stallTimeoutMs ?? 10_000;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const policy: RetryPolicy = {
    retries: options.retries ?? 4,
    baseDelayMs: options.baseDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    retryAfterCapMs: options.retryAfterCapMs ?? 60_000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
  };
  if (!Number.isInteger(policy.retries) || policy.retries < 0) throw new RangeError(`retries must be a non-negative integer, got ${String(policy.retries)}`);
  const paging = {
    limit: options.pageLimit ?? DEFAULT_PAGE_LIMIT,
    firstPage: options.firstPage ?? 1,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    readAhead: options.readAhead ?? Math.min(2, concurrency - 1),
  };
  const baseHeaders: Record<string, string> = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'pressroom-static',
  };
  if (apiKey !== undefined) baseHeaders.authorization = `Bearer ${apiKey}`;

  // Stats.
  const total = emptyGroupStats();
  const groups = new Map<string, GroupStats>();
  let cacheWriteErrors = 0;
  const answers = new Map<string, string>();
  let inFlight = 0;
  let busySince = 0;
  let busyMs = 0;
  const bump = (group: string, field: keyof GroupStats, n = 1, tally?: GroupStats): void => {
    total[field] += n;
    if (tally) tally[field] += n;
    let g = groups.get(group);
    if (!g) {
      g = emptyGroupStats();
      groups.set(group, g);
    }
    g[field] += n;
  };

  const endpointOf = (path: string, query?: Query): string => {
    const p = normaliseApiPath(path);
    return `${basePath}/v1/pressrooms/${encodeURIComponent(pressroomId)}${p === '' ? '' : `/${p}`}${encodeQuery(query)}`;
  };

  /** One call (with retries): the parsed JSON body. */
  async function requestJson(path: string, query: Query | undefined, { signal, tally }: RequestOptions): Promise<{ body: unknown; endpoint: string }> {
    const endpoint = endpointOf(path, query);
    const url = `${parsedBase.origin}${endpoint}`;
    const group = pathGroup(normaliseApiPath(path));
    let conditional = cache !== undefined;

    const attempt = async (): Promise<unknown> => {
      if (signal?.aborted) throw new AttemptFailure({ kind: 'aborted', retryable: false, detail: 'cancelled by the caller', advice: 'nothing to do', cause: sanitizeCause(signal.reason, secrets) });
      return limit(async () => {
        if (inFlight++ === 0) busySince = performance.now();
        try {
          const cached: CachedResponse | undefined = conditional && cache ? await cache.lookup(url) : undefined;
          const headers = cached ? { ...baseHeaders, 'if-none-match': cached.etag } : baseHeaders;
          bump(group, 'requests', 1, tally);
          const response = await attemptRequest({
            url,
            headers,
            timeoutMs,
            stallTimeoutMs,
            maxResponseBytes,
            fetch: fetchImpl,
            secrets,
            signal,
            onBytes: (n) => bump(group, 'bytes', n, tally),
          });
          let body: Buffer;
          if (response.status === 304) {
            if (!cached) {
              conditional = false; // the entry vanished: ask again, unconditionally
              throw new AttemptFailure({ kind: 'http', status: 304, retryable: true, detail: 'HTTP 304 Not Modified without a cached copy', advice: 'the HTTP cache folder changed during the build; retry' });
            }
            bump(group, 'notModified', 1, tally);
            body = cached.body;
          } else {
            body = response.body;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(body.toString('utf8'));
            answers.set(endpoint, createHash('sha256').update(body).digest('hex'));
          } catch (error) {
            const type = response.headers.get('content-type') ?? 'no content type';
            throw new AttemptFailure({
              kind: 'invalid-json',
              retryable: false,
              detail: `the body is not JSON (${type}, ${body.length} bytes: ${error instanceof Error ? error.message : String(error)})`,
              advice: 'check {apiUrl} points at the Newsroom API',
            });
          }
          const etag = response.headers.get('etag');
          if (cache && response.status === 200 && etag) {
            await cache.store(url, etag, body).catch(() => {
              cacheWriteErrors++;
            });
          }
          return parsed;
        } finally {
          if (--inFlight === 0) busyMs += performance.now() - busySince;
        }
      });
    };

    try {
      const { value } = await withRetry(endpoint, attempt, policy, {
        signal,
        secrets,
        onRetry: (event: RetryEvent) => {
          bump(group, 'retries', 1, tally);
          options.onRetry?.({ endpoint, attempt: event.attempt, delayMs: event.delayMs, reason: event.failure.detail });
        },
      });
      return { body: value, endpoint };
    } catch (error) {
      bump(group, 'errors', 1, tally);
      throw named(error);
    }
  }

  function envelopeData(body: unknown, endpoint: string): unknown {
    if (body === null || typeof body !== 'object' || !('data' in body)) {
      throw named(new NewsroomApiError({
        kind: 'bad-envelope',
        detail: 'the answer has no "data" field',
        advice: 'check {apiUrl} points at the Newsroom API',
        retryable: false,
        endpoint,
        attempts: 1,
      }));
    }
    return (body as { data: unknown }).data;
  }

  function pagesOf<T>(path: string, query: Query | undefined, listOptions: ListOptions = {}): AsyncGenerator<PageInfo<T>, void, undefined> {
    if (query && ('page' in query || 'limit' in query)) {
      throw new TypeError('list/pages set "page" and "limit" themselves; pass the page size as options.limit');
    }
    const group = pathGroup(normaliseApiPath(path));
    const fetchPage = async (page: number, pageLimit: number): Promise<FetchedPage> => {
      const { body, endpoint } = await requestJson(path, { ...query, page, limit: pageLimit }, listOptions);
      return { data: envelopeData(body, endpoint), endpoint };
    };
    const inner = pageInfos<T>(fetchPage, {
      limit: listOptions.limit ?? paging.limit,
      firstPage: listOptions.firstPage ?? paging.firstPage,
      maxPages: listOptions.maxPages ?? paging.maxPages,
      readAhead: listOptions.readAhead ?? paging.readAhead,
    });
    return (async function* counted() {
      try {
        for await (const info of inner) {
          bump(group, 'pages', 1, listOptions.tally);
          bump(group, 'items', info.items.length, listOptions.tally);
          yield info;
        }
      } catch (error) {
        throw named(error);
      }
    })();
  }

  return {
    baseUrl,
    pressroomId,
    limit,
    endpoint: endpointOf,

    async get<T>(path: string, query?: Query, requestOptions: RequestOptions = {}): Promise<T> {
      const { body, endpoint } = await requestJson(path, query, requestOptions);
      return envelopeData(body, endpoint) as T;
    },

    async getJson<T>(path: string, query?: Query, requestOptions: RequestOptions = {}): Promise<T> {
      return (await requestJson(path, query, requestOptions)).body as T;
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
      const byGroup: Record<string, GroupStats> = {};
      for (const [name, g] of [...groups].sort(([a], [b]) => a.localeCompare(b))) byGroup[name] = { ...g };
      const cacheStats = cache?.stats();
      return {
        ...total,
        elapsedMs: Math.round(busyMs + (inFlight > 0 ? performance.now() - busySince : 0)),
        byGroup,
        cache: cacheStats ? { found: cacheStats.found, stores: cacheStats.stores, damaged: cacheStats.damaged, writeErrors: cacheWriteErrors } : null,
      };
    },
  };
}
