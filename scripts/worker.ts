/**
 * `npm run worker [-- --concurrency N]`: makes image renditions for builds on
 * any machine (scale-out/, docs/scale-out.md). Takes rendition jobs from the
 * queue at PRESSROOM_QUEUE_URL, one original with all of its renditions per
 * job, fetches the original under the build's host policy and caps
 * (PRESSROOM_API_URL, PRESSROOM_IMAGE_HOSTS), makes what the shared store at
 * PRESSROOM_STORE_URL lacks and puts it there. SIGTERM or SIGINT: the jobs
 * under way are finished, no new one is taken, then exit 0 (a second signal
 * stops at once, exit 1; the queue gives those jobs to another worker).
 */
import path from 'node:path';
import type { Worker } from 'bullmq';
import { PROGRESS_EVERY_MS } from '@pressroom-static/image-pipeline';
import { loadDotEnv } from '../src/config/dot-env.ts';
import { ConfigError, loadConfig } from '../src/config/environment.ts';
import { cacheFolder } from '../src/config/cache-folders.ts';
import { REDIS_DEADLINE_MS, describeQueue, withDeadline } from '../scale-out/queue.ts';
import { openSharedStore } from '../scale-out/store.ts';
import { startQueueWorker } from '../scale-out/worker.ts';
import { EXIT, UsageError, firstLine, integerFlag, parseCommandLine, type CommandSpec } from './cli.ts';

/**
 * Jobs at once. Measured on the demo press room (121 originals, 2 cores, emulator and file:// store on the
 * same machine): 2 jobs at once took 75 s, 6 took 58 s, as long as the in-process pipeline.
 */
const DEFAULT_CONCURRENCY = 6;

const WORKER_COMMAND: CommandSpec = {
  name: 'worker',
  summary: [
    'Makes image renditions for builds, on this machine: takes jobs (one original, all of its renditions) from the',
    "queue, fetches each original under the build's host policy and caps, makes what the shared store lacks and",
    'puts it there. Run any number, on any machine with the project installed and the same variables.',
    'SIGTERM/SIGINT: finishes the jobs under way, takes no new one, exits 0.',
  ].join('\n'),
  flags: {
    concurrency: {
      type: 'string',
      value: 'N',
      help: `jobs at once (default ${DEFAULT_CONCURRENCY}: downloads and store transfers overlap the encodes; the raw pixels in flight stay bounded)`,
    },
  },
  variables: {
    PRESSROOM_QUEUE_URL: 'redis://… of the queue the builds use (required)',
    PRESSROOM_STORE_URL: 'the shared store: file:///shared/folder or s3://bucket/prefix (required)',
    PRESSROOM_API_URL: 'the API base: originals are fetched from its host and PRESSROOM_IMAGE_HOSTS only (required)',
    PRESSROOM_IMAGE_HOSTS: 'further hosts originals may come from, as for the build',
    PRESSROOM_CACHE_DIR: 'where originals are kept between jobs (default .cache/ in the project)',
    AWS_ENDPOINT_URL_S3: 's3:// store: the S3-compatible endpoint; AWS_REGION, AWS_ACCESS_KEY_ID and the rest as for deploy',
  },
  notes: [
    'example:',
    '  PRESSROOM_QUEUE_URL=redis://queue:6379 PRESSROOM_STORE_URL=s3://renditions npm run worker',
    'See docs/scale-out.md.',
  ],
};

const root = path.resolve(import.meta.dirname, '..');

interface WorkerPlan {
  queueUrl: string;
  concurrency: number;
  config: ReturnType<typeof loadConfig>;
}

function planWorker(): WorkerPlan | number {
  const parsed = parseCommandLine(WORKER_COMMAND);
  if ('exit' in parsed) return parsed.exit;
  try {
    const concurrency = integerFlag('concurrency', parsed.values.concurrency, DEFAULT_CONCURRENCY, 1, 64);
    const config = loadConfig(process.env);
    if (!config.queueUrl) throw new UsageError('PRESSROOM_QUEUE_URL is not set: give the redis:// URL of the queue the builds use');
    if (!config.apiUrl)
      throw new UsageError('PRESSROOM_API_URL is not set: workers fetch originals only from the API host and PRESSROOM_IMAGE_HOSTS');
    return { queueUrl: config.queueUrl, concurrency, config };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
    console.error(`worker: ${firstLine(error)}`);
    console.error('(npm run worker -- --help for details)');
    return EXIT.usage;
  }
}

