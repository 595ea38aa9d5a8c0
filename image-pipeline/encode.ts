/**
 * Rendition geometry and encoders: what size each declared rendition becomes,
 * and the fixed encoder settings (part of every output's hash, so changing
 * one re-derives everything once).
 *
 * Geometry rules (upstream's own, observed-shapes.md): renditions keep the
 * original's aspect ratio except crops (`square`, `*_square`, or any box of
 * equal sides over a non-square original), which are centre crops; nothing is
 * ever larger than the original. A declared box whose aspect matches the
 * original's within a pixel of rounding is produced at exactly the declared
 * size; any other non-crop box is fitted inside it.
 */
import type { Sharp } from 'sharp';
import { FORMAT_INFO } from './sniff.ts';

/**
 * Bump when geometry or encoder settings change: every output name changes with it.
 * 2: renditions derived from one decode per original (`cascade.ts`), fallbacks only where a reader needs one.
 * 3: each rendition resized from the smallest larger one (`cascade.ts`), PNG at libvips' default compression.
 */
export const ENCODER_VERSION = 'pressroom-image-3';

/**
 * No rendition is wider or taller than this: the widest layout slot is the 74rem container,
 * twice that covers high-density screens, and larger copies of the original only cost encodes
 * no page shows (the original's own bytes are what downloads and zips give).
 */
export const MAX_SHOWN_SIDE = 2400;

/** `g` shrunk (aspect kept) so neither side is longer than MAX_SHOWN_SIDE. */
export function shownGeometry(g: Geometry): Geometry {
  const scale = Math.min(1, MAX_SHOWN_SIDE / g.width, MAX_SHOWN_SIDE / g.height);
  if (scale === 1) return g;
  return { width: Math.max(1, Math.round(g.width * scale)), height: Math.max(1, Math.round(g.height * scale)), crop: g.crop };
}

export type OutputFormat = 'webp' | 'avif' | 'jpeg' | 'png';

/** Content type and file extension of an output format: the sniffer's table (sniff.ts) covers them. */
export const mimeOf = (format: OutputFormat): string => FORMAT_INFO[format].mime;
export const extensionOf = (format: OutputFormat): string => FORMAT_INFO[format].ext;

/** The format of the `<img>` fallback: PNG when the image has alpha, else JPEG. */
export const fallbackFormat = (alpha: boolean): OutputFormat => (alpha ? 'png' : 'jpeg');

/** WebP cannot hold a side longer than this; larger renditions get the fallback only. */
export const WEBP_MAX_SIDE = 16383;

/**
 * Encoder settings, fixed. Output bytes are deterministic for a given sharp/libvips build.
 * Chosen by measurement (bench/encoder-settings.ts, docs/performance.md): WebP effort 2 costs half
 * the CPU of effort 4 for 5 % more bytes at the same SSIM; the JPEG is only the fallback `src` of
 * readers that render it whole (feeds, mail, social cards), so it is baseline (half the CPU of
 * progressive, same bytes), not mozjpeg (2.5× the CPU for 20 % fewer bytes), 4:2:0. The PNG (the
 * fallback of images with alpha) is zlib level 6 without adaptive filtering, libvips' defaults:
 * a tenth of the CPU of level 8 with adaptive filtering, for 2 % fewer bytes on the demo's cut-outs.
 */
export const ENCODER_SETTINGS = {
  webp: { quality: 80, alphaQuality: 90, effort: 2 },
  avif: { quality: 50, effort: 4, chromaSubsampling: '4:2:0' as const },
  jpeg: { quality: 82, progressive: false, optimiseCoding: true, mozjpeg: false, chromaSubsampling: '4:2:0' },
  png: { compressionLevel: 6, adaptiveFiltering: false, palette: false },
} as const;

