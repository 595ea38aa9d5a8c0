/**
 * Serves a recorded snapshot as a `fetch`: every answer comes from the
 * snapshot folder, no socket is ever opened. A URL that was not recorded, or
 * a file whose bytes no longer match its SHA-256, is an error naming both.
 * Every file is checked against its size and SHA-256 when the snapshot is
 * opened, before anything is built, so a damaged or missing file stops the
 * build with one line naming it, whether or not a cache already holds what it
 * once was (a conditional request for the recorded ETag is then answered 304
 * without reading the file again).
 */
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FetchLike } from '../client/transport.ts';
import { filePath, readManifest, recordedUrl, sha256Hex, type Manifest, type ManifestEntry } from './manifest.ts';

export interface SnapshotReplay {
  manifest: Manifest;
  fetch: FetchLike;
}

export async function openSnapshot(dir: string): Promise<SnapshotReplay> {
  const manifest = await readManifest(dir);
  await verifySnapshotFiles(dir, manifest);
  const byUrl = new Map<string, ManifestEntry>(manifest.entries.map((e) => [e.url, e]));
  const replayFetch: FetchLike = async (input, init) => {
    const url = recordedUrl(input);
    const entry = byUrl.get(url);
    if (!entry) {
      throw new Error(`${url} is not in the snapshot at ${dir}; record a new one with 'npm run snapshot -- --out ${dir}'`);
    }
    const validators = new Headers(init?.headers).get('if-none-match');
    if (entry.etag && validators?.split(',').some((v) => v.trim() === entry.etag)) {
      return new Response(null, { status: 304, headers: { etag: entry.etag } });
    }
    const bytes = await readFile(filePath(dir, entry.sha256));
    if (bytes.length !== entry.bytes || sha256Hex(bytes) !== entry.sha256) {
      throw new Error(
        `snapshot file ${filePath(dir, entry.sha256)} for ${url} does not match its SHA-256; the snapshot is damaged, record it again`,
      );
    }
    const headers: Record<string, string> = { 'content-length': String(bytes.length) };
    if (entry.contentType) headers['content-type'] = entry.contentType;
    if (entry.etag) headers.etag = entry.etag;
    return new Response(bytes, { status: entry.status, headers });
  };
  return { manifest, fetch: replayFetch };
}

const VERIFY_AT_ONCE = 4;

/** Hashes every file of the snapshot (streamed, a few at once); throws one line naming the first damaged or missing one. */
export async function verifySnapshotFiles(dir: string, manifest: Manifest): Promise<void> {
  const bySha = new Map<string, ManifestEntry>();
  for (const entry of manifest.entries) if (!bySha.has(entry.sha256)) bySha.set(entry.sha256, entry);
  const queue = [...bySha.values()];
  let problem: Error | undefined;
  const worker = async () => {
    for (let entry = queue.shift(); entry && !problem; entry = queue.shift()) {
      const file = filePath(dir, entry.sha256);
      const found = await hashFile(file).catch((error: NodeJS.ErrnoException) => error);
      if (found instanceof Error) {
        problem ??= new Error(
          found.code === 'ENOENT'
            ? `snapshot file ${file} for ${entry.url} is missing; the snapshot is damaged, record it again`
            : `cannot read snapshot file ${file} for ${entry.url} (${found.code ?? found.message})`,
        );
      } else if (found.bytes !== entry.bytes || found.sha256 !== entry.sha256) {
        problem ??= new Error(
          `snapshot file ${file} for ${entry.url} does not match its SHA-256 (${found.bytes} bytes, ${entry.bytes} recorded); the snapshot is damaged, record it again`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: VERIFY_AT_ONCE }, worker));
  if (problem) throw problem;
}

async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    bytes += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { bytes, sha256: hash.digest('hex') };
}