/** Resolves with the exit code once a signal asked the worker to stop and it has. */
function stopOnSignal(worker: Worker): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(`worker: ${signal} again: stopping now; the queue gives the unfinished jobs to another worker`);
        resolve(EXIT.failed);
        return;
      }
      stopping = true;
      console.log(`worker: ${signal}: finishing the jobs under way, taking no new one`);
      worker.close().then(
        () => resolve(EXIT.ok),
        (error: unknown) => {
          console.error(`worker: stopping failed: ${firstLine(error)}`);
          resolve(EXIT.failed);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

async function main(): Promise<number> {
  loadDotEnv(root);
  const plan = planWorker();
  if (typeof plan === 'number') return plan;
  const { queueUrl, concurrency, config } = plan;
  const where = describeQueue(queueUrl);
  const sharedStore = openSharedStore(config.store!, process.env);
  try {
    await sharedStore.check();
  } catch (error) {
    console.error(`worker: ${firstLine(error)}`);
    return EXIT.failed;
  }
  const log = { info: (line: string) => console.log(line), warn: (line: string) => console.warn(line) };
  const worker = startQueueWorker({
    queueUrl,
    concurrency,
    log,
    pipeline: {
      // Unused: a worker always downloads through the pinned fetch (checkAddresses).
      fetch: globalThis.fetch,
      apiUrl: config.apiUrl!,
      imageHosts: config.imageHosts,
      checkAddresses: true,
      cacheDir: cacheFolder(root, config, 'images'),
      sharedStore,
      log,
    },
  });
  let lastConnectionError = 0;
  worker.on('error', (error) => {
    // ioredis reports every failed reconnection: one line every half minute says it.
    if (performance.now() - lastConnectionError < 30_000) return;
    lastConnectionError = performance.now();
    console.error(`worker: the queue at ${where}: ${firstLine(error)} (retrying)`);
  });
  worker.on('failed', (job, error) => {
    if (job)
      console.warn(
        `worker: job ${job.id} (${String((job.data as { url?: unknown }).url)}) failed, attempt ${job.attemptsMade}: ${firstLine(error)}`,
      );
  });
  try {
    await withDeadline(worker.waitUntilReady(), REDIS_DEADLINE_MS, `no answer from the queue at ${where} in ${REDIS_DEADLINE_MS / 1000} s`);
  } catch (error) {
    console.error(`worker: ${firstLine(error)}: start Redis there or check PRESSROOM_QUEUE_URL`);
    await withDeadline(worker.close(true), 2_000, 'close').catch(() => undefined);
    return EXIT.failed;
  }
  console.log(`worker: taking rendition jobs from ${where} (${concurrency} at once), renditions into ${sharedStore.where}`);
  const done = { jobs: 0, encoded: 0, stored: 0, refused: 0 };
  let reported = 0;
  worker.on('completed', (_job, outcome) => {
    done.jobs++;
    if (outcome.status === 'refused') done.refused++;
    else {
      done.encoded += outcome.encoded;
      done.stored += outcome.stored;
    }
  });
  const ticker = setInterval(() => {
    if (done.jobs === reported) return;
    reported = done.jobs;
    console.log(
      `worker: ${done.jobs} jobs done: ${done.encoded} files encoded, ${done.stored} put in the store, ${done.refused} originals refused`,
    );
  }, PROGRESS_EVERY_MS);
  ticker.unref();
  const code = await stopOnSignal(worker);
  clearInterval(ticker);
  sharedStore.close?.();
  console.log(`worker: stopped after ${done.jobs} jobs (${done.encoded} files encoded, ${done.refused} originals refused)`);
  return code;
}

// Exits at once: a Redis connection left reconnecting must not keep a stopped worker alive.
process.exit(await main());
