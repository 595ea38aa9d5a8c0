/**
 * Records a snapshot: a `fetch` wrapper that keeps every successful answer,
 * then `save()` writes the bodies (content-addressed) and the manifest.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FetchLike } from '../client/request.ts';
import { MANIFEST_FILE, SNAPSHOT_FORMAT, filePath, recordedUrl, sha256Hex, type Manifest, type ManifestEntry } from './manifest.ts';

export interface SnapshotRecorder {
  fetch: FetchLike;
  /** Writes files and the manifest; entries sorted by URL so the manifest is stable. */
  save(api: Manifest['api'], recordedAt: Date): Promise<Manifest>;
  readonly count: number;
}

export function createSnapshotRecorder(dir: string, inner: FetchLike = (input, init) => fetch(input, init)): SnapshotRecorder {
  const entries = new Map<string, { entry: ManifestEntry; body: Uint8Array }>();
  const recordingFetch: FetchLike = async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 200) return response;
    const body = new Uint8Array(await response.arrayBuffer());
    const url = recordedUrl(input);
    entries.set(url, {
      body,
      entry: {
        url,
        status: 200,
        contentType: response.headers.get('content-type'),
        etag: response.headers.get('etag'),
        bytes: body.length,
        sha256: sha256Hex(body),
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: recordingFetch,
    get count() {
      return entries.size;
    },
    async save(api, recordedAt) {
      await mkdir(path.join(dir, 'files'), { recursive: true });
      for (const { entry, body } of entries.values()) await writeFile(filePath(dir, entry.sha256), body);
      const manifest: Manifest = {
        format: SNAPSHOT_FORMAT,
        api,
        recordedAt: recordedAt.toISOString(),
        entries: [...entries.values()].map((e) => e.entry).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
      };
      const temp = path.join(dir, `${MANIFEST_FILE}.tmp`);
      await writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`);
      await rename(temp, path.join(dir, MANIFEST_FILE));
      return manifest;
    },
  };
}
