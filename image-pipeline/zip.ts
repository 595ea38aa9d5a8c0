/**
 * Deterministic zip files with yazl: entries in the given order, stored (media
 * is already compressed, and stored bytes do not depend on the zlib version),
 * one fixed timestamp and mode, DOS timestamps only (yazl's Info-ZIP UT field
 * would carry a UTC instant while the DOS field is local time; a local-time
 * Date of a fixed wall-clock time gives the same bytes in every time zone).
 * Files are streamed from disk, so a kit of any size uses little memory.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import yazl from 'yazl';

/** Bump when the zip layout or MANIFEST.json shape changes. */
export const ZIP_VERSION = 'pressroom-zip-1';

const FIXED_MTIME = () => new Date(2000, 0, 1, 0, 0, 0);
const MODE = 0o100644;

export interface ZipEntry {
  /** File on disk. */
  file: string;
  /** Name inside the zip. */
  name: string;
}

/** Writes `out`: the entries, then `MANIFEST.json`. */
export function buildZip(out: string, entries: ZipEntry[], manifest: Buffer): Promise<void> {
  return zipFiles(out, entries, [{ name: 'MANIFEST.json', bytes: manifest }]);
}

/** Writes `out`: the files in the given order, then the in-memory ones. */
export async function zipFiles(out: string, entries: ZipEntry[], buffers: Array<{ name: string; bytes: Buffer }> = []): Promise<void> {
  const zip = new yazl.ZipFile();
  const options = { mtime: FIXED_MTIME(), mode: MODE, compress: false, forceDosTimestamp: true };
  for (const entry of entries) zip.addFile(entry.file, entry.name, options);
  for (const buffer of buffers) zip.addBuffer(buffer.bytes, buffer.name, options);
  zip.end();
  await pipeline(zip.outputStream as Readable, createWriteStream(out));
}
