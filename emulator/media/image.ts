import sharp, { type Sharp } from 'sharp';
import type { ImageAssetSpec } from '../model/types.ts';
import { pictureSvg } from './image-svg.ts';

/** The part of an image spec that decides the original picture every rendition comes from. */
export interface OriginalImageSpec {
  kind: 'image-original';
  seed: number;
  label: string;
  format: 'jpeg' | 'png';
  transparent: boolean;
  originalWidth: number;
  originalHeight: number;
  design?: 'logo';
}

/** Largest original accepted, in pixels (sharp's decompression-bomb limit is far above). */
const MAX_PIXELS = 64_000_000;

const JPEG_OPTIONS = { quality: 80, mozjpeg: false, chromaSubsampling: '4:2:0' } as const;
const PNG_OPTIONS = { compressionLevel: 6, adaptiveFiltering: false, palette: false } as const;

export function originalSpecOf(spec: ImageAssetSpec): OriginalImageSpec {
  return {
    kind: 'image-original',
    seed: spec.seed,
    label: spec.label,
    format: spec.format,
    transparent: spec.transparent,
    originalWidth: spec.originalWidth,
    originalHeight: spec.originalHeight,
    ...(spec.design ? { design: spec.design } : {}),
  };
}

export function imageContentType(format: ImageAssetSpec['format']): string {
  return format === 'png' ? 'image/png' : 'image/jpeg';
}

/** Whether the alpha channel is kept: only PNG can carry one. */
function keepsAlpha(spec: { format: 'jpeg' | 'png'; transparent: boolean }): boolean {
  return spec.format === 'png' && spec.transparent;
}

/**
 * Rasterises the original picture from its SVG and encodes it in the spec's
 * format. sharp writes no metadata (no EXIF, no timestamps) unless asked to.
 */
export async function renderOriginal(spec: OriginalImageSpec): Promise<Buffer> {
  checkSize(spec.originalWidth, spec.originalHeight, 'original');
  const svg = pictureSvg({
    seed: spec.seed,
    label: spec.label,
    transparent: spec.transparent,
    width: spec.originalWidth,
    height: spec.originalHeight,
    design: spec.design,
  });
  let image = sharp(Buffer.from(svg), { density: 72, limitInputPixels: MAX_PIXELS });
  if (!keepsAlpha(spec)) image = image.flatten({ background: '#ffffff' });
  return encode(image, spec.format);
}

/** The exact output size of a rendition, never larger than the original. */
export interface RenditionSize {
  width: number;
  height: number;
  /** True when the declared size was larger than the original and had to be scaled down. */
  clamped: boolean;
}

export function renditionSize(spec: ImageAssetSpec): RenditionSize {
  checkSize(spec.width, spec.height, 'rendition');
  checkSize(spec.originalWidth, spec.originalHeight, 'original');
  const scale = Math.min(1, spec.originalWidth / spec.width, spec.originalHeight / spec.height);
  if (scale === 1) return { width: spec.width, height: spec.height, clamped: false };
  return {
    width: Math.max(1, Math.floor(spec.width * scale)),
    height: Math.max(1, Math.floor(spec.height * scale)),
    clamped: true,
  };
}

/** True when the rendition is the original itself, so its bytes can be served as they are. */
export function isOriginalSize(spec: ImageAssetSpec): boolean {
  return spec.width === spec.originalWidth && spec.height === spec.originalHeight;
}

/**
 * Derives a rendition from the original's bytes. `cover` crops the centre;
 * `inside` scales to the declared box, which keeps the original's aspect up to
 * rounding (a declared box of a clearly different aspect is centre-cropped
 * rather than stretched).
 */
export async function deriveRendition(original: Buffer, spec: ImageAssetSpec): Promise<Buffer> {
  const size = renditionSize(spec);
  const fit = spec.fit === 'inside' && sameAspect(spec, size) ? 'fill' : 'cover';
  const image = sharp(original, { limitInputPixels: MAX_PIXELS }).resize(size.width, size.height, {
    fit,
    position: 'centre',
  });
  return encode(image, spec.format);
}

/** The aspect-kept width for this height is within a pixel of the requested width. */
function sameAspect(spec: ImageAssetSpec, size: RenditionSize): boolean {
  return Math.abs((spec.originalWidth * size.height) / spec.originalHeight - size.width) <= 1;
}

function encode(image: Sharp, format: 'jpeg' | 'png'): Promise<Buffer> {
  return format === 'png' ? image.png(PNG_OPTIONS).toBuffer() : image.jpeg(JPEG_OPTIONS).toBuffer();
}

function checkSize(width: number, height: number, what: string): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`image ${what} size must be positive integers, got ${width}x${height}`);
  }
  if (width * height > MAX_PIXELS) {
    throw new RangeError(`image ${what} size ${width}x${height} is above ${MAX_PIXELS} pixels`);
  }
}
