/**
 * The on-disk cache under `.cache/images/` (kept across builds):
 *
 *   sources/<sha256 of URL>.json   what is known about one media URL: its ETag, the SHA-256,
 *                                  size and sniffed format of its bytes, image dimensions, or
 *                                  why it was refused (so a 304 answers without a decode)
 *   blobs/<sha256>.<ext>           the original bytes, by content
 *   blobs/<sha256>.json            what inspecting those bytes found (format, oriented size, alpha),
 *                                  so the same bytes under another URL (a moved API, rotating signed
 *                                  URLs) cost a download but no decode
 *   out/<name>                     renditions and media-kit zips, by hash of source + parameters
 *   tmp/                           downloads and encodes in progress (renamed into place when complete)
 *
 * Every write goes to tmp/ first and is renamed into place, so a killed build
 * never leaves a half-written file under a final name. The store notes every
 * cache file a build reads, checks or writes and marks it fresh (mtime) unless a
 * build did within the hour; `prune` removes the files no build has used for a
 * while, so a cache fed by scheduled rebuilds does not grow forever.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pruneUnused, type PruneResult } from '@pressroom-static/content-loaders';
import type { RefusalKind } from './errors.ts';
import type { FileFormat } from './sniff.ts';

/**
 * Bump when SourceRecord changes meaning, or when sniffing changes what it
 * accepts (2: text with a byte order mark is never media; a record from an
 * older sniffer may hold such a file as an MP3 and must be looked at again).
 */
const RECORD_VERSION = 2;

export interface SourceRecord {
  v: number;
  url: string;
  etag?: string | undefined;
  /** Where the bytes came from after redirects, when that differs from `url`. */
  finalUrl?: string | undefined;
  sha256: string;
  bytes: number;
  format: FileFormat;
  /** Oriented pixel size, for images. */
  width?: number | undefined;
  height?: number | undefined;
  hasAlpha?: boolean | undefined;
  /** Set when the bytes themselves were refused (format, pixels, broken), with the caps in force then. */
  refused?: { kind: RefusalKind; message: string; caps: string } | undefined;
}

export interface BlobInfo {
  format: FileFormat;
  width?: number | undefined;
  height?: number | undefined;
  hasAlpha?: boolean | undefined;
}

