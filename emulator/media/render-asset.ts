import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import type { AssetSpec, AudioAssetSpec, ImageAssetSpec, PdfAssetSpec } from '../model/types.ts';
import { renderWav } from './audio.ts';
import { createDiskCache, createSingleFlight } from './cache.ts';
import { deriveRendition, imageContentType, isOriginalSize, originalSpecOf, renderOriginal, renditionSize } from './image.ts';
import { cacheKey, strongEtag } from './key.ts';
import { renderPdf } from './pdf.ts';
import { renderVideo, videoContentType } from './video.ts';

/** The bytes behind one media URL, ready to serve. */
export interface RenderedAsset {
  bytes: Buffer;
  contentType: string;
  /** Strong, quoted: `"<base64url SHA-256 of bytes>"`. */
  etag: string;
}

/** Counters since the renderer was created; tests and the admin API read them. */
export interface RenderStats {
  /** Calls to `render`. */
  renders: number;
  /** Bytes found in the disk cache (originals included). */
  diskHits: number;
  /** Bytes produced and written to the disk cache (originals included). */
  generated: number;
  /** sharp pipelines run: original rasterisations plus rendition resizes. */
  sharpRuns: number;
  /** Image renditions whose declared size was larger than the original and got scaled down. */
  clamped: number;
}

export interface AssetRenderer {
  render(spec: AssetSpec): Promise<RenderedAsset>;
  readonly stats: Readonly<RenderStats>;
}

export interface AssetRendererOptions {
  /** Folder for rendered files; created on first write. */
  cacheDir: string;
  /** Renders (sharp, PDF, WAV) running at once; bounds memory. Default: the CPU count. */
  maxConcurrentRenders?: number;
}

/**
 * Renders media assets deterministically and caches them on disk by spec, so
 * each distinct spec costs sharp work once per cache folder, across processes.
 * Image renditions are derived from a cached original, as a real media library does.
 */
export function createAssetRenderer({ cacheDir, maxConcurrentRenders }: AssetRendererOptions): AssetRenderer {
  const cache = createDiskCache(cacheDir);
  const flight = createSingleFlight<Buffer>();
  const limit = pLimit(Math.max(1, maxConcurrentRenders ?? availableParallelism()));
  const stats: RenderStats = { renders: 0, diskHits: 0, generated: 0, sharpRuns: 0, clamped: 0 };

  /** Bytes stored under `key`: from disk, or produced once (shared by concurrent callers) and written. */
  const stored = (key: string, ext: string, produce: () => Promise<Buffer>): Promise<Buffer> =>
    flight(key, async () => {
      const cached = await cache.read(key, ext);
      if (cached) {
        stats.diskHits++;
        return cached;
      }
      const bytes = await produce();
      await cache.write(key, ext, bytes);
      stats.generated++;
      return bytes;
    });

  const sharpWork = (work: () => Promise<Buffer>) =>
    limit(() => {
      stats.sharpRuns++;
      return work();
    });

  const original = (spec: ImageAssetSpec): Promise<Buffer> => {
    const originalSpec = originalSpecOf(spec);
    return stored(cacheKey(originalSpec), imageExt(spec), () => sharpWork(() => renderOriginal(originalSpec)));
  };

  const image = (spec: ImageAssetSpec): Promise<Buffer> => {
    // The original-size rendition is the original itself: same bytes, one file.
    if (isOriginalSize(spec)) return original(spec);
    return stored(cacheKey(spec), imageExt(spec), async () => {
      const source = await original(spec);
      if (renditionSize(spec).clamped) stats.clamped++;
      return sharpWork(() => deriveRendition(source, spec));
    });
  };

  const pdf = (spec: PdfAssetSpec) => stored(cacheKey(spec), '.pdf', () => limit(() => renderPdf(spec)));
  const audio = (spec: AudioAssetSpec) => stored(cacheKey(spec), '.wav', () => limit(async () => renderWav(spec)));

  return {
    stats,
    async render(spec) {
      stats.renders++;
      let bytes: Buffer;
      let contentType: string;
      switch (spec.kind) {
        case 'image':
          bytes = await image(spec);
          contentType = imageContentType(spec.format);
          break;
        case 'pdf':
          bytes = await pdf(spec);
          contentType = 'application/pdf';
          break;
        case 'audio':
          bytes = await audio(spec);
          contentType = 'audio/wav';
          break;
        case 'video':
          // Committed fixture files: nothing to render or cache.
          bytes = await renderVideo(spec);
          contentType = videoContentType(spec.format);
          break;
        default:
          throw new TypeError(`unknown asset kind ${JSON.stringify((spec as { kind?: unknown }).kind)}`);
      }
      return { bytes, contentType, etag: strongEtag(bytes) };
    },
  };
}

function imageExt(spec: ImageAssetSpec): string {
  return spec.format === 'png' ? '.png' : '.jpg';
}
