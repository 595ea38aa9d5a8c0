/**
 * On-disk cache for conditional requests: the body and ETag of every 200 that
 * carried an ETag, so the next build sends `If-None-Match` and a `304` costs
 * no body bytes.
 *
 * One file per URL, named by SHA-256 of the key fingerprint and the URL (the
 * URL never holds a secret; the fingerprint keeps two API keys from ever
 * sharing an entry). File = one JSON header line + the raw body; the header
 * carries the body's length and SHA-256 so a damaged file reads as a miss.
 * Writes go to a temp file then `rename`, so a reader never sees half a file;
 * temp files of a killed build are removed when the next build opens the cache.
 * Entries this build used are noted; `prune` removes those no build has used
 * for a while (content-loaders/cache-pruning.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pruneUnused, type PruneResult } from '../cache-pruning.ts';

export interface CachedResponse {
  etag: string;
  body: Buffer;
  /** The body's SHA-256 (hex), checked against the body as the entry was read. */
  sha256: string;
}

export interface HttpCacheStats {
  lookups: number;
  /** Lookups that found a usable entry (sent as If-None-Match; the 304s are counted by the client). */
  found: number;
  stores: number;
  /** Unreadable or damaged entries treated as misses. */
  damaged: number;
}

export interface HttpCache {
  readonly dir: string;
  lookup(url: string): Promise<CachedResponse | undefined>;
  /** `sha256`: the body's SHA-256 (hex), which the caller has already computed for its answers. */
  store(url: string, etag: string, body: Buffer, sha256: string): Promise<void>;
  stats(): HttpCacheStats;
  /** Removes entries no build has used for `maxAgeMs`; this build's entries are marked fresh. */
  prune(maxAgeMs: number): Promise<PruneResult>;
}

interface EntryHeader {
  v: 1;
  etag: string;
  length: number;
  sha256: string;
}

/** A short, one-way fingerprint of the API key ("anonymous" without one). Never reversible to the key. */
export function keyFingerprint(apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey === '') return 'anonymous';
  return createHash('sha256').update(`pressroom-static cache key\n${apiKey}`, 'utf8').digest('hex').slice(0, 16);
}

export function cacheEntryName(url: string, fingerprint: string): string {
  return createHash('sha256').update(`${fingerprint}\n${url}`, 'utf8').digest('hex');
}

export function createHttpCache(options: { dir: string; apiKey?: string }): HttpCache {
  const dir = path.resolve(options.dir);
  const fingerprint = keyFingerprint(options.apiKey);
  const counters: HttpCacheStats = { lookups: 0, found: 0, stores: 0, damaged: 0 };
  let ready: Promise<unknown> | undefined;
  const fileFor = (url: string): string => path.join(dir, `${cacheEntryName(url, fingerprint)}.entry`);
  const used = new Set<string>();
  void sweepInterruptedWrites(dir);

  return {
    dir,

    async lookup(url) {
      counters.lookups++;
      let raw: Buffer;
      try {
        raw = await readFile(fileFor(url));
      } catch {
        return undefined;
      }
      const newline = raw.indexOf(0x0a);
      try {
        if (newline < 0) throw new Error('no header');
        const header = JSON.parse(raw.subarray(0, newline).toString('utf8')) as EntryHeader;
        const body = raw.subarray(newline + 1);
        if (header.v !== 1 || typeof header.etag !== 'string' || body.length !== header.length) throw new Error('bad header');
        if (createHash('sha256').update(body).digest('hex') !== header.sha256) throw new Error('bad body');
        counters.found++;
        used.add(fileFor(url));
        return { etag: header.etag, body, sha256: header.sha256 };
      } catch {
        counters.damaged++;
        return undefined;
      }
    },

    async store(url, etag, body, sha256) {
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      const header: EntryHeader = { v: 1, etag, length: body.length, sha256 };
      const file = fileFor(url);
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), body]));
        await rename(temp, file);
        used.add(file);
        counters.stores++;
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
    },

    stats() {
      return { ...counters };
    },

    prune(maxAgeMs) {
      return pruneUnused([dir], used, maxAgeMs);
    },
  };
}

const TEMP_FILE = /\.entry\.(\d+)\.[0-9a-f]+\.tmp$/;
/** A temp file this old is left over whoever wrote it (a cache shared between machines). */
const ABANDONED_MS = 24 * 60 * 60 * 1000;

/** Removes temp files whose writer is gone: a process no longer running here, or a day old. Best effort. */
export async function sweepInterruptedWrites(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = TEMP_FILE.exec(name);
    if (!match) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info) continue;
    if (isRunning(Number(match[1])) && Date.now() - info.mtimeMs < ABANDONED_MS) continue;
    await rm(file, { force: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
