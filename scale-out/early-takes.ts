/**
 * While the workers still encode, the build takes the renditions of every job
 * they have finished from the shared store into its local cache, a few jobs at
 * once, so that its pages find them there instead of each reading the store in
 * turn as it renders. Same bytes either way: a page takes whatever is not in
 * the cache yet, as it always did.
 *
 * Only an unreachable store stops the build (the first such failure, once
 * every take under way has ended); anything else (an original refused, a
 * download failed) is left to the page that shows the image, which reports it
 * as it would have without workers.
 */
import pLimit from 'p-limit';
import { SharedStoreError, type RenditionJob } from '@pressroom-static/image-pipeline';

/** Jobs taken at once: each is one original (a conditional request) and its few renditions read from the store. */
export const EARLY_TAKES_AT_ONCE = 8;

export interface EarlyTakes {
  /** Takes these jobs' renditions in the background. */
  add(jobs: Iterable<RenditionJob>): void;
  /** Resolves once every take added so far has ended; rejects with the store's failure if one failed. */
  settled(): Promise<void>;
  /** Jobs whose renditions were taken (or found in the cache) so far. */
  readonly done: number;
}

export function createEarlyTakes(take: (job: RenditionJob) => Promise<void>, atOnce = EARLY_TAKES_AT_ONCE): EarlyTakes {
  const limit = pLimit(atOnce);
  const running = new Set<Promise<void>>();
  let failure: SharedStoreError | undefined;
  let done = 0;
  return {
    add(jobs) {
      for (const job of jobs) {
        const taking = limit(async () => {
          if (failure) return;
          await take(job);
          done++;
        }).catch((error: unknown) => {
          if (error instanceof SharedStoreError) failure ??= error;
        });
        running.add(taking);
        void taking.finally(() => running.delete(taking));
      }
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
      if (failure) throw failure;
    },
    get done() {
      return done;
    },
  };
}
