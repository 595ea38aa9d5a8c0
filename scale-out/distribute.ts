/**
 * The build's side of the queue: each collection's jobs are added as the
 * content layer stores it (early-enqueue.ts), then, before any page renders,
 * every job not added yet (addBulk; the job id is its digest, so a job already
 * queued by another build is not added twice), each with the priority of the
 * pages that show it (page-order.ts); then the build waits for its own
 * jobs, polling which of them are still pending in one call (the ids of
 * every pending job: never a wait per job, which at 100,000 jobs loses
 * results), with a progress line every PROGRESS_EVERY_MS. Each job that
 * leaves the queue (made, refused, or failed for good: finished jobs are
 * removed) is handed to `onDone` as it goes, so the build can take its
 * renditions from the store while the workers make the rest. It gives up,
 * one line each:
 *
 * - Redis does not answer at start (REDIS_DEADLINE_MS) or stops answering
 *   while the build waits (for REDIS_LOST_MS);
 * - no worker is connected for `waitMs` (said every PROGRESS_EVERY_MS while none is).
 */
import { Job, Queue } from 'bullmq';
import pLimit from 'p-limit';
import { PROGRESS_EVERY_MS, type RenditionJob, type SharedRenditionStore } from '@pressroom-static/image-pipeline';
import { firstLine } from '../scripts/cli.ts';
import { createJobTracker } from './job-tracker.ts';
import { JOB_OPTIONS, QUEUE_NAME, REDIS_DEADLINE_MS, describeQueue, redisConnection, withDeadline } from './queue.ts';

/** Redis failing to answer for this long while the build waits fails the build. */
export const REDIS_LOST_MS = 15_000;
const ADD_BATCH = 500;
/** Priority changes in flight at once (one Redis call each). */
const RAISE_AT_ONCE = 16;
const PENDING_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

export class QueueError extends Error {
  override name = 'QueueError';
}

export interface DistributeOptions {
  queueUrl: string;
  store: SharedRenditionStore;
  jobs: ReadonlyMap<string, RenditionJob>;
  /** How long the build waits while no worker is connected. */
  waitMs: number;
  log: { info(line: string): void };
  pollMs?: number;
  progressEveryMs?: number;
  /** How long any one Redis call may take (default REDIS_DEADLINE_MS), and how long Redis may fail to answer while the build waits (default REDIS_LOST_MS). */
  deadlineMs?: number;
  lostAfterMs?: number;
  /** Called with the ids of this build's jobs that have left the queue since the last poll. */
  onDone?: (jobIds: string[]) => void;
  /** The queue the build opened (and added jobs to) while its data loaded; without it one is opened now. */
  opened?: Promise<OpenedQueue> | undefined;
  /** Each job's BullMQ priority (1 is taken first): the order the pages will ask for them. */
  priorities?: ReadonlyMap<string, number> | undefined;
}

export interface Distributed {
  /** Jobs handed to the queue. */
  enqueued: number;
  /** Seconds from the first job added to the last one finished. */
  seconds: number;
}

/** The build's jobs in the queue, and the wait for them, running in the background. */
export interface Distribution {
  /** Jobs handed to the queue. */
  enqueued: number;
  /** Resolves once every job of the original at `url` has left the queue (at once for a URL no job has); rejects with the wait's failure. */
  whenDone(url: string): Promise<void>;
  /** Resolves once every job has left the queue; rejects with the wait's failure (QueueError). */
  finished: Promise<Distributed>;
  /**
   * Stops waiting (jobs still queued stay there for the workers) and lets the queue go; resolves as
   * `finished` would have so far, and rejects if the wait had failed before.
   */
  stop(): Promise<Distributed>;
}

/** Adds every job and waits for them all. */
export async function distributeRenditionJobs(options: DistributeOptions): Promise<Distributed> {
  return (await startDistribution(options)).finished;
}

/** The queue, connected and checked, with the ids this build has added to it so far. */
export interface OpenedQueue {
  queue: Queue;
  where: string;
  /** `work`, or a one-line rejection once the Redis deadline has passed. */
  ask: <T>(work: () => Promise<T>, what: string) => Promise<T>;
  /** Adds the jobs this build has not added yet, each with its page-order priority; rejects with a QueueError. */
  add(jobs: ReadonlyMap<string, RenditionJob>, priorities?: ReadonlyMap<string, number>): Promise<void>;
  /** When the first job was added (performance.now()), if one was. */
  readonly firstAddedAt: number | undefined;
  /** Closes the connection (never throws, never hangs). */
  letGo(): Promise<void>;
}

