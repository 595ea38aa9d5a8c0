/**
 * What a file is, from its first bytes (never from its name or Content-Type),
 * and whether it visibly ends early.
 *
 * Text is never media: a file that starts with a byte order mark (UTF-8
 * `EF BB BF`, UTF-16 `FF FE`/`FE FF`, UTF-32 `FF FE 00 00`/`00 00 FE FF`) is
 * read as text in that encoding (an HTML page, an SVG, an XML document or
 * other text) before any binary signature is tried. Without that, an HTML
 * page saved as UTF-16LE (`FF FE 3C 00`) passes an MPEG-audio sync check, as
 * it does in `file-type`, and would be offered as an MP3. MPEG audio itself
 * needs a whole valid frame header (version, layer, bit rate and sample rate
 * not reserved) or ID3v2 tag header, not just the 11 sync bits or `ID3`.
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
  | 'text'
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
  text: { label: 'text file', mime: 'text/plain', ext: 'txt' },
  unknown: { label: 'file', mime: 'application/octet-stream', ext: 'bin' },
};

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, Math.min(end, bytes.length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

/** Byte order marks; UTF-32 LE before UTF-16 LE, which it starts like. */
const BYTE_ORDER_MARKS: ReadonlyArray<{ bytes: readonly number[]; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' }> =
  [
    { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: 'utf-32be' },
    { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: 'utf-32le' },
    { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
    { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
    { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  ];

/** The text after a byte order mark, if `head` starts with one. */
function textAfterBom(head: Uint8Array): string | undefined {
  const bom = BYTE_ORDER_MARKS.find((b) => startsWith(head, b.bytes));
  if (!bom) return undefined;
  const body = head.subarray(bom.bytes.length);
  if (bom.encoding === 'utf-32le' || bom.encoding === 'utf-32be') {
    // TextDecoder has no UTF-32: one code point per 4 bytes.
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength - (body.byteLength % 4));
    let text = '';
    for (let i = 0; i < view.byteLength; i += 4) {
      const code = view.getUint32(i, bom.encoding === 'utf-32le');
      text += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return text;
  }
  return new TextDecoder(bom.encoding).decode(body);
}

/** HTML, SVG or XML from the start of a text. */
function markup(text: string): 'svg' | 'html' | 'xml' | undefined {
  const start = text.replace(/^[\s\0]+/, '').toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg|<svg[\s>])/.test(start)) return 'svg';
  if (/<svg[\s>]/.test(start) && start.startsWith('<')) return 'svg';
  if (/^(<!doctype html|<html|<head|<body|<script|<iframe|<meta|<title|<div|<p[\s>]|<!--)/.test(start)) return 'html';
  if (start.startsWith('<?xml')) return 'xml';
  return undefined;
}

/** A whole MPEG audio frame header: 11 sync bits, then no reserved version, layer, bit rate or sample rate. */
function isMpegAudioFrame(head: Uint8Array): boolean {
  if (head.length < 3 || head[0] !== 0xff || (head[1]! & 0xe0) !== 0xe0) return false;
  const version = (head[1]! >> 3) & 3;
  const layer = (head[1]! >> 1) & 3;
  const bitrate = head[2]! >> 4;
  const sampleRate = (head[2]! >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && sampleRate !== 3;
}

/** An ID3v2 tag header: `ID3`, version 2 to 4, and a size in four 7-bit bytes (not just three letters a text can start with). */
function isId3Tag(head: Uint8Array): boolean {
  return (
    ascii(head, 0, 3) === 'ID3' &&
    head.length >= 10 &&
    head[3]! >= 2 &&
    head[3]! <= 4 &&
    head[4] !== 0xff &&
    [6, 7, 8, 9].every((i) => head[i]! < 0x80)
  );
}

export function sniff(head: Uint8Array): FileFormat {
  const text = textAfterBom(head);
  if (text !== undefined) return markup(text) ?? 'text';
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
  if (isId3Tag(head) || isMpegAudioFrame(head)) return 'mp3';
  if (ascii(head, 0, 4) === 'OggS') return 'ogg';
  if (ascii(head, 0, 4) === 'fLaC') return 'flac';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  return markup(ascii(head, 0, SNIFF_BYTES)) ?? 'unknown';
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
