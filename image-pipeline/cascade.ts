/**
 * One decode per original: the original is decoded once, oriented, converted
 * to sRGB and resized (libvips shrinks JPEG and WebP on load) to its base, the
 * largest raster any of its renditions needs; every rendition is then resized
 * in memory from the smallest raster of the plan that covers it (the base, or
 * a larger rendition of the original's aspect: a resize costs by the pixels it
 * reads, so `medium` from `large` costs a quarter of `medium` from the base).
 * That chain is part of every output's name (`renditions.ts`), so an output's
 * bytes never depend on which other outputs a build happened to find missing.
 *
 * Rasters are files in libvips' own format (`.v`: a header and the pixels, mapped
 * when read), never Buffers: every raw Buffer handed to JavaScript counts as V8
 * external memory, and a cold demo run's 1.5 GB of them forced 71 full garbage
 * collections (2 with files), each one marking the whole heap: in a build that
 * heap holds the site's data.
 */
import sharp from 'sharp';
import type { Geometry } from './encode.ts';
import { RefusedError } from './errors.ts';

/** Decoded pixels: 8-bit sRGB, 3 channels or 4 with alpha, in the `.v` file `file` (the caller removes it). */
export interface Raster {
  file: string;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * The raster every rendition of `geometries` is resized from: the largest natural rendition
 * itself, or, when a crop needs more pixels, the original's aspect scaled just enough to cover it.
 */
export function baseGeometry(geometries: readonly Geometry[], srcW: number, srcH: number): Geometry {
  let best: Geometry | undefined;
  let bestScale = 0;
  for (const g of geometries) {
    // A natural rendition is the original scaled; a crop must cover its box on both sides.
    const scale = g.crop ? Math.max(g.width / srcW, g.height / srcH) : g.width / srcW;
    if (scale > bestScale || (scale === bestScale && best?.crop && !g.crop)) [best, bestScale] = [g, scale];
  }
  if (!best) throw new Error('baseGeometry: no renditions');
  if (!best.crop) return best;
  return {
    width: Math.min(srcW, Math.max(best.width, Math.round(srcW * bestScale))),
    height: Math.min(srcH, Math.max(best.height, Math.round(srcH * bestScale))),
    crop: false,
  };
}

/**
 * The raster `g` is resized from: the smallest of `base` and the plan's natural (uncropped)
 * renditions `naturals` that covers `g` on both sides, other than `g` itself.
 */
export function parentOf(g: Geometry, naturals: readonly Geometry[], base: Geometry): Geometry {
  let parent = base;
  for (const n of naturals) {
    if (n === g || n.crop || n.width < g.width || n.height < g.height) continue;
    if (!g.crop && n.width === g.width && n.height === g.height) continue;
    if (n.width * n.height < parent.width * parent.height) parent = n;
  }
  return parent;
}

/** Raw bytes of a raster of `g` (the budget's unit). */
export const rasterBytes = (g: { width: number; height: number }, alpha: boolean) => g.width * g.height * (alpha ? 4 : 3);

export interface DecodeOptions {
  maxPixels: number;
}

/** A `.v` file name for `toFile` (libvips picks the format by the suffix). */
export const rasterFile = (tmp: string) => `${tmp}.v`;

/** The original at `file`, decoded once to `base`, written to `out` (a `rasterFile`). */
export async function decodeBase(file: string, base: Geometry, { maxPixels }: DecodeOptions, out: string): Promise<Raster> {
  const info = await sharp(file, { limitInputPixels: maxPixels, failOn: 'warning', autoOrient: true, sequentialRead: true })
    .resize(base.width, base.height, { fit: 'fill' })
    .toColourspace('srgb')
    .toFile(out);
  if (info.width !== base.width || info.height !== base.height) {
    throw new RefusedError('broken', `resize gave ${info.width}x${info.height}, not ${base.width}x${base.height}`);
  }
  return { file: out, width: info.width, height: info.height, channels: info.channels as Raster['channels'] };
}

/** A sharp pipeline reading `raster` (pixels this pipeline wrote: no pixel cap). */
export const fromRaster = (raster: Raster) => sharp(raster.file, { limitInputPixels: false, sequentialRead: true });

/** One rendition's pixels resized from a larger raster (centre crop for `crop`), written to `out`. */
export async function derive(from: Raster, g: Geometry, out: string): Promise<Raster> {
  const info = await fromRaster(from)
    .resize(g.width, g.height, { fit: g.crop ? 'cover' : 'fill', position: 'centre' })
    .toFile(out);
  return { file: out, width: info.width, height: info.height, channels: info.channels as Raster['channels'] };
}
