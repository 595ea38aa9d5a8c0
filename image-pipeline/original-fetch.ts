/**
 * One original, fetched: the cache record consulted (a usable copy makes the
 * request conditional), the guarded download retried after transport
 * failures, then the new bytes inspected once and kept in the cache with what
 * was found, or why they were refused.
 */
import { rm } from 'node:fs/promises';
import { retrying } from '@pressroom-static/content-loaders';
import { guardedDownload } from './download.ts';
import { copyLocalOriginal } from './local-original.ts';
import { RefusedError, asRefusal } from './errors.ts';
import { acceptedFormats, checkPixels, inspect, type SourceKind } from './inspect.ts';
import { FORMAT_INFO, IMAGE_FORMATS, sniff } from './sniff.ts';
import type { Source, SourcesContext } from './source-types.ts';
import type { BlobInfo, SourceRecord, Store } from './store.ts';

type Downloaded = Extract<Awaited<ReturnType<typeof guardedDownload>>, { status: 'ok' }>;

/**
 * A refusal is remembered only for the use and under the caps that made it (a raised cap looks
 * again; a PDF refused as a picture is still a fine download).
 */
export function capsOf(kind: SourceKind, maxPixels: number): string {
  return `${kind} pixels=${maxPixels}`;
}

export function sourceFrom(store: Store, record: SourceRecord, kind: SourceKind): Source {
  if (record.refused) throw new RefusedError(record.refused.kind, record.refused.message);
  if (kind === 'image' && !IMAGE_FORMATS.has(record.format)) {
    throw new RefusedError('format', `${FORMAT_INFO[record.format].label}, not an accepted image`);
  }
  return { ...record, path: store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) };
}

/** The cache record for `url` when it still holds: a refusal under the same caps, or bytes still on disk. */
async function usableRecord({ store, settings }: SourcesContext, url: string, kind: SourceKind): Promise<SourceRecord | undefined> {
  const record = await store.readRecord(url);
  const held = record && !record.refused ? store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) : undefined;
  return record && (record.refused ? record.refused.caps === capsOf(kind, settings.maxPixels) : held && (await store.exists(held)))
    ? record
    : undefined;
}

function download(ctx: SourcesContext, url: string, kind: SourceKind, usable: SourceRecord | undefined) {
  const { store, stats, settings } = ctx;
  if (ctx.localOriginals.has(url)) {
    const limits = { maxBytes: settings.maxImageBytes, timeoutMs: settings.timeoutMs, stallTimeoutMs: settings.stallTimeoutMs };
    return copyLocalOriginal(url, { ...limits, tmpDir: store.tmpDir });
  }
  const attempt = () =>
    settings.limit(() =>
      guardedDownload({
        url,
        fetch: ctx.fetch,
        policy: ctx.policy,
        maxBytes: kind === 'image' ? settings.maxImageBytes : settings.maxFileBytes,
        timeoutMs: kind === 'image' ? settings.timeoutMs : settings.fileTimeoutMs,
        stallTimeoutMs: settings.stallTimeoutMs,
        tmpDir: store.tmpDir,
        etag: usable?.etag,
        etagUrl: usable?.finalUrl,
      }),
    );
  // Waits happen outside the limiter (`attempt` holds a slot only while it runs), so a waiting retry holds no slot.
  return retrying(
    attempt,
    { ...settings.backoff, retries: settings.retries },
    {
      retryableAfter: (error) => (error instanceof RefusedError && error.retryable ? (error.retryAfterMs ?? null) : undefined),
      onRetry: () => stats.retries++,
    },
  );
}

/** What the downloaded bytes are; a refusal is recorded in the cache before it is thrown. */
async function inspectDownloaded(
  ctx: SourcesContext,
  url: string,
  kind: SourceKind,
  result: Downloaded,
  finalUrl: string | undefined,
  known: BlobInfo | undefined,
): Promise<BlobInfo> {
  const { store, stats, cpu, settings } = ctx;
  const maxPixels = settings.maxPixels;
  try {
    return known && acceptedFormats(kind).has(known.format)
      ? checkPixels(known, maxPixels)
      : await inspect({ stats, cpu, maxPixels }, kind, result.file, result.head, result.tail);
  } catch (error) {
    const refusal = asRefusal(error);
    await store.writeRecord({
      url,
      etag: result.etag,
      finalUrl,
      sha256: result.sha256,
      bytes: result.bytes,
      format: sniff(result.head),
      refused: { kind: refusal.kind, message: refusal.message, caps: capsOf(kind, maxPixels) },
    });
    throw refusal;
  }
}

/** Keeps freshly downloaded bytes: re-uses what is known about them, else inspects them, and records the outcome. */
async function admitDownloaded(
  ctx: SourcesContext,
  url: string,
  kind: SourceKind,
  usable: SourceRecord | undefined,
  result: Downloaded,
): Promise<Source> {
  const { store } = ctx;
  const finalUrl = result.finalUrl === url ? undefined : result.finalUrl;
  // Same bytes as before (a server without ETags): nothing to inspect again.
  if (usable && usable.sha256 === result.sha256) {
    if (usable.etag !== result.etag || usable.finalUrl !== finalUrl) await store.writeRecord({ ...usable, etag: result.etag, finalUrl });
    return sourceFrom(store, usable, kind);
  }
  // The same bytes under another URL: what inspecting them found still holds.
  const known = await store.readBlobInfo(result.sha256);
  const info = await inspectDownloaded(ctx, url, kind, result, finalUrl, known);
  const fresh: SourceRecord = { v: 0, url, etag: result.etag, finalUrl, sha256: result.sha256, bytes: result.bytes, ...info };
  const blob = store.blobPath(result.sha256, FORMAT_INFO[info.format].ext);
  // Already held (same bytes under another URL): the temporary file goes in `finally`.
  if (!(await store.exists(blob))) await store.commit(result.file, blob);
  const { v: _v, ...rest } = fresh;
  if (!known) await store.writeBlobInfo(result.sha256, info);
  await store.writeRecord(rest);
  return { ...fresh, path: blob };
}

export async function fetchOriginal(ctx: SourcesContext, url: string, kind: SourceKind): Promise<Source> {
  const { store, stats } = ctx;
  stats.originals++;
  const usable = await usableRecord(ctx, url, kind);
  if (usable && !usable.refused && ctx.trusted.get(url) === usable.sha256) {
    stats.trusted++;
    return sourceFrom(store, usable, kind);
  }
  const result = await download(ctx, url, kind, usable);
  if (result.status === 'not-modified') {
    stats.notModified++;
    return sourceFrom(store, usable!, kind);
  }
  stats.downloads++;
  stats.downloadedBytes += result.bytes;
  try {
    return await admitDownloaded(ctx, url, kind, usable, result);
  } finally {
    await rm(result.file, { force: true });
  }
}
