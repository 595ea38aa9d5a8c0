/**
 * One HTTP attempt with `fetch`, bounded in time and size.
 *
 * - `timeoutMs`: the whole attempt (headers and body) must finish in time.
 * - `stallTimeoutMs`: once the headers are in, the body is read as a stream and
 *   the attempt is aborted when no bytes arrive for this long. (Waiting for the
 *   headers is covered by `timeoutMs`: a slow server is not a stalled one.)
 * - `maxResponseBytes`: a declared Content-Length over the cap fails before any
 *   byte is read; a body that grows past the cap is aborted at that point.
 *
 * Every failure is an `AttemptFailure` that says whether another attempt may
 * help. The attempt never puts a secret in a failure: causes are copied by
 * `sanitizeCause` with the secrets given.
 */
import {
  AttemptFailure,
  RETRYABLE_STATUSES,
  adviceForStatus,
  errorCode,
  innermostMessage,
  oneLine,
  redact,
  sanitizeCause,
} from './errors.ts';
import { parseRetryAfter } from './retry.ts';
import { formatBytes } from '../format-bytes.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface AttemptOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  stallTimeoutMs: number;
  maxResponseBytes: number;
  fetch: FetchLike;
  /** Strings that must never appear in a failure (the API key). */
  secrets: readonly string[];
  /** The caller's cancellation; aborts the attempt and is never retried. */
  signal?: AbortSignal;
  /** Called for every chunk of body bytes received (progress, stats). */
  onBytes?: (n: number) => void;
  /** Clock for Retry-After dates (tests). */
  now?: () => number;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** Empty for 304. */
  body: Buffer;
}

const TIMEOUT = Symbol('timeout');
const STALL = Symbol('stall');
const TOO_LARGE = Symbol('too-large');

/** Error bodies are read for their message, but only this much of them. */
const ERROR_BODY_CAP = 64 * 1024;

function tooLarge(size: string, cap: number): AttemptFailure {
  return new AttemptFailure({
    kind: 'too-large',
    retryable: false,
    detail: `response body of ${size} exceeds the cap of ${formatBytes(cap)}`,
    advice: 'lower the page limit or raise maxResponseBytes',
  });
}

/** The `error.message` of a JSON error body, or a short snippet of a text body. */
function errorBodyMessage(body: Buffer, secrets: readonly string[]): string | undefined {
  if (body.length === 0) return undefined;
  const text = body.subarray(0, 2048).toString('utf8');
  let message: string | undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const error = (parsed as { error?: unknown } | null)?.error;
    const candidate = typeof error === 'string' ? error : (error as { message?: unknown } | null | undefined)?.message;
    if (typeof candidate === 'string') message = candidate;
  } catch {
    message = /^\s*</.test(text) ? undefined : text;
  }
  if (message === undefined) return undefined;
  const clean = oneLine(redact(message, secrets));
  return clean.length > 160 ? `${clean.slice(0, 157)}...` : clean;
}

