/**
 * Astro integration of the image pipeline (@pressroom-static/image-pipeline; the pages' API is
 * src/lib/image-pipeline.ts):
 *
 * - `astro:config:done`: reads the real outDir, root and base from Astro's config (the build script
 *   builds into a staging folder), and points the pipeline at `<PRESSROOM_CACHE_DIR or <root>/.cache>/images`,
 *   `<base>_media/` and the build configuration's PRESSROOM_IMAGE_HOSTS.
 * - `astro:config:setup`: with PRESSROOM_QUEUE_URL (a live build), each collection's jobs go to the
 *   workers as the content layer stores it (scale-out/early-enqueue.ts), in page order (page-order.ts).
 * - `astro:build:start`: a fresh pipeline (fresh counters) for this build, and a progress line every
 *   5 s while image work is pending (progress.ts). With PRESSROOM_QUEUE_URL (a live build), first every
 *   original's job not added yet goes to the workers (scale-out/distribute.ts), failing there in one line
 *   if the queue could not be reached while the data loaded; then the pages render while they encode:
 *   a page that needs an original waits for that original's jobs only, and each finished job's renditions
 *   are taken into the local cache in the background (scale-out/early-takes.ts); with PRESSROOM_STORE_URL
 *   the pipeline takes every rendition the shared store holds instead of encoding it.
 * - `astro:build:generated`: stops waiting for the workers (the build fails if the wait did), then copies
 *   every output the pages asked for into `<outDir>/_media/`.
 * - `astro:build:done`: one summary line, always ending with the count of refused images, then one
 *   line per refused URL naming the pages that wanted it.
 * - `astro:server:setup` (dev): serves `/_media/<name>` from the cache.
 *
 * Options: `config`, the build's parsed configuration (astro.config.mjs); `{ avif: true }` adds AVIF
 * (about 14x the WebP encode cost; see docs/images.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import {
  PROGRESS_EVERY_MS,
  createStats,
  progressLine,
  pruneCache,
  reportImageWork,
  serveMediaFromCache,
  type ProgressSample,
  type SharedRenditionStore,
} from '@pressroom-static/image-pipeline';
import { openSharedStore } from '../../scale-out/store.ts';
import { holdWorkersWait, stopWorkersWait } from '../../scale-out/build-wait.ts';
import { startDistribution, type Distribution } from '../../scale-out/distribute.ts';
import { createEarlyTakes, type EarlyTakes } from '../../scale-out/early-takes.ts';
import { createEarlyEnqueue, type EarlyEnqueue } from '../../scale-out/early-enqueue.ts';
import { jobsInPageOrder } from '../../scale-out/page-order.ts';
import { onCollectionStored } from '../config/stored-collections.ts';
import { cacheFolder } from '../config/cache-folders.ts';
import { buildSession } from '../config/session.ts';
import { readDataStore } from '../lib/data-store-file.ts';
import type { PressroomConfig } from '../config/environment.ts';
import { configureImagePipeline, currentImagePipeline, getImagePipeline, resetImagePipeline } from '../lib/image-pipeline.ts';

export interface ImagePipelineIntegrationOptions {
  /** The build's configuration, parsed once (astro.config.mjs). */
  config: PressroomConfig;
  avif?: boolean;
  /** Cache files (originals, records, renditions, zips) no build has used for this many days are removed once a build has rendered every page. Default 30; 0 keeps everything. */
  pruneAfterDays?: number;
  /** With PRESSROOM_QUEUE_URL: how long the build waits while no worker is connected. Default the build command's `--wait`, else 600 s. */
  queueWaitMs?: number;
}

const DEFAULT_QUEUE_WAIT_MS = 600_000;

const MEDIA_DIR = '_media';

