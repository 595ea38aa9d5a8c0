/**
 * Which originals still have a job in the queue, by URL, so that a page
 * rendering while the workers encode waits for its own original's jobs only
 * (an original shown at two sets of sizes has two jobs). Fed with the ids of
 * jobs as they leave the queue; failed once, every wait rejects with that
 * failure, now and later; released (the build stopped waiting), every wait
 * resolves.
 */
import type { RenditionJob } from '@pressroom-static/image-pipeline';

export interface JobTracker {
  /** Resolves once every job of `url` has left the queue: at once for a URL no job has. */
  whenDone(url: string): Promise<void>;
  /** These jobs have left the queue. */
  done(jobIds: Iterable<string>): void;
  /** The wait for the workers failed: every wait, now and later, rejects with `error`. */
  fail(error: unknown): void;
  /** The build stopped waiting: every wait, now and later, resolves. */
  releaseAll(): void;
}

export function createJobTracker(jobs: ReadonlyMap<string, RenditionJob>): JobTracker {
  const pendingByUrl = new Map<string, Set<string>>();
  for (const [id, job] of jobs) {
    let ids = pendingByUrl.get(job.url);
    if (!ids) pendingByUrl.set(job.url, (ids = new Set()));
    ids.add(id);
  }
  const waiters = new Map<string, PromiseWithResolvers<void>>();
  let failure: { error: unknown } | undefined;
  return {
    whenDone(url) {
      if (failure) return Promise.reject(failure.error);
      if (!pendingByUrl.has(url)) return Promise.resolve();
      let waiter = waiters.get(url);
      if (!waiter) waiters.set(url, (waiter = Promise.withResolvers<void>()));
      return waiter.promise;
    },
    done(jobIds) {
      for (const id of jobIds) {
        const url = jobs.get(id)?.url;
        const ids = url === undefined ? undefined : pendingByUrl.get(url);
        if (!ids?.delete(id) || ids.size > 0) continue;
        pendingByUrl.delete(url!);
        waiters.get(url!)?.resolve();
        waiters.delete(url!);
      }
    },
    releaseAll() {
      pendingByUrl.clear();
      for (const waiter of waiters.values()) waiter.resolve();
      waiters.clear();
    },
    fail(error) {
      failure ??= { error };
      for (const waiter of waiters.values()) waiter.reject(failure.error);
      waiters.clear();
    },
  };
}