export type OpenQueueOptions = Pick<DistributeOptions, 'queueUrl' | 'store' | 'deadlineMs'>;

/** Connects to the queue and checks the store, failing in one line (QueueError, or the store's error) when either cannot be reached. */
export async function openRenditionQueue(options: OpenQueueOptions): Promise<OpenedQueue> {
  const { store } = options;
  const where = describeQueue(options.queueUrl);
  const deadlineMs = options.deadlineMs ?? REDIS_DEADLINE_MS;
  const queue = new Queue(QUEUE_NAME, { connection: redisConnection(options.queueUrl, 'build') });
  // ioredis reports every failed reconnection as an error event; the deadlines say it once, in one line.
  queue.on('error', () => undefined);
  // A queue whose Redis went away may never close: it is let go after the deadline.
  const letGo = () => withDeadline(queue.close(), 2_000, 'close').catch(() => void queue.disconnect().catch(() => undefined));
  const ask = <T>(work: () => Promise<T>, what: string) =>
    withDeadline(work(), deadlineMs, `no answer from the queue at ${where} in ${deadlineMs / 1000} s (${what})`);
  try {
    try {
      await ask(() => queue.waitUntilReady(), 'connecting');
    } catch (error) {
      throw new QueueError(`images: ${firstLine(error)}: start Redis there or unset PRESSROOM_QUEUE_URL`);
    }
    await store.check();
  } catch (error) {
    await letGo();
    throw error;
  }
  // Each added job's priority (0: none), so a job a later collection ranks earlier is moved up.
  const added = new Map<string, number>();
  const raising = pLimit(RAISE_AT_ONCE);
  let firstAddedAt: number | undefined;
  return {
    queue,
    where,
    ask,
    letGo,
    get firstAddedAt() {
      return firstAddedAt;
    },
    async add(jobs, priorities) {
      const fresh = [...jobs].filter(([jobId]) => !added.has(jobId));
      const ranked = [...jobs].flatMap(([jobId, data]) => {
        const priority = priorities?.get(jobId) ?? 0;
        return priority > 0 && (added.get(jobId) ?? 0) > priority ? [{ jobId, data, priority }] : [];
      });
      await raise(ranked);
      firstAddedAt ??= fresh.length > 0 ? performance.now() : undefined;
      for (let i = 0; i < fresh.length; i += ADD_BATCH) {
        const batch = fresh.slice(i, i + ADD_BATCH).map(([jobId, data]) => {
          const priority = priorities?.get(jobId);
          return { name: 'renditions', data, opts: { ...JOB_OPTIONS, jobId, ...(priority ? { priority } : {}) } };
        });
        await ask(() => queue.addBulk(batch), 'adding jobs').catch((error: unknown) => {
          throw new QueueError(`images: ${firstLine(error)}`);
        });
        for (const job of batch) added.set(job.opts.jobId, job.opts.priority ?? 0);
      }
    },
  };

  /**
   * Moves already added jobs up to the earlier rank of a collection stored later (an original a
   * release shows that the library was first to name). Only the order is at stake: a job the
   * workers have already finished, or a call that fails, is left as it is.
   */
  async function raise(jobs: Array<{ jobId: string; data: RenditionJob; priority: number }>): Promise<void> {
    await Promise.all(
      jobs.map(({ jobId, data, priority }) =>
        raising(async () => {
          await ask(() => new Job(queue, 'renditions', data, {}, jobId).changePriority({ priority }), 'changing a priority').then(
            () => added.set(jobId, priority),
            () => undefined,
          );
        }),
      ),
    );
  }
}

/**
 * Adds every job not added yet (to `opened`, the queue the build opened while its data loaded, or to
 * one opened now; failing in one line when Redis or the store cannot be reached), then waits for them
 * in the background.
 */