export async function attemptRequest(options: AttemptOptions): Promise<RawResponse> {
  const { secrets } = options;
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const deadline = setTimeout(() => controller.abort(TIMEOUT), options.timeoutMs);
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  const armStall = (): void => {
    if (stallTimer !== undefined) clearTimeout(stallTimer);
    stallTimer = setTimeout(() => controller.abort(STALL), options.stallTimeoutMs);
  };

  /** Maps an exception from fetch or the body stream to an AttemptFailure. */
  const failureFrom = (error: unknown, phase: 'connect' | 'body'): AttemptFailure => {
    if (options.signal?.aborted) {
      return new AttemptFailure({
        kind: 'aborted',
        retryable: false,
        detail: 'cancelled by the caller',
        advice: 'nothing to do',
        cause: sanitizeCause(options.signal.reason, secrets),
      });
    }
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
    if (reason === TIMEOUT) {
      return new AttemptFailure({
        kind: 'timeout',
        retryable: true,
        detail: `no complete response within ${options.timeoutMs} ms`,
        advice: 'the API is slow; retry later or raise the request timeout',
      });
    }
    if (reason === STALL) {
      return new AttemptFailure({
        kind: 'stall',
        retryable: true,
        detail: `the response stalled (no body bytes for ${options.stallTimeoutMs} ms)`,
        advice: 'the API or network is stalling; retry later',
      });
    }
    const code = errorCode(error);
    const message = redact(innermostMessage(error), secrets);
    const what = code && !message.includes(code) ? `${code}: ${message}` : message;
    if (phase === 'body') {
      return new AttemptFailure({
        kind: 'truncated',
        retryable: true,
        detail: `the connection closed before the body was complete (${what})`,
        advice: 'the API or network dropped the connection; retry later',
        cause: sanitizeCause(error, secrets),
      });
    }
    return new AttemptFailure({
      kind: 'network',
      retryable: true,
      detail: `network error (${what})`,
      advice: 'could not reach the API; check {apiUrl} and the network',
      cause: sanitizeCause(error, secrets),
    });
  };

  try {
    let response: Response;
    try {
      response = await options.fetch(options.url, { method: 'GET', headers: options.headers, signal, redirect: 'follow' });
    } catch (error) {
      throw failureFrom(error, 'connect');
    }

    if (response.status === 304) {
      await response.body?.cancel().catch(() => undefined);
      return { status: 304, statusText: response.statusText, headers: response.headers, body: Buffer.alloc(0) };
    }

    const ok = response.status >= 200 && response.status < 300;
    const cap = ok ? options.maxResponseBytes : Math.min(options.maxResponseBytes, ERROR_BODY_CAP);
    const declaredHeader = response.headers.get('content-length');
    const declared = declaredHeader !== null && /^\d+$/.test(declaredHeader.trim()) ? Number(declaredHeader) : undefined;
    if (ok && declared !== undefined && declared > cap) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(formatBytes(declared), cap);
    }

    // Read the body as a stream: stall timer per chunk, size cap as it grows.
    const chunks: Uint8Array[] = [];
    let received = 0;
    let cutShort = false;
    if (response.body) {
      const reader = response.body.getReader();
      armStall();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          armStall();
          received += value.byteLength;
          options.onBytes?.(value.byteLength);
          if (received > cap) {
            if (!ok) {
              cutShort = true; // an error body only matters for its message
              break;
            }
            controller.abort(TOO_LARGE);
            throw tooLarge(`more than ${formatBytes(cap)}`, cap);
          }
          chunks.push(value);
        }
      } catch (error) {
        if (error instanceof AttemptFailure) throw error;
        throw failureFrom(error, 'body');
      } finally {
        if (stallTimer !== undefined) clearTimeout(stallTimer);
        if (cutShort) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
      }
    }
    const body = Buffer.concat(chunks);

    if (ok && declared !== undefined && body.length !== declared) {
      throw new AttemptFailure({
        kind: 'truncated',
        retryable: true,
        detail: `the body ended after ${body.length} of ${declared} bytes`,
        advice: 'the API or network dropped the connection; retry later',
      });
    }

    if (!ok) {
      const status = response.status;
      const reason = response.statusText || '';
      const serverSays = errorBodyMessage(body, secrets);
      const detail = `HTTP ${status}${reason ? ` ${reason}` : ''}${serverSays ? ` ("${serverSays}")` : ''}`;
      throw new AttemptFailure({
        kind: 'http',
        status,
        retryable: RETRYABLE_STATUSES.has(status),
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), options.now?.() ?? Date.now()),
        detail,
        advice: adviceForStatus(status),
      });
    }

    return { status: response.status, statusText: response.statusText, headers: response.headers, body };
  } finally {
    clearTimeout(deadline);
    if (stallTimer !== undefined) clearTimeout(stallTimer);
  }
}
