/**
 * Bounded retries with p-retry: exponential backoff with full jitter, and the
 * server's Retry-After honoured up to a cap.
 *
 * Only `AttemptFailure`s marked retryable are tried again (network errors,
 * timeouts, stalls, truncated bodies, 429/500/502/503/504); anything else stops
 * at once through p-retry's AbortError. p-retry counts the attempts; the delay
 * is computed here (p-retry's own timer is off: `minTimeout: 0`) so the random
 * source and the sleep can be injected and tests run fast and deterministic.
 */
import pRetry, { AbortError } from 'p-retry';
import { AttemptFailure, NewsroomApiError, sanitizeCause } from './errors.ts';

export interface RetryPolicy {
  /** Retries after the first attempt: 4 means at most 5 attempts. */
  retries: number;
  /** Backoff base in ms: retry n (0-based) waits random(0, min(maxDelayMs, baseDelayMs * 2^n)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is shortened to it. */
  retryAfterCapMs: number;
  /** Uniform in [0, 1). */
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RetryEvent {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Wait before the next attempt. */
  delayMs: number;
  failure: AttemptFailure;
}

/** Default sleep: a timer that an AbortSignal can cut short. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Retry-After as milliseconds: delta-seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`, relative to `now`). Undefined when absent
 * or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^\d+\.\d+$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Delay before retry number `retryIndex` (0 for the first retry): full jitter
 * `random(0, min(maxDelayMs, baseDelayMs * 2^retryIndex))`; when the server sent
 * Retry-After, at least that long (capped at retryAfterCapMs).
 */
export function backoffDelay(
  retryIndex: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'retryAfterCapMs' | 'random'>,
  retryAfterMs?: number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const jitter = Math.floor(policy.random() * ceiling);
  if (retryAfterMs === undefined) return jitter;
  return Math.max(jitter, Math.min(retryAfterMs, policy.retryAfterCapMs));
}

/**
 * The retry loop every part shares (API requests here, image downloads in the
 * image pipeline): `attempt` runs until it succeeds, throws an error
 * `retryableAfter` does not call retryable (it returns undefined), or the
 * retries are used up; between attempts it waits `backoffDelay`, at least the
 * Retry-After the error carries. The last error is thrown as it was.
 */
export async function retrying<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  options: {
    /** For a retryable error: the server's Retry-After in ms, or null when it sent none; undefined: do not retry. */
    retryableAfter: (error: unknown) => number | null | undefined;
    onRetry?: (error: unknown, attemptNumber: number, delayMs: number) => void;
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  return pRetry(
    async (attemptNumber: number) => {
      try {
        return await attempt(attemptNumber);
      } catch (error) {
        if (options.retryableAfter(error) !== undefined) throw error;
        throw new AbortError(error instanceof Error ? error : new Error(String(error)));
      }
    },
    {
      retries: policy.retries,
      minTimeout: 0, // p-retry's own timer is off; the delay is ours (below)
      signal: options.signal,
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft, retriesConsumed }) => {
        const retryAfter = options.retryableAfter(error);
        if (retriesLeft <= 0 || retryAfter === undefined) return;
        const delayMs = backoffDelay(retriesConsumed, policy, retryAfter ?? undefined);
        options.onRetry?.(error, attemptNumber, delayMs);
        await policy.sleep(delayMs, options.signal);
      },
    },
  );
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are used up.
 * A final failure becomes a NewsroomApiError naming `endpoint` and the number
 * of attempts made. Errors that are not AttemptFailures (bugs) pass through.
 */
export async function withRetry<T>(
  endpoint: string,
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: { onRetry?: (event: RetryEvent) => void; signal?: AbortSignal; secrets?: readonly string[] } = {},
): Promise<{ value: T; attempts: number }> {
  let attempts = 0;
  try {
    const value = await retrying(
      async (attemptNumber) => {
        attempts = attemptNumber;
        return attempt(attemptNumber);
      },
      policy,
      {
        retryableAfter: (error) => (error instanceof AttemptFailure && error.retryable ? (error.retryAfterMs ?? null) : undefined),
        onRetry: (error, attemptNumber, delayMs) => hooks.onRetry?.({ attempt: attemptNumber, delayMs, failure: error as AttemptFailure }),
        signal: hooks.signal,
      },
    );
    return { value, attempts };
  } catch (error) {
    if (error instanceof AttemptFailure) throw NewsroomApiError.fromFailure(error, endpoint, attempts);
    if (hooks.signal?.aborted) {
      throw new NewsroomApiError({
        kind: 'aborted',
        detail: 'cancelled by the caller',
        advice: 'nothing to do',
        retryable: false,
        endpoint,
        attempts,
        cause: sanitizeCause(hooks.signal.reason, hooks.secrets ?? []),
      });
    }
    throw error;
  }
}
