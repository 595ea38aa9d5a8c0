/**
 * Scale-out benchmark (not a test): `node --conditions=source bench/workers.ts --scale demo|L|N --workers 1,2,4`.
 *
 * The same originals as bench/images.ts (every `sizes` object of the press room), each run with an
 * empty cache and an empty `file://` store:
 *   in-process  the image pipeline making every rendition in this process (images.ts's cold run)
 *   queue ×N    the same originals as rendition jobs through BullMQ on a local redis-server, made by
 *               N `npm run worker` processes (default concurrency): wall time from the first job
 *               added to the last one finished, CPU time of the workers (every thread, from /proc)
 *   warm        the jobs again with the store full (1 worker, its cache of originals kept), then a
 *               build's pipeline with an empty cache taking every rendition from the store
 * The emulator runs in its own process; every original is fetched once before any run, so it
 * renders none of them while a run is timed. Everything shares this machine's cores: the queue can
 * only cost time here, and the ratios of 2 and 4 workers to 1 say how far the work spreads, not
 * what separate machines would gain (docs/performance.md models that).
 * Goal: `workers-overhead`, the queue with 1 worker ÷ in-process (wall time, the same cores) ≤ 1.05.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { mediaOriginalUrls } from '@pressroom-static/content-loaders';
import { createFolderRenditionStore, renditionJobId, renditionJobOf, type MediaInput, type RenditionJob } from '../image-pipeline/index.ts';
import { distributeRenditionJobs } from '../scale-out/distribute.ts';
import { EXIT, parseCommandLine } from '../scripts/cli.ts';
import { spawnWorker, type RunningWorker } from '../test/helpers/worker-process.ts';
import { startRedisServer } from '../test/helpers/redis-server.ts';
import { benchPipeline } from './bench-pipeline.ts';
import { startEmulatorProcess } from './emulator-process.ts';
import { atMostGoal, goalLine } from './goals.ts';
import { pressRoomMedia } from './press-room-media.ts';
import { profileOrExit } from './profiles.ts';
import { writePart } from './results.ts';
import { DEFAULT_WORKER_COUNTS, parseWorkerCounts } from './worker-counts.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/workers.ts',
  summary: [
    'Image renditions in-process against the same originals through the BullMQ queue, made by 1, 2, 4… `npm run worker`',
    'processes on this machine (local redis-server, file:// store): queue overhead, throughput per worker count, worker',
    'CPU per original, and a warm round with the store full.',
  ].join('\n'),
  flags: {
    scale: { type: 'string', value: 'demo|L|N', help: 'size of the emulated press room (default demo)' },
    workers: {
      type: 'string',
      value: 'LIST',
      help: `comma-separated worker process counts, each a queue run of its own (default ${DEFAULT_WORKER_COUNTS.join(',')}; 1 is always run)`,
    },
  },
  variables: {},
  notes: ['Needs /usr/bin/redis-server and /proc (Linux). No PRESSROOM_* variable is read; the workers get their own.'],
});
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);
const workerCounts = parseWorkerCounts(parsed.values.workers);
if (!workerCounts) {
  console.error(`bench: --workers must be whole numbers from 1 to 16 separated by commas, got '${String(parsed.values.workers)}'`);
  process.exit(EXIT.usage);
}
const TARGET = 1.05;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User + system CPU of a process, every thread, in ms (from /proc: it may be another process). */
async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** A process's peak resident set (VmHWM), MiB. */
async function peakMiBOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

interface QueueRun {
  workers: number;
  ms: number;
  /** The workers' CPU while the jobs ran (their start-up left out). */
  workerCpuMs: number;
  /** This process's CPU meanwhile: adding the jobs and polling the counts, as a build does. */
  buildCpuMs: number;
  redisCpuMs: number;
  filesEncoded: number;
  refused: number;
  largestWorkerPeakRssMiB: number;
}

const emulator = await startEmulatorProcess(profile);
const redis = await startRedisServer();
const scratch = await mkdtemp(path.join(tmpdir(), 'pressroom-workers-bench-'));
const started: RunningWorker[] = [];
const dir = async (name: string) => {
  const made = path.join(scratch, name);
  await mkdir(made, { recursive: true });
  return made;
};
const workerEnv = (storeDir: string, cacheDir: string): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PRESSROOM_'))),
  PRESSROOM_QUEUE_URL: redis.url,
  PRESSROOM_STORE_URL: `file://${storeDir}`,
  PRESSROOM_API_URL: emulator.url,
  PRESSROOM_CACHE_DIR: cacheDir,
});