export interface Store {
  readonly tmpDir: string;
  readRecord(url: string): Promise<SourceRecord | undefined>;
  writeRecord(record: Omit<SourceRecord, 'v'>): Promise<void>;
  blobPath(sha256: string, ext: string): string;
  readBlobInfo(sha256: string): Promise<BlobInfo | undefined>;
  writeBlobInfo(sha256: string, info: BlobInfo): Promise<void>;
  outPath(name: string): string;
  exists(file: string): Promise<boolean>;
  /** The size of a cache file, or undefined when it is not there. */
  sizeOf(file: string): Promise<number | undefined>;
  /** A fresh temporary path in tmp/. */
  tmpPath(hint: string): Promise<string>;
  /** Moves a finished temporary file to its final path. */
  commit(tmp: string, final: string): Promise<void>;
  /** Removes temporary files older than `maxAgeMs` (left by killed builds); best effort. */
  sweep(maxAgeMs: number): Promise<void>;
  /**
   * Marks every file this build used as fresh and removes the records, originals and outputs
   * unused for longer than `maxAgeMs` (by any build: other builds sharing the cache keep theirs
   * fresh the same way); best effort.
   */
  prune(maxAgeMs: number): Promise<PruneResult>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `mkdir -p`, once per folder per build. */
function createFolderMaker(): (folder: string) => Promise<unknown> {
  const made = new Map<string, Promise<unknown>>();
  return (folder) => {
    let p = made.get(folder);
    if (!p) made.set(folder, (p = mkdir(folder, { recursive: true })));
    return p;
  };
}

/**
 * A file marked fresh (or written) this recently is not marked again: prunes keep files unused for
 * days (30 by default), so it would change nothing they decide, and a warm build would pay a
 * `utimes` for every output it checks.
 */
export const RECENTLY_MARKED_MS = 60 * 60 * 1000;

/** The cache files this build used, each marked fresh (mtime now) at its first use unless it was marked recently. */
function createUsageMarks() {
  const used = new Set<string>();
  // Marked fresh at its first use, not only at the end of the build: another build sharing the
  // cache and pruning meanwhile must not take a file this build is about to read.
  const use = <T>(file: string, value: T, modifiedMs?: number): T => {
    if (!used.has(file)) {
      used.add(file);
      const now = new Date();
      if (modifiedMs === undefined || now.getTime() - modifiedMs > RECENTLY_MARKED_MS) void utimes(file, now, now).catch(() => undefined);
    }
    return value;
  };
  return { used: used as ReadonlySet<string>, use };
}

/** Writes `value` as one JSON line to a fresh file in `tmpDir` and returns its path, for renaming into place. */
async function writeTmpJson(tmpDir: string, prefix: string, value: object): Promise<string> {
  const tmp = path.join(tmpDir, `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}`);
  await writeFile(tmp, `${JSON.stringify(value)}\n`);
  return tmp;
}

/** Removes temporary files older than `maxAgeMs`; best effort. */
async function sweepTmp(tmpDir: string, maxAgeMs: number): Promise<void> {
  const names = await readdir(tmpDir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    const file = path.join(tmpDir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > maxAgeMs) await rm(file, { force: true }).catch(() => undefined);
  }
}

function pruneStore(
  folders: { sources: string; blobs: string; out: string },
  used: ReadonlySet<string>,
  maxAgeMs: number,
): Promise<PruneResult> {
  const { sources, blobs, out } = folders;
  // What inspecting a blob found goes with the blob (a warm build reads the blob's record, not its info).
  const usedBlobs = new Set([...used].filter((f) => path.dirname(f) === blobs).map((f) => path.basename(f).split('.')[0]));
  return pruneUnused([sources, blobs, out], used, maxAgeMs, {
    belongsToUsed: (file) => path.dirname(file) === blobs && usedBlobs.has(path.basename(file).split('.')[0]),
    usedAreFresh: true,
  });
}

export function createStore(dir: string): Store {
  const sources = path.join(dir, 'sources');
  const blobs = path.join(dir, 'blobs');
  const out = path.join(dir, 'out');
  const tmpDir = path.join(dir, 'tmp');
  const ensure = createFolderMaker();
  const recordPath = (url: string) => path.join(sources, `${sha256(url)}.json`);
  const { used, use } = createUsageMarks();

  return {
    tmpDir,
    async readRecord(url) {
      // Synchronous like `exists` below: a small local file, read once per original a build uses.
      try {
        const record = JSON.parse(readFileSync(recordPath(url), 'utf8')) as SourceRecord;
        return record.v === RECORD_VERSION && record.url === url ? use(recordPath(url), record) : undefined;
      } catch {
        return undefined;
      }
    },
    async writeRecord(record) {
      await ensure(sources);
      await ensure(tmpDir);
      const tmp = await writeTmpJson(tmpDir, 'rec', { v: RECORD_VERSION, ...record });
      await rename(tmp, use(recordPath(record.url), recordPath(record.url), Date.now()));
    },
    blobPath: (hash, ext) => path.join(blobs, `${hash}.${ext}`),
    async readBlobInfo(hash) {
      try {
        const file = path.join(blobs, `${hash}.json`);
        const info = JSON.parse(readFileSync(file, 'utf8')) as BlobInfo & { v?: number };
        return info.v === RECORD_VERSION ? use(file, info) : undefined;
      } catch {
        return undefined;
      }
    },
    async writeBlobInfo(hash, info) {
      await ensure(blobs);
      await ensure(tmpDir);
      const tmp = await writeTmpJson(tmpDir, 'blob', { v: RECORD_VERSION, ...info });
      await rename(tmp, use(path.join(blobs, `${hash}.json`), path.join(blobs, `${hash}.json`), Date.now()));
    },
    outPath: (name) => path.join(out, name),
    async exists(file) {
      // Synchronous: a warm build asks once for each of its outputs (69,608 at 10,000 releases), and
      // a local stat answers in microseconds, far less than a round trip through libuv's threads.
      try {
        const info = statSync(file, { throwIfNoEntry: false });
        return info ? use(file, info.isFile(), info.mtimeMs) : false;
      } catch {
        return false;
      }
    },
    async sizeOf(file) {
      const info = await stat(file).catch(() => undefined);
      return info?.isFile() ? use(file, info.size, info.mtimeMs) : undefined;
    },
    async tmpPath(hint) {
      await ensure(tmpDir);
      return path.join(tmpDir, `${hint.replace(/[^a-z0-9.-]/gi, '_')}-${process.pid}-${randomBytes(6).toString('hex')}`);
    },
    sweep: (maxAgeMs) => sweepTmp(tmpDir, maxAgeMs),
    prune: (maxAgeMs) => pruneStore({ sources, blobs, out }, used, maxAgeMs),
    async commit(tmp, final) {
      await ensure(path.dirname(final));
      try {
        await rename(tmp, final);
        use(final, undefined, Date.now());
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },
  };
}
