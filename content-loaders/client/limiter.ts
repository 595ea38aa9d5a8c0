/**
 * The one concurrency limiter of a client. Every API attempt runs through it,
 * and it is exported as `client.limit` so image downloads share the same budget
 * (the `concurrency` option counts API requests and downloads together).
 *
 * Backoff sleeps between retries run outside the limiter, so a request waiting
 * to retry never holds a slot. Do not call client methods from inside
 * `client.limit(...)`: the inner call would wait for a slot its caller holds.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export type Limiter = LimitFunction;

/** The `concurrency` option when unset. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}, got ${String(concurrency)}`);
  }
  return pLimit(concurrency);
}
