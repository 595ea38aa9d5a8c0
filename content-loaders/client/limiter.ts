/**
 * The one concurrency limiter of a client. Every API attempt runs through it,
 * and it is exported as `client.limit` so image downloads share the same budget
 * (the `concurrency` option counts API requests and downloads together).
 *
 * Waiting calls are served by priority, then in order of arrival: a list's
 * pages go before single requests and downloads (`PAGE_PRIORITY`), so a long
 * list, the critical path of a load, does not queue behind dozens of
 * independent requests that could run at any time.
 * A call whose `signal` aborts while it waits is dropped without running;
 * once started it runs to its end.
 *
 * Backoff sleeps between retries run outside the limiter, so a request waiting
 * to retry never holds a slot. Do not call client methods from inside
 * `client.limit(...)`: the inner call would wait for a slot its caller holds.
 */
import PQueue from 'p-queue';

export interface QueuePlace {
  /** Higher runs first (default 0, what downloads and single requests get). */
  priority?: number;
  /** Aborting it drops the call if it has not started yet (the promise rejects with the reason). */
  signal?: AbortSignal;
}

export interface Limiter {
  <T>(task: () => Promise<T>, place?: QueuePlace): Promise<T>;
  /** Slots a task added now would start in at once: the free ones while nothing waits, else none. */
  spare(): number;
}

/** The `concurrency` option when unset. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY}, got ${String(concurrency)}`);
  }
  const queue = new PQueue({ concurrency });
  // Not p-queue's own `signal`: it also rejects a task already running, whose request would then outlive its caller.
  const limit = <T>(task: () => Promise<T>, { priority = 0, signal }: QueuePlace = {}): Promise<T> =>
    queue.add(
      () => {
        signal?.throwIfAborted();
        return task();
      },
      { priority },
    );
  return Object.assign(limit, { spare: () => (queue.size > 0 ? 0 : concurrency - queue.pending) });
}

/**
 * The queue priority of a list page: above single requests and downloads (0).
 * A list is a chain (each page read ahead only once the one before proved the
 * list goes on), while single requests are leaves that can run at any time.
 */
export const PAGE_PRIORITY = 1;
