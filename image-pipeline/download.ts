/**
 * One guarded download: host policy on every hop (redirects are followed by
 * hand, at most MAX_REDIRECTS, never from https down to http), a conditional
 * GET when a validator is known, a deadline for the whole download and a
 * stall timer per chunk, a byte cap (declared Content-Length first, then as
 * the body streams), and the body streamed to a temporary file while it is
 * hashed, so memory stays flat whatever the file size. The first and last
 * bytes are kept for sniffing.
 *
 * In live builds `fetch` is the pinned fetch (`pinned-fetch.ts`): the policy
 * checks again when the socket opens, and a refusal there surfaces here as
 * the policy's own RefusedError.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, innermostMessage, oneLine } from '@pressroom-static/content-loaders';
import type { FetchLike } from '@pressroom-static/content-loaders';
import { parseRetryAfter } from '@pressroom-static/content-loaders';
import { formatBytes } from '@pressroom-static/content-loaders';
import { RefusedError } from './errors.ts';
import type { HostPolicy } from './host-policy.ts';
import { SNIFF_BYTES } from './sniff.ts';

const MAX_REDIRECTS = 5;
const TAIL_BYTES = 64;

export interface DownloadOptions {
  url: string;
  fetch: FetchLike;
  policy: HostPolicy;
  maxBytes: number;
  timeoutMs: number;
  stallTimeoutMs: number;
  /** Folder for the temporary file (same file system as the cache, so a rename moves it). */
  tmpDir: string;
  /** ETag of the copy already held: sent as If-None-Match to the address it came from. */
  etag?: string | undefined;
  /** Where the held copy came from after redirects (default `url`). */
  etagUrl?: string | undefined;
}

export type DownloadResult =
  | { status: 'not-modified' }
  | {
      status: 'ok';
      /** Temporary file holding the body; the caller moves or deletes it. */
      file: string;
      sha256: string;
      bytes: number;
      head: Buffer;
      tail: Buffer;
      etag: string | undefined;
      /** The URL the body came from after redirects. */
      finalUrl: string;
    };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface OpenOptions {
  fetch: FetchLike;
  policy: HostPolicy;
  signal: AbortSignal;
  /** The If-None-Match to send to a hop, if any. */
  validator?: (url: URL) => string | undefined;
}

/**
 * The answer at the end of `start`'s redirects, each hop checked by the host policy first:
 * at most MAX_REDIRECTS, never from https down to http. Rejects with a RefusedError
 * (or with the signal's reason once it is aborted).
 */
export async function openGuarded(start: string, { fetch, policy, signal, validator }: OpenOptions): Promise<{ response: Response; url: URL }> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    throw new RefusedError('host', 'not a valid URL');
  }
  for (let hop = 0; ; hop++) {
    await policy.check(url);
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'identity' };
    const etag = validator?.(url);
    if (etag) headers['if-none-match'] = etag;
    let response: Response;
    try {
      response = await fetch(url.href, { method: 'GET', headers, redirect: 'manual', signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw refusalInside(error) ?? new RefusedError('network', `could not download (${networkMessage(error)})`, true);
    }
    if (!REDIRECTS.has(response.status)) return { response, url };
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (!location) throw new RefusedError('redirect', `HTTP ${response.status} without a Location`);
    if (hop + 1 > MAX_REDIRECTS) throw new RefusedError('redirect', `more than ${MAX_REDIRECTS} redirects`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new RefusedError('redirect', 'redirect to an invalid URL');
    }
    if (url.protocol === 'https:' && next.protocol === 'http:') {
      throw new RefusedError('redirect', `redirect from ${url.host} to plain http://${next.host} refused (an https→http downgrade)`);
    }
    url = next;
  }
}

