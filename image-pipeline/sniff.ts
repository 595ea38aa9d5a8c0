/**
 * What a file is, from its first bytes (never from its name or Content-Type),
 * and whether it visibly ends early.
 */

export type FileFormat =
  | 'jpeg'
  | 'png'
  | 'webp'
  | 'gif'
  | 'avif'
  | 'heic'
  | 'tiff'
  | 'svg'
  | 'html'
  | 'xml'
  | 'pdf'
  | 'mp4'
  | 'mov'
  | 'webm'
  | 'wav'
  | 'mp3'
  | 'ogg'
  | 'flac'
  | 'zip'
  | 'unknown';

/** Formats sharp decodes into renditions. */
export const IMAGE_FORMATS: ReadonlySet<FileFormat> = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff']);

/** Formats offered as downloads (documents, movies, sounds and images). */
export const DOWNLOAD_FORMATS: ReadonlySet<FileFormat> = new Set([
  ...IMAGE_FORMATS,
  'pdf',
  'mp4',
  'mov',
  'webm',
  'wav',
  'mp3',
  'ogg',
  'flac',
  'zip',
]);

/** How many leading bytes `sniff` needs. */
export const SNIFF_BYTES = 512;

export const FORMAT_INFO: Record<FileFormat, { label: string; mime: string; ext: string }> = {
  jpeg: { label: 'JPEG image', mime: 'image/jpeg', ext: 'jpg' },
  png: { label: 'PNG image', mime: 'image/png', ext: 'png' },
  webp: { label: 'WebP image', mime: 'image/webp', ext: 'webp' },
  gif: { label: 'GIF image', mime: 'image/gif', ext: 'gif' },
  avif: { label: 'AVIF image', mime: 'image/avif', ext: 'avif' },
  heic: { label: 'HEIC image', mime: 'image/heic', ext: 'heic' },
  tiff: { label: 'TIFF image', mime: 'image/tiff', ext: 'tif' },
  svg: { label: 'SVG image', mime: 'image/svg+xml', ext: 'svg' },
  html: { label: 'HTML page', mime: 'text/html', ext: 'html' },
  xml: { label: 'XML document', mime: 'application/xml', ext: 'xml' },
  pdf: { label: 'PDF document', mime: 'application/pdf', ext: 'pdf' },
  mp4: { label: 'MP4 video', mime: 'video/mp4', ext: 'mp4' },
  mov: { label: 'QuickTime video', mime: 'video/quicktime', ext: 'mov' },
  webm: { label: 'WebM video', mime: 'video/webm', ext: 'webm' },
  wav: { label: 'WAV audio', mime: 'audio/wav', ext: 'wav' },
  mp3: { label: 'MP3 audio', mime: 'audio/mpeg', ext: 'mp3' },
  ogg: { label: 'Ogg audio', mime: 'audio/ogg', ext: 'ogg' },
  flac: { label: 'FLAC audio', mime: 'audio/flac', ext: 'flac' },
  zip: { label: 'ZIP archive', mime: 'application/zip', ext: 'zip' },
  unknown: { label: 'file', mime: 'application/octet-stream', ext: 'bin' },
};

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, Math.min(end, bytes.length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

export function sniff(head: Uint8Array): FileFormat {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'gif';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'heic';
    if (brand === 'qt  ') return 'mov';
    return 'mp4';
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (ascii(head, 0, 5) === '%PDF-') return 'pdf';
  if (ascii(head, 0, 3) === 'ID3' || (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(head, 0, 4) === 'OggS') return 'ogg';
  if (ascii(head, 0, 4) === 'fLaC') return 'flac';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  // Text: skip a BOM and white space, then look at the markup.
  let text = ascii(head, 0, SNIFF_BYTES);
  text = text.replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, '').replace(/^[\s\0]+/, '').toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg|<svg[\s>])/.test(text)) return 'svg';
  if (/<svg[\s>]/.test(text) && text.startsWith('<')) return 'svg';
  if (/^(<!doctype html|<html|<head|<body|<script|<iframe|<meta|<title|<div|<p[\s>]|<!--)/.test(text)) return 'html';
  if (text.startsWith('<?xml')) return 'xml';
  return 'unknown';
}

/** A file whose last bytes show it was cut off (cheap checks; the decoder catches the rest). */
export function endsEarly(format: FileFormat, tail: Uint8Array): boolean {
  if (format === 'png') {
    // The IEND chunk: length 0, "IEND", CRC AE 42 60 82.
    return !startsWith(tail, [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], tail.length - 12);
  }
  if (format === 'gif') return tail[tail.length - 1] !== 0x3b;
  // JPEG may carry trailers after its end marker; its decoder reports a cut-off file instead.
  return false;
}