export const ENCODERS: Record<OutputFormat, (image: Sharp) => Sharp> = {
  webp: (image) => image.webp({ ...ENCODER_SETTINGS.webp }),
  avif: (image) => image.avif({ ...ENCODER_SETTINGS.avif }),
  jpeg: (image) => image.jpeg({ ...ENCODER_SETTINGS.jpeg }),
  png: (image) => image.png({ ...ENCODER_SETTINGS.png }),
};

export interface Declared {
  name: string;
  /** 0 when the API did not say (null, missing, not a number): it is then taken from the measured original. */
  width: number;
  height: number;
}

export interface Geometry {
  /** Output size in pixels. */
  width: number;
  height: number;
  /** Centre crop (`cover`) rather than a plain scale. */
  crop: boolean;
}

/** A declared size as a positive integer (the API sends `"200"`), or undefined. */
export function parseDimension(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 1) return undefined;
  return Math.round(n);
}

/**
 * A declared size with what the API left out taken from the measured original: one missing side
 * follows the original's aspect (or equals the other side for a `square`); a square with no size at
 * all is the largest centre square. Undefined when nothing is declared and it is no square: the
 * original's own size.
 */
function completedSize(declared: Declared, srcW: number, srcH: number): Declared | undefined {
  const square = /square/i.test(declared.name);
  const { width: w, height: h } = declared;
  if (w > 0 && h > 0) return declared;
  if (w > 0) return { ...declared, height: square ? w : Math.max(1, Math.round((w * srcH) / srcW)) };
  if (h > 0) return { ...declared, width: square ? h : Math.max(1, Math.round((h * srcW) / srcH)) };
  if (!square) return undefined;
  const side = Math.min(srcW, srcH);
  return { ...declared, width: side, height: side };
}

/** Whether a declared box is a crop of the source rather than a scaled copy. */
function isCrop(declared: Declared, srcW: number, srcH: number): boolean {
  if (sameAspect(declared.width, declared.height, srcW, srcH)) return false;
  return /square/i.test(declared.name) || declared.width === declared.height;
}

/** `w × h` has the aspect of `srcW × srcH` up to one pixel of rounding on either side. */
function sameAspect(w: number, h: number, srcW: number, srcH: number): boolean {
  return Math.abs((srcW * h) / srcH - w) <= 1 || Math.abs((srcH * w) / srcW - h) <= 1;
}

/**
 * The output size of a declared rendition from a source of `srcW × srcH`
 * (already oriented): the declared size when the source is large enough,
 * never larger than the source.
 */
export function renditionGeometry(declared: Declared, srcW: number, srcH: number): Geometry {
  const known = completedSize(declared, srcW, srcH);
  if (!known) return { width: srcW, height: srcH, crop: false };
  const { width: w, height: h } = known;
  if (isCrop(known, srcW, srcH)) {
    const scale = Math.min(1, srcW / w, srcH / h);
    return { width: Math.max(1, Math.floor(w * scale)), height: Math.max(1, Math.floor(h * scale)), crop: true };
  }
  if (sameAspect(w, h, srcW, srcH)) {
    const scale = Math.min(1, srcW / w, srcH / h);
    if (scale === 1) return { width: w, height: h, crop: false };
    // Larger than the source: the source's own size (never upscaled).
    return { width: srcW, height: srcH, crop: false };
  }
  // Another aspect, not a crop: fit inside the declared box, aspect kept — unless the box's aspect is
  // more than MAX_BOX_SKEW times off the original's (`99999 × 1`, which fits a 1 px sliver): then the
  // declaration is wrong, not a box, and only its longest side bounds the original's.
  const skew = w / h / (srcW / srcH);
  const scale =
    skew > MAX_BOX_SKEW || skew < 1 / MAX_BOX_SKEW ? Math.min(1, Math.max(w, h) / Math.max(srcW, srcH)) : Math.min(1, w / srcW, h / srcH);
  return { width: Math.max(1, Math.round(srcW * scale)), height: Math.max(1, Math.round(srcH * scale)), crop: false };
}

/** How far a declared box's aspect may be from the original's and still be a box to fit into (a 10:1 banner is). */
const MAX_BOX_SKEW = 20;
