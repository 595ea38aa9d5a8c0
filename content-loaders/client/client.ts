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
import { NewsroomApiError } from './errors.ts';
import { clientSettings } from './client-settings.ts';
import { createStatsRecorder } from './client-stats.ts';
import { createHttpCache, type HttpCache } from './http-cache.ts';
import { createJsonRequester } from './json-request.ts';
import { createLimiter, type QueuePlace } from './limiter.ts';
import { encodeQuery, normaliseApiPath, pathGroup } from './api-paths.ts';
import { createPager } from './list-pages.ts';
import type { ClientStats, ListOptions, NewsroomClient, NewsroomClientOptions, Query, RequestOptions } from './types.ts';

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

  /** The parsed body of one call (with retries), its endpoint and the SHA-256 of the answer. */
  const call = async (
    path: string,
    query: Query | undefined,
    { signal, tally }: RequestOptions,
    place?: QueuePlace,
  ): Promise<{ body: unknown; endpoint: string; sha256: string }> => {
    const endpoint = endpointOf(path, query);
    try {
      const { json, sha256 } = await requestJson({ endpoint, group: pathGroup(normaliseApiPath(path)), signal, tally, place });
      return { body: json, endpoint, sha256 };
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
      const { body, endpoint, sha256 } = await call(path, query, listOptions, place);
      return { data: envelopeData(body, endpoint), endpoint, total: pagingTotal(body), sha256 };
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

    forgetAnswers: () => answers.clear(),

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
