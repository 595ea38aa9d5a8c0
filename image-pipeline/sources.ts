/**
 * Originals: each media URL downloaded at most once per build (guarded, by the
 * shared limiter, retried after transport failures with p-retry: full-jitter
 * backoff, the server's Retry-After honoured up to a cap, and no limiter slot
 * held while waiting), as a conditional request when the cache holds a copy,
 * inspected once per distinct bytes, and kept in the on-disk cache with what
 * was found (or why it was refused) so an unchanged original costs one 304
 * and no decode.
 */
import { rm } from 'node:fs/promises';
import type { FetchLike } from '@pressroom-static/content-loaders';
import { retrying } from '@pressroom-static/content-loaders';
import { guardedDownload } from './download.ts';
import { RefusedError, asRefusal, type RefusalKind } from './errors.ts';
import type { HostPolicy } from './host-policy.ts';
import { acceptedFormats, checkPixels, inspect, type SourceKind } from './inspect.ts';
import type { Settings } from './settings.ts';
import { FORMAT_INFO, IMAGE_FORMATS, sniff } from './sniff.ts';
import type { BlobInfo, SourceRecord, Store } from './store.ts';
import type { Limit, OriginalOutcome, PipelineStats } from './types.ts';

/** An original in the cache: what is known about it, and the file holding its bytes. */
export interface Source extends SourceRecord {
  path: string;
}

export interface Sources {
  /** The original behind `url`, once per build; rejects with a RefusedError. */
  source(url: string, kind: SourceKind): Promise<Source>;
  /** Marks a source whose decode failed as refused, on disk too, so later builds skip the decode. */
  markBroken(src: Source, kind: SourceKind, error: RefusedError): Promise<void>;
  /** What every original asked for so far came to, one per URL, by URL (see OriginalOutcome). */
  originals(): Promise<OriginalOutcome[]>;
}

/** Refusals of the bytes themselves: the cache record holds those bytes' SHA-256. */
const REFUSED_FOR_THEIR_BYTES: ReadonlySet<RefusalKind> = new Set(['format', 'pixels', 'broken', 'truncated']);

export interface SourcesContext {
  store: Store;
  stats: PipelineStats;
  settings: Settings;
  /** The sharp job limiter. */
  cpu: Limit;
  fetch: FetchLike;
  policy: HostPolicy;
}

