/**
 * The workers start while the build still loads its data: as the content
 * layer stores each collection, that collection's jobs are added to the
 * queue (with their page-order priority), so at scale L the workers are busy
 * during the two minutes of API paging instead of waiting for all of it.
 *
 * The queue is opened when the first collection is stored. Nothing here ever
 * fails the data load: a Redis or store that cannot be reached, or an add
 * that failed, is kept and thrown, in its one line, when the build hands the
 * queue over at `astro:build:start`, exactly where a build without this pass
 * would have failed. The build-start pass then adds whatever this one missed
 * (job ids are digests: a job is never added twice by one build).
 *
 * Entries are taken only once the loader has stored them: what the data
 * policy kept out (drafts, embargoes, a locked kit's media) never reaches
 * them, and `renditionJobsOf` skips locked and password-protected kits as
 * well.
 */
import type { SharedRenditionStore } from '@pressroom-static/image-pipeline';
import { openRenditionQueue, type OpenedQueue } from './distribute.ts';
import { jobsInPageOrder } from './page-order.ts';

export interface EarlyEnqueueOptions {
  queueUrl: string;
  store: SharedRenditionStore;
  avif: boolean;
  deadlineMs?: number;
}

export interface EarlyEnqueue {
  /** A collection's entries are final: its jobs are added in the background. */
  collectionStored(collection: string, entries: Iterable<unknown>): void;
  /** The queue with every job added so far, for the build-start pass; rejects with the first failure. Undefined when no collection was stored. */
  handOver(): Promise<OpenedQueue> | undefined;
  /** Lets the queue go (a build that failed before handing it over); never throws. */
  close(): Promise<void>;
}

export function createEarlyEnqueue(options: EarlyEnqueueOptions): EarlyEnqueue {
  let opened: Promise<OpenedQueue> | undefined;
  // Each collection's adds, one after the other; the first failure stays.
  let chain: Promise<OpenedQueue> | undefined;
  return {
    collectionStored(collection, entries) {
      opened ??= openRenditionQueue(options);
      const { jobs, priorities } = jobsInPageOrder(new Map([[collection, [...entries]]]), options.avif);
      chain = (chain ?? opened).then(async (queue) => {
        await queue.add(jobs, priorities);
        return queue;
      });
      // Reported at the hand-over; never an unhandled rejection during the data load.
      chain.catch(() => undefined);
    },
    handOver: () => chain,
    async close() {
      const queue = await opened?.catch(() => undefined);
      await queue?.letGo();
    },
  };
}
