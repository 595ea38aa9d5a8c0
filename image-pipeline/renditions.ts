/**
 * Renditions: which outputs an original's declared sizes become (one per
 * distinct geometry and format, named by a hash of the source bytes and the
 * encoding parameters), and making the missing ones: one decode and resize to
 * raw pixels, then one encode per format, all through the sharp job limiter.
 */
import pLimit from 'p-limit';
import sharp from 'sharp';
import {
  ENCODER_SETTINGS,
  ENCODER_VERSION,
  ENCODERS,
  WEBP_MAX_SIDE,
  extensionOf,
  fallbackFormat,
  renditionGeometry,
  type Declared,
  type Geometry,
  type OutputFormat,
} from './encode.ts';
import { RefusedError } from './errors.ts';
import { hash16, type Outputs } from './outputs.ts';
import type { Source } from './sources.ts';
import type { Store } from './store.ts';
import type { Limit, PipelineStats } from './types.ts';

/** One output file of a rendition. */
export interface PlannedOutput {
  format: OutputFormat;
  /** Output name under `out/` and `_media/`. */
  name: string;
}

/** One rendition to make: its geometry, the declared names it serves, one output per format. */
export interface Planned {
  geometry: Geometry;
  names: string[];
  outputs: PlannedOutput[];
}

export interface Renditions {
  /** The renditions `declared` asks of `src`, one per distinct geometry. */
  plan(src: Source, declared: Declared[]): Planned[];
  /** Makes sure every output of one planned rendition exists in the cache. */
  realise(src: Source, p: Planned): Promise<void>;
}

export interface RenditionsContext {
  store: Store;
  stats: PipelineStats;
  outputs: Outputs;
  /** The sharp job limiter. */
  cpu: Limit;
  cores: number;
  maxPixels: number;
  avif: boolean;
}

export function createRenditions({ store, stats, outputs, cpu, cores, maxPixels, avif }: RenditionsContext): Renditions {
  // Renditions between decode and their last encode hold raw pixels: at most this many at once,
  // so decodes never run far ahead of encodes and memory stays bounded however many images.
  const inFlight = pLimit(cores * 2);

  // Output names by source and geometry: every page showing an image plans it again, and hashing is the cost.
  const outputNames = new Map<string, PlannedOutput[]>();

  function plan(src: Source, declared: Declared[]): Planned[] {
    const alpha = !!src.hasAlpha;
    const plans = new Map<string, Planned>();
    for (const d of declared) {
      // Sizes are planned from the measured original: declared sizes may be missing or larger than it.
      const geometry = renditionGeometry(d, src.width!, src.height!);
      const key = `${geometry.width}x${geometry.height}${geometry.crop ? 'c' : ''}`;
      const existing = plans.get(key);
      if (existing) {
        existing.names.push(d.name);
        continue;
      }
      const namesKey = `${src.sha256} ${key}`;
      let outputs = outputNames.get(namesKey);
      if (!outputs) outputNames.set(namesKey, (outputs = plannedOutputs(src, geometry, alpha)));
      plans.set(key, { geometry, names: [d.name], outputs });
    }
    return [...plans.values()];
  }

  function plannedOutputs(src: Source, geometry: Geometry, alpha: boolean): PlannedOutput[] {
    const formats: OutputFormat[] = [];
    if (geometry.width <= WEBP_MAX_SIDE && geometry.height <= WEBP_MAX_SIDE) formats.push('webp');
    if (avif) formats.unshift('avif');
    formats.push(fallbackFormat(alpha));
    return formats.map((format) => {
      const h = hash16(
        ENCODER_VERSION,
        src.sha256,
        geometry.width,
        geometry.height,
        geometry.crop,
        format,
        JSON.stringify(ENCODER_SETTINGS[format]),
      );
      return { format, name: `${h}-${geometry.width}x${geometry.height}.${extensionOf(format)}` };
    });
  }

  function realise(src: Source, p: Planned): Promise<void> {
    return outputs.once(p.outputs.map((o) => o.name).join(' '), async () => {
      const missing: PlannedOutput[] = [];
      for (const o of p.outputs) {
        if (await store.exists(store.outPath(o.name))) stats.reused++;
        else missing.push(o);
      }
      stats.toEncode += missing.length;
      if (missing.length > 0) await inFlight(() => encode(src, p.geometry, missing));
    });
  }

  async function encode(src: Source, g: Geometry, missing: PlannedOutput[]): Promise<void> {
    // One decode + resize to raw pixels, then one encode per format, each its own job so the
    // formats of one large rendition run on different cores.
    const { data, info } = await cpu(() => {
      stats.sharpOps++;
      return sharp(src.path, { limitInputPixels: maxPixels, failOn: 'warning', autoOrient: true, sequentialRead: true })
        .resize(g.width, g.height, { fit: g.crop ? 'cover' : 'fill', position: 'centre' })
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
    });
    if (info.width !== g.width || info.height !== g.height) {
      throw new RefusedError('broken', `resize gave ${info.width}x${info.height}, not ${g.width}x${g.height}`);
    }
    await Promise.all(
      missing.map((o) =>
        cpu(async () => {
          stats.sharpOps++;
          const raw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
          await outputs.write(o.name, (tmp) => ENCODERS[o.format](raw).toFile(tmp));
          stats.encoded++;
        }),
      ),
    );
  }

  return { plan, realise };
}