/** `npm run worker` with its default concurrency, resolved once it takes jobs. */
async function startWorker(storeDir: string, cacheDir: string): Promise<RunningWorker> {
  const worker = spawnWorker([], workerEnv(storeDir, cacheDir));
  const { lines } = worker;
  started.push(worker);
  const deadline = Date.now() + 60_000;
  while (!lines.some((l) => l.includes('taking rendition jobs'))) {
    if (worker.child.exitCode !== null || Date.now() > deadline) throw new Error(`bench: a worker did not start: ${lines.join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return worker;
}

/** Every job through the queue, made by `cacheDirs.length` workers into the store at `storeDir`. */
async function queueRun(label: string, jobs: ReadonlyMap<string, RenditionJob>, storeDir: string, cacheDirs: string[]): Promise<QueueRun> {
  const workers = await Promise.all(cacheDirs.map((cacheDir) => startWorker(storeDir, cacheDir)));
  const pids = workers.map((w) => w.child.pid!);
  const cpuAtStart = await Promise.all(pids.map(cpuMsOf));
  const redisAtStart = await cpuMsOf(redis.pid);
  const buildAtStart = process.cpuUsage();
  const t = performance.now();
  await distributeRenditionJobs({
    queueUrl: redis.url,
    store: createFolderRenditionStore(storeDir),
    jobs,
    waitMs: 60_000,
    pollMs: 100,
    log: { info: (line) => console.log(`  ${line}`) },
  });
  const ms = performance.now() - t;
  const buildUsed = process.cpuUsage(buildAtStart);
  const cpuAtEnd = await Promise.all(pids.map(cpuMsOf));
  const redisCpuMs = (await cpuMsOf(redis.pid)) - redisAtStart;
  const peaks = await Promise.all(pids.map(peakMiBOf));
  for (const w of workers) w.child.kill('SIGTERM');
  const codes = await Promise.all(workers.map((w) => w.exited));
  if (codes.some((code) => code !== 0))
    throw new Error(`bench: a worker exited ${codes.join(', ')}: ${workers.flatMap((w) => w.lines).join(' | ')}`);
  let filesEncoded = 0;
  let refused = 0;
  for (const w of workers) {
    const last = w.lines.map((l) => /stopped after \d+ jobs \((\d+) files encoded, (\d+) originals refused\)/.exec(l)).find(Boolean);
    filesEncoded += Number(last?.[1] ?? 0);
    refused += Number(last?.[2] ?? 0);
  }
  const run: QueueRun = {
    workers: workers.length,
    ms,
    workerCpuMs: cpuAtEnd.reduce((sum, cpu, i) => sum + cpu - cpuAtStart[i]!, 0),
    buildCpuMs: (buildUsed.user + buildUsed.system) / 1000,
    redisCpuMs,
    filesEncoded,
    refused,
    largestWorkerPeakRssMiB: Math.max(...peaks),
  };
  console.log(
    `${label.padEnd(11)} ${Math.round(ms)} ms (workers' CPU ${Math.round(run.workerCpuMs)} ms, build side ${Math.round(run.buildCpuMs)} ms, ` +
      `Redis ${Math.round(redisCpuMs)} ms): ${filesEncoded} files encoded, ${refused} originals refused, largest worker ${run.largestWorkerPeakRssMiB} MiB`,
  );
  return run;
}

/** Every picture made by the pipeline in this process, as a build makes them; with `storeDir`, taken from that store. */
async function inProcessRun(label: string, media: MediaInput[], cacheDir: string, storeDir?: string) {
  const pipeline = benchPipeline(emulator.url, cacheDir, storeDir ? { sharedStore: createFolderRenditionStore(storeDir) } : {});
  const t = performance.now();
  const cpuAtStart = process.cpuUsage();
  await Promise.all(media.map((m) => pipeline.picture(m)));
  const used = process.cpuUsage(cpuAtStart);
  const ms = performance.now() - t;
  const cpuMs = (used.user + used.system) / 1000;
  const s = pipeline.stats();
  console.log(
    `${label.padEnd(11)} ${Math.round(ms)} ms (CPU ${Math.round(cpuMs)} ms): ${s.originals} originals, ${s.downloads} downloaded, ` +
      `${s.encoded} files encoded, ${s.fromStore} from the store, ${s.refused} refused`,
  );
  return { ms, cpuMs, originals: s.originals, filesEncoded: s.encoded, fromStore: s.fromStore, refused: s.refused };
}

try {
  const media = await pressRoomMedia(emulator);
  const jobs = new Map<string, RenditionJob>();
  for (const m of media) {
    const job = renditionJobOf(m.sizes, false);
    if (job) jobs.set(renditionJobId(job), job);
  }
  // Each original once, so that the emulator renders none of them while a run is timed.
  const fetchOnce = pLimit(8);
  const urls = [...new Set(media.flatMap((m) => [...mediaOriginalUrls(m.sizes)]))];
  const sizes = await Promise.all(urls.map((url) => fetchOnce(async () => (await (await fetch(url)).arrayBuffer()).byteLength)));
  const originalBytes = sizes.reduce((a, b) => a + b, 0);
  console.log(
    `${media.length} sizes objects, ${jobs.size} jobs, ${urls.length} originals (${(originalBytes / 1024 / 1024).toFixed(1)} MiB), ` +
      `${availableParallelism()} cores; worker counts ${workerCounts.join(', ')}`,
  );

  const inProcess = await inProcessRun('in-process', media, await dir('in-process'));
  const queue: QueueRun[] = [];
  let lastStore = '';
  for (const count of workerCounts) {
    lastStore = await dir(`store-${count}`);
    const caches = await Promise.all(Array.from({ length: count }, (_, i) => dir(`worker-${count}-${i}`)));
    queue.push(await queueRun(`queue ×${count}`, jobs, lastStore, caches));
  }
  // Warm: the same jobs with the store full (a worker that keeps its originals answers with a
  // conditional request each), then a build on a fresh runner taking every rendition from the store.
  const warmQueue = await queueRun('warm queue', jobs, lastStore, [path.join(scratch, 'worker-1-0')]);
  const warmBuild = await inProcessRun('warm build', media, await dir('warm-build'), lastStore);

  const one = queue[0]!;
  const goal = atMostGoal({
    name: 'workers-overhead',
    what: 'every rendition through the queue with 1 worker process (wall time from the first job added to the last finished) against the pipeline in-process, the same cores',
    measured: one.ms,
    reference: inProcess.ms,
    against: 'in-process',
    target: TARGET,
    peakRssMiB: one.largestWorkerPeakRssMiB,
  });
  const round = (n: number) => Math.round(n);
  await writePart(profile.name, {
    bench: 'workers',
    goals: [goal],
    details: {
      sizesObjects: media.length,
      jobs: jobs.size,
      originals: inProcess.originals,
      originalMiB: Math.round((originalBytes / 1024 / 1024) * 10) / 10,
      inProcess: { ms: round(inProcess.ms), cpuMs: round(inProcess.cpuMs), filesEncoded: inProcess.filesEncoded },
      queue: queue.map((q) => ({
        workers: q.workers,
        ms: round(q.ms),
        workerCpuMs: round(q.workerCpuMs),
        buildCpuMs: round(q.buildCpuMs),
        redisCpuMs: round(q.redisCpuMs),
        filesEncoded: q.filesEncoded,
        refused: q.refused,
        largestWorkerPeakRssMiB: q.largestWorkerPeakRssMiB,
        throughputAgainstOneWorker: Math.round((one.ms / q.ms) * 100) / 100,
      })),
      workerCpuAgainstInProcess: Math.round((one.workerCpuMs / inProcess.cpuMs) * 100) / 100,
      workerCpuMsPerJob: Math.round(one.workerCpuMs / jobs.size),
      warm: {
        queueMs: round(warmQueue.ms),
        queueWorkerCpuMs: round(warmQueue.workerCpuMs),
        queueFilesEncoded: warmQueue.filesEncoded,
        buildMs: round(warmBuild.ms),
        buildCpuMs: round(warmBuild.cpuMs),
        buildFromStore: warmBuild.fromStore,
        buildFilesEncoded: warmBuild.filesEncoded,
      },
    },
  });
  const ratios = queue
    .slice(1)
    .map((q) => `${q.workers} workers ${(one.ms / q.ms).toFixed(2)}×`)
    .join(', ');
  console.log(`  ${goalLine(goal)}`);
  if (ratios) console.log(`  throughput against 1 worker on these ${availableParallelism()} cores: ${ratios}`);
} finally {
  for (const w of started) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await Promise.all(started.map((w) => w.exited));
  await Promise.all([emulator.stop(), redis.stop()]);
  await rm(scratch, { recursive: true, force: true });
}