export async function startDistribution(options: DistributeOptions): Promise<Distribution> {
  const { jobs, log, store } = options;
  const pollMs = options.pollMs ?? 1_000;
  const everyMs = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  const lostAfterMs = options.lostAfterMs ?? REDIS_LOST_MS;
  const opened = await (options.opened ?? openRenditionQueue(options));
  const { queue, ask, where, letGo } = opened;
  try {
    await opened.add(jobs, options.priorities);
  } catch (error) {
    await letGo();
    throw error;
  }
  const started = opened.firstAddedAt ?? performance.now();
  log.info(`images: ${jobs.size} originals queued for the workers at ${where} (renditions into ${store.where})`);
  const tracker = createJobTracker(jobs);
  const stopping = { now: false };
  const onDone = (ids: string[]) => {
    tracker.done(ids);
    options.onDone?.(ids);
  };
  const finished = waitForWorkers({
    queue,
    ask,
    where,
    ids: [...jobs.keys()],
    waitMs: options.waitMs,
    pollMs,
    everyMs,
    lostAfterMs,
    log,
    onDone,
    stopping,
  })
    .then(() => ({ enqueued: jobs.size, seconds: Math.round((performance.now() - started) / 100) / 10 }))
    .finally(letGo);
  finished.then(
    // Stopped before every job was done: whatever the store lacks then is made in-process, as ever.
    () => tracker.releaseAll(),
    (error: unknown) => tracker.fail(error),
  );
  return {
    enqueued: jobs.size,
    whenDone: (url) => tracker.whenDone(url),
    finished,
    stop() {
      stopping.now = true;
      return finished;
    },
  };
}

interface WaitContext {
  queue: Queue;
  ask: <T>(work: () => Promise<T>, what: string) => Promise<T>;
  where: string;
  ids: readonly string[];
  waitMs: number;
  pollMs: number;
  everyMs: number;
  lostAfterMs: number;
  log: { info(line: string): void };
  onDone: (jobIds: string[]) => void;
  /** Set when the build no longer needs the rest (every page rendered). */
  stopping: { now: boolean };
}

async function waitForWorkers(context: WaitContext): Promise<void> {
  const { queue, ask, where, ids, waitMs, pollMs, everyMs, lostAfterMs, log, onDone, stopping } = context;
  const total = ids.length;
  let left = ids;
  let lastLine = performance.now();
  let noWorkerSince: number | undefined;
  let failingSince: number | undefined;
  while (!stopping.now) {
    const now = performance.now();
    let workers: number;
    try {
      // One script in Redis: every pending job's id, read at one instant.
      const queued = new Set(await ask(() => queue.getRanges([...PENDING_STATES], 0, -1), 'listing pending jobs'));
      const done = left.filter((id) => !queued.has(id));
      if (done.length > 0) {
        left = left.filter((id) => queued.has(id));
        onDone(done);
      }
      workers = left.length > 0 ? await ask(() => queue.getWorkersCount(), 'counting workers') : 0;
      failingSince = undefined;
    } catch (error) {
      failingSince ??= now;
      if (now - failingSince >= lostAfterMs)
        throw new QueueError(`images: lost the queue at ${where} while waiting for the workers: ${firstLine(error)}`);
      await sleep(pollMs);
      continue;
    }
    const pending = left.length;
    if (pending === 0) return;
    noWorkerSince = workers > 0 ? undefined : (noWorkerSince ?? now);
    if (noWorkerSince !== undefined && now - noWorkerSince >= waitMs)
      throw new QueueError(
        `images: no worker took the ${pending} waiting jobs at ${where} in ${Math.round(waitMs / 1000)} s: start \`npm run worker\` with the same PRESSROOM_* variables, or unset PRESSROOM_QUEUE_URL`,
      );
    if (now - lastLine >= everyMs) {
      lastLine = now;
      log.info(
        workers > 0
          ? `images: workers have made ${total - pending} of ${total} originals' renditions, ${pending} jobs left in the queue (${workers} worker${workers === 1 ? '' : 's'})`
          : `images: no worker is connected to ${where}: ${pending} jobs waiting (start \`npm run worker\`; giving up in ${Math.max(0, Math.round((waitMs - (now - noWorkerSince!)) / 1000))} s)`,
      );
    }
    await sleep(pollMs);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
