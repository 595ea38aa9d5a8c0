/**
 * Records a snapshot. API answers go through `fetch` (buffered, since the
 * caller parses them) and media originals through `download` (streamed to
 * disk while hashed, so memory stays flat however large the press room);
 * either way the body is written at once, content-addressed, and only its
 * manifest entry stays in memory. `save()` writes the manifest last, so a
 * folder holds a usable snapshot only once recording has finished.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchLike } from '../client/transport.ts';
import { formatBytes } from '../format-bytes.ts';
import { MANIFEST_FILE, SNAPSHOT_FORMAT, filePath, recordedUrl, sha256Hex, type Manifest, type ManifestEntry } from './manifest.ts';

/**
 * How a media original is opened: the answer at the end of its redirects. The product passes the
 * image pipeline's guarded opener (host policy on every hop, connections pinned to checked
 * addresses: scripts/snapshot.ts); the default follows redirects with the recorder's fetch.
 */
export type OpenMedia = (url: string, signal: AbortSignal | undefined) => Promise<Response>;

export interface SnapshotRecorder {
  /** For the API client: answers 200 are recorded and handed back. */
  fetch: FetchLike;
  /** Records one media original, streamed to disk; rejects on a non-200 answer or past `maxBytes`. */
  download(url: string, options?: { signal?: AbortSignal; maxBytes?: number; open?: OpenMedia }): Promise<ManifestEntry>;
  /** Writes the manifest; entries sorted by URL so it is stable. */
  save(api: Manifest['api'], recordedAt: Date): Promise<Manifest>;
  readonly count: number;
}

/** Media originals larger than this are refused (the image pipeline's own cap for files). */
export const SNAPSHOT_MAX_MEDIA_BYTES = 1024 * 1024 * 1024;

export interface RecorderOptions {
  /**
   * What to keep of an API answer's body (`public-only.ts`: nothing that is not public); null
   * records a 404 instead. A body that changes gets an ETag of its own.
   */
  keep?: (body: Uint8Array, url: string) => Uint8Array | null;
}

const MISSING = Buffer.from('{"error":{"status":404,"message":"Missing"}}');

export function createSnapshotRecorder(
  dir: string,
  inner: FetchLike = (input, init) => fetch(input, init),
  { keep }: RecorderOptions = {},
): SnapshotRecorder {
  const filesDir = path.join(dir, 'files');
  const entries = new Map<string, ManifestEntry>();
  let ready: Promise<unknown> | undefined;
  const filesReady = () => (ready ??= mkdir(filesDir, { recursive: true }));
  const tempFile = () => path.join(filesDir, `.partial-${process.pid}-${randomBytes(6).toString('hex')}`);

  const record = (
    url: string,
    response: Response,
    sha256: string,
    bytes: number,
    status = 200,
    etag = response.headers.get('etag'),
  ): ManifestEntry => {
    const entry: ManifestEntry = { url, status, contentType: response.headers.get('content-type'), etag, bytes, sha256 };
    entries.set(url, entry);
    return entry;
  };

  const recordingFetch: FetchLike = async (input, init) => {
    const response = await inner(input, init);
    if (response.status !== 200) return response;
    const received = new Uint8Array(await response.arrayBuffer());
    const kept = keep ? keep(received, recordedUrl(input)) : received;
    const body = kept ?? MISSING;
    const sha256 = sha256Hex(body);
    await filesReady();
    const temp = tempFile();
    await writeFile(temp, body);
    await rename(temp, filePath(dir, sha256));
    const status = kept ? 200 : 404;
    const etag = body === received ? response.headers.get('etag') : `"${sha256.slice(0, 32)}"`;
    record(recordedUrl(input), response, sha256, body.length, status, etag);
    const headers = new Headers(response.headers);
    if (etag) headers.set('etag', etag);
    headers.delete('content-length');
    return new Response(body as Uint8Array<ArrayBuffer>, { status, statusText: kept ? response.statusText : 'Not Found', headers });
  };

  const openPlain: OpenMedia = (url, signal) => inner(url, signal ? { signal } : {});

  async function download(
    url: string,
    { signal, maxBytes = SNAPSHOT_MAX_MEDIA_BYTES, open = openPlain }: { signal?: AbortSignal; maxBytes?: number; open?: OpenMedia } = {},
  ): Promise<ManifestEntry> {
    const response = await open(url, signal);
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${response.status}`);
    }
    await filesReady();
    const temp = tempFile();
    try {
      const { sha256, bytes } = await streamToFile(response.body as WebReadableStream<Uint8Array>, temp, maxBytes);
      await rename(temp, filePath(dir, sha256));
      return record(recordedUrl(url), response, sha256, bytes);
    } finally {
      await rm(temp, { force: true });
    }
  }

  return {
    fetch: recordingFetch,
    download,
    get count() {
      return entries.size;
    },
    async save(api, recordedAt) {
      await filesReady();
      return writeManifest(dir, [...entries.values()], api, recordedAt);
    },
  };
}

/** Streams a body into `file` while hashing it; rejects past `maxBytes`. */
async function streamToFile(
  body: WebReadableStream<Uint8Array>,
  file: string,
  maxBytes: number,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new Error(`more than ${formatBytes(maxBytes)}`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(body), counted, createWriteStream(file));
  return { sha256: hash.digest('hex'), bytes };
}

/** The manifest, entries sorted by URL (the same recording gives the same bytes), written last and at once. */
async function writeManifest(dir: string, entries: ManifestEntry[], api: Manifest['api'], recordedAt: Date): Promise<Manifest> {
  const manifest: Manifest = {
    format: SNAPSHOT_FORMAT,
    api,
    recordedAt: recordedAt.toISOString(),
    entries: entries.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
  };
  const temp = path.join(dir, `${MANIFEST_FILE}.tmp`);
  await writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(temp, path.join(dir, MANIFEST_FILE));
  return manifest;
}
