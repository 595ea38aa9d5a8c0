/**
 * Checks on freshly downloaded bytes before they count as an original: the
 * format read from the bytes (and accepted for its use), the end marker (not
 * cut off), a header sharp can read that agrees with the bytes, and the pixel
 * cap (decompression bombs). Returns what the cache remembers about the bytes.
 */
import sharp, { type Metadata } from 'sharp';
import { RefusedError, asRefusal } from './errors.ts';
import { DOWNLOAD_FORMATS, FORMAT_INFO, IMAGE_FORMATS, endsEarly, sniff, type FileFormat } from './sniff.ts';
import type { BlobInfo } from './store.ts';
import type { Limit, PipelineStats } from './types.ts';

/** What an original is for: a picture to derive renditions from, or a file to offer as it is. */
export type SourceKind = 'image' | 'file';

export const acceptedFormats = (kind: SourceKind): ReadonlySet<FileFormat> => (kind === 'image' ? IMAGE_FORMATS : DOWNLOAD_FORMATS);

export interface InspectContext {
  stats: PipelineStats;
  /** The sharp job limiter. */
  cpu: Limit;
  maxPixels: number;
}

/** Checks fresh bytes (`head` and `tail` of `file`): format from the bytes, pixel cap from the header. Returns the record to store. */
export async function inspect(ctx: InspectContext, kind: SourceKind, file: string, head: Buffer, tail: Buffer): Promise<BlobInfo> {
  const format = sniff(head);
  if (!acceptedFormats(kind).has(format)) {
    const what = format === 'unknown' ? 'not a recognised format' : `${FORMAT_INFO[format].label}`;
    throw new RefusedError(
      'format',
      `${what}${kind === 'image' ? ', not an accepted image (JPEG, PNG, WebP, GIF, AVIF, TIFF)' : ', not an accepted download'}`,
    );
  }
  if (endsEarly(format, tail))
    throw new RefusedError('truncated', `the ${FORMAT_INFO[format].label} is cut off (its end marker is missing)`);
  if (!IMAGE_FORMATS.has(format)) return { format };
  ctx.stats.sharpOps++;
  let meta: Metadata;
  try {
    meta = await ctx.cpu(() => sharp(file, { limitInputPixels: false, failOn: 'warning' }).metadata());
  } catch (error) {
    throw new RefusedError('broken', `the ${FORMAT_INFO[format].label} cannot be read (${asRefusal(error).message})`);
  }
  if (meta.format !== format && !(format === 'avif' && meta.format === 'heif')) {
    throw new RefusedError('format', `the bytes start as ${format} but decode as ${meta.format}`);
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new RefusedError('broken', 'the image has no dimensions');
  return checkPixels({ format, width, height, hasAlpha: meta.hasAlpha }, ctx.maxPixels);
}

/** The pixel cap (decompression bombs), for fresh and remembered dimensions alike. */
export function checkPixels(info: BlobInfo, maxPixels: number): BlobInfo {
  const { width, height } = info;
  if (width !== undefined && height !== undefined && width * height > maxPixels) {
    throw new RefusedError(
      'pixels',
      `${width}x${height} is over the pixel cap of ${Math.round(maxPixels / 1e6)} megapixels (decompression bomb guard)`,
    );
  }
  return info;
}
