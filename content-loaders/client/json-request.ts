/**
 * One client call with retries: each attempt through the shared limiter,
 * revalidated against the HTTP cache (a 304 serves the cached body), counted,
 * parsed as JSON and noted among the answers the build used (their SHA-256).
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { GroupStats } from './types.ts';
import type { ClientSettings } from './client-settings.ts';
import type { StatsRecorder } from './client-stats.ts';
import { AttemptFailure, sanitizeCause } from './errors.ts';
import type { CachedResponse, HttpCache } from './http-cache.ts';
import type { Limiter, QueuePlace } from './limiter.ts';
import { attemptRequest, type RawResponse } from './request.ts';
import { withRetry, type RetryEvent } from './retry.ts';

export interface JsonRequestContext {
  settings: ClientSettings;
  limit: Limiter;
  cache: HttpCache | undefined;
  stats: StatsRecorder;
  /** Endpoint → SHA-256 of the body used. */
  answers: Map<string, string>;
  onRetry: ((event: { endpoint: string; attempt: number; delayMs: number; reason: string }) => void) | undefined;
  onCacheWriteError(): void;
}

export interface JsonCall {
  endpoint: string;
  /** The path group its stats are counted under. */
  group: string;
  signal: AbortSignal | undefined;
  tally: GroupStats | undefined;
  /** Its place in the limiter's queue (a list page's priority; a signal that drops it while it waits). */
  place?: QueuePlace;
}

/**
 * The body of a 200, or the cached one for a 304 with the digest the cache checked it against;
 * throws when the cache lost the entry meanwhile.
 */
function answerBody(response: RawResponse, cached: CachedResponse | undefined): { body: Buffer; sha256?: string } {
  if (response.status !== 304) return { body: response.body };
  if (!cached) {
    throw new AttemptFailure({
      kind: 'http',
      status: 304,
      retryable: true,
      detail: 'HTTP 304 Not Modified without a cached copy',
      advice: 'the HTTP cache folder changed during the build; retry',
    });
  }
  return { body: cached.body, sha256: cached.sha256 };
}

/** RFC 8259 lets a parser ignore a leading UTF-8 byte order mark; JSON.parse does not. */
const withoutBom = (body: Buffer): Buffer => (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? body.subarray(3) : body);

function parseJson(body: Buffer, response: RawResponse): unknown {
  try {
    return JSON.parse(withoutBom(body).toString('utf8'));
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new AttemptFailure({
      kind: 'invalid-json',
      retryable: false,
      detail: `the body is not JSON (${type}, ${body.length} bytes: ${error instanceof Error ? error.message : String(error)})`,
      advice: 'check {apiUrl} points at the Newsroom API',
    });
  }
}

/** The parsed JSON body of an answer, with the SHA-256 of its bytes. */
export interface JsonAnswer {
  json: unknown;
  sha256: string;
}

/** `requestJson(call)`: the parsed JSON body, or a NewsroomApiError after the retries. */
export function createJsonRequester(context: JsonRequestContext): (call: JsonCall) => Promise<JsonAnswer> {
  const { settings, limit, cache, stats, answers } = context;

  return async function requestJson({ endpoint, group, signal, tally, place }: JsonCall): Promise<JsonAnswer> {
    const url = `${settings.origin}${endpoint}`;
    let conditional = cache !== undefined;
    let started = false;

    const attempt = async (): Promise<JsonAnswer> => {
      if (signal?.aborted)
        throw new AttemptFailure({
          kind: 'aborted',
          retryable: false,
          detail: 'cancelled by the caller',
          advice: 'nothing to do',
          cause: sanitizeCause(signal.reason, settings.secrets),
        });
      // The slot is held while the request is on the wire, not while its answer is parsed, hashed and
      // stored: a queued request goes out at once, and a slow disk under the HTTP cache holds no slot.
      const {
        response,
        body,
        sha256: cachedSha256,
      } = await limit(async () => {
        started = true;
        stats.attemptStarted();
        try {
          const cached: CachedResponse | undefined = conditional && cache ? await cache.lookup(url) : undefined;
          const headers = cached ? { ...settings.headers, 'if-none-match': cached.etag } : settings.headers;
          stats.bump(group, 'requests', 1, tally);
          const response = await attemptRequest({
            url,
            headers,
            timeoutMs: settings.timeoutMs,
            stallTimeoutMs: settings.stallTimeoutMs,
            maxResponseBytes: settings.maxResponseBytes,
            transport: settings.transport,
            secrets: settings.secrets,
            signal,
            onBytes: (n) => stats.bump(group, 'bytes', n, tally),
          });
          if (response.status === 304 && !cached) conditional = false; // the entry vanished: ask again, unconditionally
          if (response.status === 304) stats.bump(group, 'notModified', 1, tally);
          return { response, ...answerBody(response, cached) };
        } finally {
          stats.attemptFinished();
        }
      }, place);
      // The request that took the freed slot is written to its socket on a later tick: yield, or it waits for
      // this parse (~1.5 ms per 400 kB answer). At scale L the API bench went from 1.22-1.25 to 1.15-1.17.
      await nextTurn();
      const parsed = parseJson(body, response);
      // Hashed once: a 304's body was checked against its digest as the cache read it.
      const sha256 = cachedSha256 ?? createHash('sha256').update(body).digest('hex');
      answers.set(endpoint, sha256);
      const etag = response.headers.get('etag');
      if (cache && response.status === 200 && etag) await cache.store(url, etag, body, sha256).catch(context.onCacheWriteError);
      return { json: parsed, sha256 };
    };

    try {
      const { value } = await withRetry(endpoint, attempt, settings.policy, {
        signal,
        secrets: settings.secrets,
        onRetry: (event: RetryEvent) => {
          stats.bump(group, 'retries', 1, tally);
          context.onRetry?.({ endpoint, attempt: event.attempt, delayMs: event.delayMs, reason: event.failure.detail });
        },
      });
      return value;
    } catch (error) {
      // Dropped from the queue before it was ever sent: nothing failed, nobody waits for it.
      if (!(place?.signal?.aborted && !started)) stats.bump(group, 'errors', 1, tally);
      throw error;
    }
  };
}
