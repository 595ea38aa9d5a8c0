/**
 * One decode per original: the original is decoded once, oriented, converted
 * to sRGB and resized (libvips shrinks JPEG and WebP on load) to its base, the
 * largest raster any of its renditions needs; every rendition is then resized
 * in memory from the smallest raster of the plan that covers it (the base, or
 * a larger rendition of the original's aspect: a resize costs by the pixels it
 * reads, so `medium` from `large` costs a quarter of `medium` from the base).
 * That chain is part of every output's name (`renditions.ts`), so an output's
 * bytes never depend on which other outputs a build happened to find missing.
 */
import sharp from 'sharp';
import type { Geometry } from './encode.ts';
import { RefusedError } from './errors.ts';

/** Decoded pixels: 8-bit sRGB, 3 channels or 4 with alpha. */
export interface Raster {
  data: Buffer;
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

/** The original at `file`, decoded once to `base`. */
export async function decodeBase(file: string, base: Geometry, { maxPixels }: DecodeOptions): Promise<Raster> {
  const { data, info } = await sharp(file, { limitInputPixels: maxPixels, failOn: 'warning', autoOrient: true, sequentialRead: true })
    .resize(base.width, base.height, { fit: 'fill' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.width !== base.width || info.height !== base.height) {
    throw new RefusedError('broken', `resize gave ${info.width}x${info.height}, not ${base.width}x${base.height}`);
  }
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A sharp pipeline reading `raster`. */
export const fromRaster = (raster: Raster) =>
  sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: raster.channels } });

/** One rendition's pixels resized from a larger raster (centre crop for `crop`). */
export async function derive(from: Raster, g: Geometry): Promise<Raster> {
  const { data, info } = await fromRaster(from)
    .resize(g.width, g.height, { fit: g.crop ? 'cover' : 'fill', position: 'centre' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
