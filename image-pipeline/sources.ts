/**
 * Originals: each media URL downloaded at most once per build (guarded, by the
 * shared limiter, retried after transport failures with p-retry: full-jitter
 * backoff, the server's Retry-After honoured up to a cap, and no limiter slot
 * held while waiting), as a conditional request when the cache holds a copy,
 * inspected once per distinct bytes, and kept in the on-disk cache with what
 * was found (or why it was refused) so an unchanged original costs one 304
 * and no decode.
 */
import { RefusedError, asRefusal, type RefusalKind } from './errors.ts';
import type { SourceKind } from './inspect.ts';
import { capsOf, fetchOriginal } from './original-fetch.ts';
import type { Source, SourcesContext } from './source-types.ts';
import type { Store } from './store.ts';
import type { OriginalOutcome } from './types.ts';

export type { Source, SourcesContext } from './source-types.ts';

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

/** What every original asked for so far came to, one per URL (the one with bytes when asked for twice), by URL. */
async function outcomesByUrl(sources: ReadonlyMap<string, Promise<Source>>, store: Store): Promise<OriginalOutcome[]> {
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
}

export function createSources(context: SourcesContext): Sources {
  const { store, settings } = context;
  const sources = new Map<string, Promise<Source>>();
  return {
    source(url, kind) {
      const key = `${kind} ${url}`;
      let p = sources.get(key);
      if (!p) {
        p = fetchOriginal(context, url, kind).catch((error: unknown) => {
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
      await store.writeRecord({ ...rest, refused: { kind: error.kind, message: error.message, caps: capsOf(kind, settings.maxPixels) } });
    },
    originals: () => outcomesByUrl(sources, store),
  };
}
