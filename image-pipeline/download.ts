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
import type { FetchLike } from '@pressroom-static/content-loaders';
import { parseRetryAfter } from '@pressroom-static/content-loaders';
import { formatBytes } from '@pressroom-static/content-loaders';
import { streamBodyToFile } from './download-body.ts';
import { createDownloadGuard } from './download-guard.ts';
import { networkMessage, RefusedError } from './errors.ts';
import type { HostPolicy } from './host-policy.ts';

const MAX_REDIRECTS = 5;

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
export async function openGuarded(
  start: string,
  { fetch, policy, signal, validator }: OpenOptions,
): Promise<{ response: Response; url: URL }> {
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
  const guard = createDownloadGuard(options.timeoutMs, options.stallTimeoutMs);
  try {
    const { response, url } = await openGuarded(options.url, {
      fetch: options.fetch,
      policy: options.policy,
      signal: guard.signal,
      // The ETag belongs to the resource the held copy came from: ask that address (its query may
      // differ: signed URLs), never a hop that only redirects there, which could answer 304 for it.
      validator: (url) => (options.etag && sameResource(url, options.etagUrl ?? options.url) ? options.etag : undefined),
    });
    if (response.status === 304 && options.etag) {
      await response.body?.cancel().catch(() => undefined);
      return { status: 'not-modified' };
    }
    const declared = await acceptedLength(response, options.maxBytes);
    if (!response.body) throw new RefusedError('truncated', 'empty body');
    const body = await streamBodyToFile(response.body, { tmpDir: options.tmpDir, maxBytes: options.maxBytes, declared }, guard);
    return { status: 'ok', ...body, etag: response.headers.get('etag') ?? undefined, finalUrl: url.href };
  } catch (error) {
    const why = guard.reason();
    if (why && !(error instanceof RefusedError)) throw why;
    throw error;
  } finally {
    guard.dispose();
  }
}

/**
 * Refuses an answer that is not a 2xx or declares more than `maxBytes`, cancelling its body;
 * returns its declared Content-Length, if it gave a valid one.
 */
async function acceptedLength(response: Response, maxBytes: number): Promise<number | undefined> {
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => undefined);
    const status = response.status;
    const retryable = status >= 500 || status === 429 || status === 408;
    throw new RefusedError(
      'http',
      `HTTP ${status}`,
      retryable,
      retryable ? parseRetryAfter(response.headers.get('retry-after')) : undefined,
    );
  }
  const declaredHeader = response.headers.get('content-length');
  const declared = declaredHeader !== null && /^\s*\d+\s*$/.test(declaredHeader) ? Number(declaredHeader) : undefined;
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new RefusedError('too-large', `${formatBytes(declared)} is over the cap of ${formatBytes(maxBytes)}`);
  }
  return declared;
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
