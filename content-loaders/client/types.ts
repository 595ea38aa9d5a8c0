/**
 * The client's types, in a module of their own: the parts client.ts composes
 * (settings, stats, paging, paths) use them without importing client.ts back.
 */
import type { PruneResult } from '../cache-pruning.ts';
import type { SettingNames } from './errors.ts';
import type { Limiter } from './limiter.ts';
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
  /**
   * Forgets every answer noted so far: a process that loads again (a warm renderer's full sync
   * after a targeted one) then notes only what that load used.
   */
  forgetAnswers(): void;
  /** Once every page is rendered: removes HTTP cache entries no build has used for `maxAgeMs` (nothing without a cache). */
  pruneCache(maxAgeMs: number): Promise<PruneResult>;
}
