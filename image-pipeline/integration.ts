/**
 * Astro integration of the image pipeline:
 *
 * - `astro:config:done`: reads the real outDir, root and base from Astro's config (the build script
 *   builds into a staging folder), and points the pipeline at `<PRESSROOM_CACHE_DIR or <root>/.cache>/images`
 *   and `<base>_media/`.
 * - `astro:build:start`: a fresh pipeline (fresh counters) for this build, and a progress line every
 *   5 s while image work is pending (progress.ts).
 * - `astro:build:generated`: copies every output the pages asked for into `<outDir>/_media/`.
 * - `astro:build:done`: one summary line, always ending with the count of refused images, then one
 *   line per refused URL naming the pages that wanted it.
 * - `astro:server:setup` (dev): serves `/_media/<name>` from the cache.
 *
 * Options: `{ avif: true }` adds AVIF (about 14x the WebP encode cost; see README "Images").
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { loadConfig } from '../src/config/environment.ts';
import { formatBytes } from '@pressroom-static/content-loaders';
import { configureImagePipeline, currentImagePipeline, resetImagePipeline } from './index.ts';
import { FORMAT_INFO } from './sniff.ts';
import { createStats } from './stats.ts';
import { PROGRESS_EVERY_MS, progressLine, type ProgressSample } from './progress.ts';

export interface ImagePipelineIntegrationOptions {
  avif?: boolean;
  /** Cache files (originals, records, renditions, zips) no build has used for this many days are removed once a build has rendered every page. Default 30; 0 keeps everything. */
  pruneAfterDays?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const MEDIA_DIR = '_media';
const NAME = /^[0-9a-f]{16}(-\d+x\d+)?\.[a-z0-9]{2,5}$/;

/** Content type of an output name (dev server only): FORMAT_INFO covers the rendition formats too. */
function mimeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  for (const info of Object.values(FORMAT_INFO)) if (info.ext === ext) return info.mime;
  return 'application/octet-stream';
}

export default function imagePipeline(options: ImagePipelineIntegrationOptions = {}): AstroIntegration {
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
        cacheDir = path.resolve(fileURLToPath(config.root), loadConfig(process.env).cacheDir ?? '.cache', 'images');
        const base = config.base.endsWith('/') ? config.base : `${config.base}/`;
        configureImagePipeline({ cacheDir, publicPath: `${base}${MEDIA_DIR}/`, avif: options.avif ?? false, log });
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, res, next) => {
          const url = req.url ?? '';
          const at = url.indexOf(`/${MEDIA_DIR}/`);
          if (at < 0) return next();
          const name = decodeURIComponent(url.slice(at + MEDIA_DIR.length + 2).split('?')[0] ?? '');
          if (!NAME.test(name)) return next();
          void (async () => {
            const pipeline = await currentImagePipeline()?.catch(() => undefined);
            const file = pipeline?.published().get(name);
            if (!file || !(await stat(file).catch(() => undefined))) return next();
            res.setHeader('content-type', mimeOf(name));
            res.setHeader('cache-control', 'no-cache');
            createReadStream(file).pipe(res);
          })();
        });
      },
      'astro:build:start': () => {
        resetImagePipeline();
        started = performance.now();
        let previous: ProgressSample = { at: started, stats: createStats() };
        ticker = setInterval(() => {
          void currentImagePipeline()
            ?.then((pipeline) => {
              const now = { at: performance.now(), stats: pipeline.stats() };
              const line = progressLine(previous, now);
              previous = now;
              if (line && now.stats.encoded + now.stats.downloads + now.stats.notModified < now.stats.toEncode + now.stats.originals) log.info(line);
            })
            .catch(() => undefined);
        }, PROGRESS_EVERY_MS);
        ticker.unref();
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
        const s = pipeline.stats();
        const refused = pipeline.refused();
        l.info(
          `images: ${s.originals} originals (${s.downloads} downloaded, ${formatBytes(s.downloadedBytes)}; ${s.notModified} not modified), ` +
            `${s.encoded} files encoded, ${s.reused} reused from cache, ${s.zipsWritten} zips written, ${s.sharpOps} sharp operations, ` +
            `${s.published} files in ${MEDIA_DIR}/, ${Math.round(performance.now() - started)} ms since build start; ` +
            `${refused.length} refused image${refused.length === 1 ? '' : 's'}`,
        );
        for (const r of refused) {
          const pages = r.pages.length > 3 ? `${r.pages.slice(0, 3).join(', ')} and ${r.pages.length - 3} more` : r.pages.join(', ') || 'no named page';
          l.warn(`refused (${r.kind}): ${r.url}: ${r.reason} (wanted by ${pages})`);
        }
        const days = options.pruneAfterDays ?? 30;
        if (days > 0) {
          const pruned = await pipeline.pruneCache(days * DAY_MS);
          if (pruned.files > 0) l.info(`images: removed ${pruned.files} cache files (${formatBytes(pruned.bytes)}) no build has used for ${days} days`);
        }
        resetImagePipeline();
      },
    },
  };
}
