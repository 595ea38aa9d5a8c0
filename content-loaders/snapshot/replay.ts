/**
 * Serves a recorded snapshot as a `fetch`: every answer comes from the
 * snapshot folder, no socket is ever opened. A URL that was not recorded, or
 * a file whose bytes no longer match its SHA-256, is an error naming both.
 * A conditional request for the recorded ETag is answered 304 without reading
 * the file, so a rebuild from a snapshot costs what a rebuild from the API does.
 */
import { readFile } from 'node:fs/promises';
import type { FetchLike } from '../client/request.ts';
import { filePath, readManifest, recordedUrl, sha256Hex, type Manifest, type ManifestEntry } from './manifest.ts';

export interface SnapshotReplay {
  manifest: Manifest;
  fetch: FetchLike;
}

export async function openSnapshot(dir: string): Promise<SnapshotReplay> {
  const manifest = await readManifest(dir);
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
      throw new Error(`snapshot file ${filePath(dir, entry.sha256)} for ${url} does not match its SHA-256; the snapshot is damaged, record it again`);
    }
    const headers: Record<string, string> = { 'content-length': String(bytes.length) };
    if (entry.contentType) headers['content-type'] = entry.contentType;
    if (entry.etag) headers.etag = entry.etag;
    return new Response(bytes, { status: entry.status, headers });
  };
  return { manifest, fetch: replayFetch };
}