export async function guardedDownload(options: DownloadOptions): Promise<DownloadResult> {
  const controller = new AbortController();
  let why: RefusedError | undefined;
  const abort = (reason: RefusedError) => {
    why ??= reason;
    controller.abort(reason);
  };
  const deadline = setTimeout(
    () => abort(new RefusedError('timeout', `no complete download within ${Math.round(options.timeoutMs / 1000)} s`, true)),
    options.timeoutMs,
  );
  let stall: ReturnType<typeof setTimeout> | undefined;
  const armStall = () => {
    if (stall !== undefined) clearTimeout(stall);
    stall = setTimeout(() => abort(new RefusedError('timeout', `the download stalled (no bytes for ${Math.round(options.stallTimeoutMs / 1000)} s)`, true)), options.stallTimeoutMs);
  };

  let tmp: string | undefined;
  try {
    const opened = await openGuarded(options.url, {
      fetch: options.fetch,
      policy: options.policy,
      signal: controller.signal,
      // The ETag belongs to the resource the held copy came from: ask that address (its query may
      // differ: signed URLs), never a hop that only redirects there, which could answer 304 for it.
      validator: (url) => (options.etag && sameResource(url, options.etagUrl ?? options.url) ? options.etag : undefined),
    });
    const { response } = opened;
    const url = opened.url;

    if (response.status === 304 && options.etag) {
      await response.body?.cancel().catch(() => undefined);
      return { status: 'not-modified' };
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      const status = response.status;
      const retryable = status >= 500 || status === 429 || status === 408;
      throw new RefusedError('http', `HTTP ${status}`, retryable, retryable ? parseRetryAfter(response.headers.get('retry-after')) : undefined);
    }
    const declaredHeader = response.headers.get('content-length');
    const declared = declaredHeader !== null && /^\s*\d+\s*$/.test(declaredHeader) ? Number(declaredHeader) : undefined;
    if (declared !== undefined && declared > options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new RefusedError('too-large', `${formatBytes(declared)} is over the cap of ${formatBytes(options.maxBytes)}`);
    }
    if (!response.body) throw new RefusedError('truncated', 'empty body');

    await mkdir(options.tmpDir, { recursive: true });
    tmp = path.join(options.tmpDir, `dl-${process.pid}-${randomBytes(6).toString('hex')}`);
    const out = createWriteStream(tmp);
    const outDone = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    const hash = createHash('sha256');
    const headChunks: Buffer[] = [];
    let headLength = 0;
    let tail = Buffer.alloc(0);
    let received = 0;
    const reader = response.body.getReader();
    armStall();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (why) throw why;
          throw new RefusedError('truncated', `the connection closed before the body was complete (${networkMessage(error)})`, true);
        }
        if (chunk.done) break;
        armStall();
        const bytes = Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength);
        received += bytes.length;
        if (received > options.maxBytes) {
          abort(new RefusedError('too-large', `more than the cap of ${formatBytes(options.maxBytes)}`));
          throw why!;
        }
        hash.update(bytes);
        if (headLength < SNIFF_BYTES) {
          headChunks.push(bytes.subarray(0, SNIFF_BYTES - headLength));
          headLength += Math.min(bytes.length, SNIFF_BYTES - headLength);
        }
        tail = bytes.length >= TAIL_BYTES ? Buffer.from(bytes.subarray(bytes.length - TAIL_BYTES)) : Buffer.concat([tail, bytes]).subarray(-TAIL_BYTES);
        if (!out.write(bytes)) await new Promise<void>((resolve) => out.once('drain', resolve));
      }
    } finally {
      if (stall !== undefined) clearTimeout(stall);
      reader.releaseLock();
      out.end();
      await outDone.catch(() => undefined);
    }
    if (declared !== undefined && received !== declared) {
      throw new RefusedError('truncated', `the body ended after ${formatBytes(received)} of ${formatBytes(declared)}`, true);
    }
    if (received === 0) throw new RefusedError('truncated', 'empty body');
    const file = tmp;
    tmp = undefined;
    return {
      status: 'ok',
      file,
      sha256: hash.digest('hex'),
      bytes: received,
      head: Buffer.concat(headChunks),
      tail,
      etag: response.headers.get('etag') ?? undefined,
      finalUrl: url.href,
    };
  } catch (error) {
    if (why && !(error instanceof RefusedError)) throw why;
    throw error;
  } finally {
    clearTimeout(deadline);
    if (stall !== undefined) clearTimeout(stall);
    if (tmp) await rm(tmp, { force: true });
  }
}

function sameResource(url: URL, other: string): boolean {
  try {
    const o = new URL(other);
    return url.origin === o.origin && url.pathname === o.pathname;
  } catch {
    return false;
  }
}

/** A RefusedError somewhere in a fetch error's cause chain (the pinned connection refused the address). */
function refusalInside(error: unknown): RefusedError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof RefusedError) return e;
  }
  return undefined;
}

/** The innermost code and message of a fetch error chain, on one line. */
function networkMessage(error: unknown): string {
  const code = errorCode(error);
  const message = innermostMessage(error);
  return oneLine(code ? `${code}: ${message}` : message).slice(0, 200);
}
