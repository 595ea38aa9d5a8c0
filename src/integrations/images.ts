/**
 * Astro integration of the image pipeline (@pressroom-static/image-pipeline; the pages' API is
 * src/lib/image-pipeline.ts):
 *
 * - `astro:config:done`: reads the real outDir, root and base from Astro's config (the build script
 *   builds into a staging folder), and points the pipeline at `<PRESSROOM_CACHE_DIR or <root>/.cache>/images`,
 *   `<base>_media/` and the build configuration's PRESSROOM_IMAGE_HOSTS.
 * - `astro:build:start`: a fresh pipeline (fresh counters) for this build, and a progress line every
 *   5 s while image work is pending (progress.ts).
 * - `astro:build:generated`: copies every output the pages asked for into `<outDir>/_media/`.
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
} from '@pressroom-static/image-pipeline';
import { cacheFolder } from '../config/cache-folders.ts';
import type { PressroomConfig } from '../config/environment.ts';
import { configureImagePipeline, currentImagePipeline, resetImagePipeline } from '../lib/image-pipeline.ts';

export interface ImagePipelineIntegrationOptions {
  /** The build's configuration, parsed once (astro.config.mjs). */
  config: PressroomConfig;
  avif?: boolean;
  /** Cache files (originals, records, renditions, zips) no build has used for this many days are removed once a build has rendered every page. Default 30; 0 keeps everything. */
  pruneAfterDays?: number;
}

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
  let started = 0;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let logger: AstroIntegrationLogger | undefined;
  const log = {
    warn: (line: string) => (logger ? logger.warn(line) : console.warn(line)),
    info: (line: string) => (logger ? logger.info(line) : console.log(line)),
  };

  return {
    name: 'pressroom-static:images',
    hooks: {
      'astro:config:setup': ({ logger: l }) => {
        logger = l;
      },
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
        cacheDir = cacheFolder(fileURLToPath(config.root), options.config, 'images');
        const base = config.base.endsWith('/') ? config.base : `${config.base}/`;
        configureImagePipeline({
          cacheDir,
          publicPath: `${base}${MEDIA_DIR}/`,
          avif: options.avif ?? false,
          imageHosts: options.config.imageHosts,
          log,
        });
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use(serveMediaFromCache(MEDIA_DIR, currentImagePipeline));
      },
      'astro:build:start': () => {
        resetImagePipeline();
        started = performance.now();
        ticker = startProgressTicker(log, started);
      },
      'astro:build:generated': async () => {
        clearInterval(ticker);
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
