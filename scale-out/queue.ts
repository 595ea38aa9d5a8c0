/**
 * The BullMQ queue builds and workers share (PRESSROOM_QUEUE_URL): its name,
 * its Redis connection, the options every job is added with, and a deadline
 * for any Redis call a build makes (a build never hangs on a Redis that went
 * away: ioredis would otherwise keep retrying for ever).
 */
import type { JobsOptions, RedisOptions } from 'bullmq';

export const QUEUE_NAME = 'pressroom-renditions';

/**
 * A job is tried 3 times, 5 s then 10 s apart, and removed once finished either way: the
 * renditions are in the shared store, and a job that failed is made by the build itself.
 */
export const JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: true,
  removeOnFail: true,
};

/** A worker holds a job's lock this long, renewed at half: a worker killed mid-job gives its job back within LOCK_MS + STALLED_CHECK_MS. */
export const LOCK_MS = 10_000;
export const STALLED_CHECK_MS = 5_000;

/** How long a build waits for any one answer from Redis. */
export const REDIS_DEADLINE_MS = 10_000;

/** The queue's address for messages: scheme, host, port and database, never a user name or password. */
export function describeQueue(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.length > 1 ? u.pathname : ''}`;
}

/** Connection options for `url`. Workers retry for ever (`maxRetriesPerRequest: null`, as BullMQ requires); a build's calls are bounded by `withDeadline`. */
export function redisConnection(url: string, role: 'build' | 'worker'): RedisOptions {
  return {
    url,
    connectionName: `pressroom-${role}`,
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    connectTimeout: 5_000,
    retryStrategy: (times: number) => Math.min(times * 500, 2_000),
  };
}

/** `work`, or a rejection with `message` once `ms` have passed. */
export async function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