/** A progress line every PROGRESS_EVERY_MS while image work is pending. */
function startProgressTicker(log: { info: (line: string) => void }, started: number): ReturnType<typeof setInterval> {
  let previous: ProgressSample = { at: started, stats: createStats() };
  const ticker = setInterval(() => {
    void currentImagePipeline()
      ?.then((pipeline) => {
        const now = { at: performance.now(), stats: pipeline.stats() };
        const line = progressLine(previous, now);
        previous = now;
        if (line && now.stats.encoded + now.stats.downloads + now.stats.notModified < now.stats.toEncode + now.stats.originals)
          log.info(line);
      })
      .catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  ticker.unref();
  return ticker;
}

export default function imagePipeline(options: ImagePipelineIntegrationOptions): AstroIntegration {
  let outDir = '';
  let cacheDir = '';
  let dataStoreFile = '';
  const { store: storeLocation, queueUrl } = options.config;
  const sharedStore = storeLocation ? openSharedStore(storeLocation, process.env) : undefined;
  let started = 0;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let logger: AstroIntegrationLogger | undefined;
  const log = {
    warn: (line: string) => (logger ? logger.warn(line) : console.warn(line)),
    info: (line: string) => (logger ? logger.info(line) : console.log(line)),
  };

  // The workers' jobs and the background taking of their renditions, from build start until every page has rendered.
  let workers: { distribution: Distribution; early: EarlyTakes; store: SharedRenditionStore } | undefined;
  // Each collection's jobs, added as the content layer stores it (a build with the queue only).
  let enqueuing: { early: EarlyEnqueue; stopListening: () => void } | undefined;
  // Workers download from the API's hosts themselves: a snapshot or demo build has none to offer them.
  const liveApi = Boolean(options.config.apiUrl && !options.config.snapshotDir);

  /** A build with the queue: each collection's jobs go to the workers as soon as it is stored. */
  function enqueueWhileLoading(url: string, store: SharedRenditionStore): void {
    const early = createEarlyEnqueue({ queueUrl: url, store, avif: options.avif ?? false });
    const stopListening = onCollectionStored((collection, entries) => early.collectionStored(collection, entries));
    enqueuing = { early, stopListening };
    // A build that fails before its pages render lets the queue go (the build command stops this wait).
    holdWorkersWait(async () => {
      stopListening();
      await early.close();
    });
  }

  /**
   * Hands every original to the workers (fails in one line when Redis or the store cannot be reached),
   * then lets the pages render while they encode: a page that needs an original waits for its jobs
   * only (`awaitShared`), and each finished job's renditions are taken into the local cache meanwhile.
   */
  async function startWorkers(url: string, store: SharedRenditionStore): Promise<void> {
    if (!liveApi) {
      log.info('images: PRESSROOM_QUEUE_URL is for builds from a live API; this build makes its renditions itself');
      return;
    }
    // What the loaders added already is not added again; a `sizes` they did not hand over is added now.
    const { jobs, priorities } = jobsInPageOrder(
      readDataStore(dataStoreFile, () => undefined),
      options.avif ?? false,
    );
    const loading = enqueuing;
    enqueuing = undefined;
    loading?.stopListening();
    const opened = loading?.early.handOver()?.catch(async (error: unknown) => {
      await loading.early.close();
      throw error;
    });
    const early = createEarlyTakes(async (job) => (await getImagePipeline()).takeFromStore(job));
    const distribution = await startDistribution({
      queueUrl: url,
      store,
      jobs,
      priorities,
      opened,
      waitMs: options.queueWaitMs ?? buildSession().waitMs ?? DEFAULT_QUEUE_WAIT_MS,
      log,
      onDone: (ids) => early.add(ids.map((id) => jobs.get(id)!)),
    });
    workers = { distribution, early, store };
    holdWorkersWait(() => distribution.stop());
    log.info(`images: rendering while the workers make renditions; a page waits only for its own originals' jobs`);
  }

  /** Every page has rendered: stops waiting for jobs no page needed; fails the build if the wait failed meanwhile. */
  async function finishWorkers(): Promise<void> {
    if (!workers) return;
    const { distribution, early, store } = workers;
    workers = undefined;
    try {
      const { enqueued, seconds } = await distribution.stop();
      log.info(
        `images: ${enqueued} originals' jobs for the workers, ${early.done} taken from ${store.where} as they finished, over ${seconds} s`,
      );
    } finally {
      await stopWorkersWait();
      await early.settled();
    }
  }

  return {
    name: 'pressroom-static:images',
    hooks: {
      'astro:config:setup': ({ logger: l, command }) => {
        logger = l;
        enqueuing = undefined;
        if (command === 'build' && queueUrl && sharedStore && liveApi) enqueueWhileLoading(queueUrl, sharedStore);
      },
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
        cacheDir = cacheFolder(fileURLToPath(config.root), options.config, 'images');
        dataStoreFile = fileURLToPath(new URL('data-store.json', config.cacheDir));
        const base = config.base.endsWith('/') ? config.base : `${config.base}/`;
        configureImagePipeline({
          cacheDir,
          publicPath: `${base}${MEDIA_DIR}/`,
          avif: options.avif ?? false,
          imageHosts: options.config.imageHosts,
          log,
          sharedStore,
          // While the workers encode, a page needing an original waits for that original's jobs only.
          awaitShared: (url) => workers?.distribution.whenDone(url) ?? Promise.resolve(),
        });
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use(serveMediaFromCache(MEDIA_DIR, currentImagePipeline));
      },
      'astro:build:start': async () => {
        resetImagePipeline();
        started = performance.now();
        workers = undefined;
        if (queueUrl && sharedStore) await startWorkers(queueUrl, sharedStore);
        ticker = startProgressTicker(log, started);
      },
      'astro:build:generated': async () => {
        clearInterval(ticker);
        await finishWorkers();
        const pipeline = await currentImagePipeline()?.catch(() => undefined);
        if (!pipeline) return;
        await pipeline.emit(path.join(outDir, MEDIA_DIR));
      },
      'astro:build:done': async ({ logger: l }) => {
        clearInterval(ticker);
        const pipeline = await currentImagePipeline()?.catch(() => undefined);
        if (!pipeline) {
          l.info('images: no page asked for an image; 0 refused images');
          return;
        }
        reportImageWork(l, pipeline, MEDIA_DIR, started);
        const days = options.pruneAfterDays ?? 30;
        if (days > 0) await pruneCache(l, pipeline, days);
        resetImagePipeline();
      },
    },
  };
}
