/**
 * How close a rendition is to the picture the direct path makes: the original
 * decoded, oriented and resized straight to the rendition's size (exactly, no
 * fast shrink-on-load), encoded with
 * the settings of ENCODER_VERSION 1 (one decode per rendition, effort 4 WebP,
 * progressive JPEG). Compared by SSIM (ssim.js, luma) at the scale Wang et al.
 * recommend (the shorter side shrunk to about 256 px, which is also what makes
 * it cheap), both flattened on mid grey so transparent pixels compare too.
 * Used by the quality test on a fixed sample and by the images bench on every output.
 */
import sharp, { type Sharp } from 'sharp';
import { ssim } from 'ssim.js';
import type { Geometry, OutputFormat } from '../image-pipeline/encode.ts';

/**
 * The lowest SSIM a rendition may have against its direct reference (docs/images.md): the version-1
 * pipeline itself (a decode per rendition, fast shrink-on-load) scored 0.962 at worst on the demo's
 * 300 px crops against this reference, the cascade 0.967.
 */
export const SSIM_THRESHOLD = 0.96;

/** The encoder settings of ENCODER_VERSION 1: the reference every later setting is measured against. */
export const REFERENCE_SETTINGS = {
  webp: { quality: 80, alphaQuality: 90, effort: 4 },
  jpeg: { quality: 82, progressive: true, optimiseCoding: true, mozjpeg: false, chromaSubsampling: '4:2:0' },
  png: { compressionLevel: 8, adaptiveFiltering: true, palette: false },
} as const;

export const REFERENCE_ENCODERS: Record<Exclude<OutputFormat, 'avif'>, (image: Sharp) => Sharp> = {
  webp: (image) => image.webp({ ...REFERENCE_SETTINGS.webp }),
  jpeg: (image) => image.jpeg({ ...REFERENCE_SETTINGS.jpeg }),
  png: (image) => image.png({ ...REFERENCE_SETTINGS.png }),
};

/** The direct path's encode of `original` at `g` in `format`. */
export async function referenceEncode(original: string, g: Geometry, format: Exclude<OutputFormat, 'avif'>): Promise<Buffer> {
  const { data, info } = await sharp(original, { autoOrient: true })
    // Without the fast shrink-on-load, whose rounding moves a JPEG's centre crop by half a pixel.
    .resize(g.width, g.height, { fit: g.crop ? 'cover' : 'fill', position: 'centre', fastShrinkOnLoad: false })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return REFERENCE_ENCODERS[format](sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })).toBuffer();
}

/** The pixels SSIM compares: on mid grey, shrunk by `factor` (box average), RGBA. */
async function rgba(input: string | Buffer, factor: number) {
  let image = sharp(input).flatten({ background: '#808080' });
  if (factor > 1) {
    const { width, height } = await sharp(input).metadata();
    image = sharp(await image.raw().toBuffer(), { raw: { width: width!, height: height!, channels: 3 } }).resize(
      Math.round(width! / factor),
      Math.round(height! / factor),
      { kernel: 'linear', fit: 'fill' },
    );
  }
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** SSIM of `output` (a file or bytes) against `reference` (bytes); 0 when their sizes differ. */
export async function ssimOf(output: string | Buffer, reference: Buffer): Promise<number> {
  const [metaA, metaB] = await Promise.all([sharp(output).metadata(), sharp(reference).metadata()]);
  if (metaA.width !== metaB.width || metaA.height !== metaB.height) return 0;
  const factor = Math.max(1, Math.round(Math.min(metaA.width!, metaA.height!) / 256));
  const [a, b] = await Promise.all([rgba(output, factor), rgba(reference, factor)]);
  return ssim(a, b, { downsample: false }).mssim;
}
