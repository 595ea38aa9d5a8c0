/**
 * A BullMQ worker of rendition jobs: each job runs through the image
 * pipeline's rendition worker (one original, every rendition, the shared
 * store checked first). A refused original completes its job (the build
 * refuses it in the same words when it renders); a failure another attempt
 * may cure throws, and BullMQ tries the job again later with backoff. A job
 * from a build of another version is failed at once (UnrecoverableError): its
 * output names would not be the build's.
 */
import { UnrecoverableError, Worker } from 'bullmq';
import {
  RENDITION_JOB_ENCODER,
  createRenditionWorker,
  isRenditionJob,
  type JobOutcome,
  type RenditionWorkerOptions,
} from '@pressroom-static/image-pipeline';
import { LOCK_MS, QUEUE_NAME, STALLED_CHECK_MS, redisConnection } from './queue.ts';

export interface QueueWorkerOptions {
  queueUrl: string;
  concurrency: number;
  pipeline: RenditionWorkerOptions;
  log: { info(line: string): void; warn(line: string): void };
}

export function startQueueWorker({ queueUrl, concurrency, pipeline, log }: QueueWorkerOptions): Worker {
  const renditions = createRenditionWorker(pipeline);
  const worker = new Worker<unknown, JobOutcome>(
    QUEUE_NAME,
    async (job) => {
      if (!isRenditionJob(job.data)) throw new UnrecoverableError('not a rendition job');
      if (job.data.encoder !== RENDITION_JOB_ENCODER)
        throw new UnrecoverableError(`the job was planned with encoder ${job.data.encoder}; this worker runs ${RENDITION_JOB_ENCODER}`);
      const outcome = await renditions.run(job.data);
      if (outcome.status === 'refused') log.warn(`worker: refused (${outcome.kind}): ${job.data.url}: ${outcome.reason}`);
      return outcome;
    },
    {
      connection: redisConnection(queueUrl, 'worker'),
      concurrency,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: 2,
      autorun: true,
    },
  );
  return worker;
}