export function createSources({ store, stats, settings, cpu, fetch, policy }: SourcesContext): Sources {
  const { maxPixels, retries, backoff } = settings;
  // A refusal is remembered only for the use and under the caps that made it (a raised cap looks
  // again; a PDF refused as a picture is still a fine download).
  const capsOf = (kind: SourceKind) => `${kind} pixels=${maxPixels}`;
  const sources = new Map<string, Promise<Source>>();

  async function fetchSource(url: string, kind: SourceKind): Promise<Source> {
    stats.originals++;
    const record = await store.readRecord(url);
    const held = record && !record.refused ? store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) : undefined;
    const usable =
      record && (record.refused ? record.refused.caps === capsOf(kind) : held && (await store.exists(held))) ? record : undefined;
    const attempt = () =>
      settings.limit(() =>
        guardedDownload({
          url,
          fetch,
          policy,
          maxBytes: kind === 'image' ? settings.maxImageBytes : settings.maxFileBytes,
          timeoutMs: kind === 'image' ? settings.timeoutMs : settings.fileTimeoutMs,
          stallTimeoutMs: settings.stallTimeoutMs,
          tmpDir: store.tmpDir,
          etag: usable?.etag,
          etagUrl: usable?.finalUrl,
        }),
      );
    // Waits happen outside the limiter (`attempt` holds a slot only while it runs), so a waiting retry holds no slot.
    const result = await retrying(attempt, { ...backoff, retries }, {
      retryableAfter: (error) => (error instanceof RefusedError && error.retryable ? (error.retryAfterMs ?? null) : undefined),
      onRetry: () => stats.retries++,
    });
    if (result.status === 'not-modified') {
      stats.notModified++;
      return sourceFrom(usable!, kind);
    }
    stats.downloads++;
    stats.downloadedBytes += result.bytes;
    const finalUrl = result.finalUrl === url ? undefined : result.finalUrl;
    try {
      // Same bytes as before (a server without ETags): nothing to inspect again.
      if (usable && usable.sha256 === result.sha256) {
        if (usable.etag !== result.etag || usable.finalUrl !== finalUrl) await store.writeRecord({ ...usable, etag: result.etag, finalUrl });
        return sourceFrom(usable, kind);
      }
      let info: BlobInfo;
      // The same bytes under another URL: what inspecting them found still holds.
      const known = await store.readBlobInfo(result.sha256);
      try {
        info =
          known && acceptedFormats(kind).has(known.format)
            ? checkPixels(known, maxPixels)
            : await inspect({ stats, cpu, maxPixels }, kind, result.file, result.head, result.tail);
      } catch (error) {
        const refusal = asRefusal(error);
        await store.writeRecord({ url, etag: result.etag, finalUrl, sha256: result.sha256, bytes: result.bytes, format: sniff(result.head), refused: { kind: refusal.kind, message: refusal.message, caps: capsOf(kind) } });
        throw refusal;
      }
      const fresh: SourceRecord = { v: 0, url, etag: result.etag, finalUrl, sha256: result.sha256, bytes: result.bytes, ...info };
      const blob = store.blobPath(result.sha256, FORMAT_INFO[info.format].ext);
      // Already held (same bytes under another URL): the temporary file goes in `finally`.
      if (!(await store.exists(blob))) await store.commit(result.file, blob);
      const { v: _v, ...rest } = fresh;
      if (!known) await store.writeBlobInfo(result.sha256, info);
      await store.writeRecord(rest);
      return { ...fresh, path: blob };
    } finally {
      await rm(result.file, { force: true });
    }
  }

  function sourceFrom(record: SourceRecord, kind: SourceKind): Source {
    if (record.refused) throw new RefusedError(record.refused.kind, record.refused.message);
    if (kind === 'image' && !IMAGE_FORMATS.has(record.format)) {
      throw new RefusedError('format', `${FORMAT_INFO[record.format].label}, not an accepted image`);
    }
    return { ...record, path: store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) };
  }

  return {
    source(url, kind) {
      const key = `${kind} ${url}`;
      let p = sources.get(key);
      if (!p) {
        p = fetchSource(url, kind).catch((error: unknown) => {
          throw asRefusal(error);
        });
        sources.set(key, p);
      }
      return p;
    },
    async markBroken(src, kind, error) {
      const rejected = Promise.reject(error);
      rejected.catch(() => undefined);
      sources.set(`${kind} ${src.url}`, rejected);
      const { path: _p, v: _v, ...rest } = src;
      await store.writeRecord({ ...rest, refused: { kind: error.kind, message: error.message, caps: capsOf(kind) } });
    },
    async originals() {
      const byUrl = new Map<string, OriginalOutcome>();
      for (const [key, pending] of sources) {
        const as = key.slice(0, key.indexOf(' ')) as SourceKind;
        const url = key.slice(key.indexOf(' ') + 1);
        const outcome = await pending.then(
          (src): OriginalOutcome => ({ url, as, sha256: src.sha256 }),
          async (error: RefusedError): Promise<OriginalOutcome> => {
            const record = !error.retryable && REFUSED_FOR_THEIR_BYTES.has(error.kind) ? await store.readRecord(url) : undefined;
            return record ? { url, as, sha256: record.sha256 } : { url, as, refused: error.kind, retryable: error.retryable };
          },
        );
        // Asked for as a picture and as a download: the outcome that has bytes says most.
        const held = byUrl.get(url);
        if (!held || (!('sha256' in held) && 'sha256' in outcome)) byUrl.set(url, outcome);
      }
      return [...byUrl.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    },
  };
}
