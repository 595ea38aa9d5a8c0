/**
 * Are the media originals a build used still the same bytes? Asked by the
 * build's no-change check before anything renders: each original gets the
 * request the pipeline itself would send, under the same host policy and caps
 * (`sources.ts`): conditional, with the cached copy's ETag, when the cache holds
 * the bytes expected (a 304 means those bytes), else a download whose bytes are
 * hashed as they arrive and then dropped. Media URLs need not change when their
 * bytes do (the emulator's never do), so the URL alone proves nothing.
 */
import { rm } from 'node:fs/promises';
import type { FetchLike } from '@pressroom-static/content-loaders';
import { guardedDownload } from './download.ts';
import { copyLocalOriginal } from './local-original.ts';
import { asRefusal } from './errors.ts';
import { createHostPolicy } from './host-policy.ts';
import { createPinnedFetch } from './pinned-fetch.ts';
import { resolveSettings } from './settings.ts';
import { createStore } from './store.ts';
import type { Limit, OriginalOutcome } from './types.ts';

export interface RevalidateOptions {
  /** The fetch of builds that open no socket (snapshot replay, the embedded demo), used when `checkAddresses` is false. */
  fetch: FetchLike;
  limit: Limit;
  apiUrl: string;
  imageHosts?: readonly string[];
  checkAddresses: boolean;
  /** The image cache (`<PRESSROOM_CACHE_DIR or .cache>/images`). */
  cacheDir: string;
}

export interface Revalidation {
  /** The first original whose outcome now differs, in words; undefined when every one is as expected. */
  difference: string | undefined;
  /** Whether that difference is the original's bytes or refusal (not a check that could not be made). */
  changed: boolean;
  /** Requests sent (each one a 304 when nothing changed). */
  requests: number;
}

/** Checks every expected outcome; stops sending requests at the first difference. */
export async function revalidateOriginals(expected: readonly OriginalOutcome[], options: RevalidateOptions): Promise<Revalidation> {
  const settings = resolveSettings({ fetch: options.fetch, apiUrl: options.apiUrl, cacheDir: options.cacheDir });
  const policy = createHostPolicy({ apiUrl: options.apiUrl, imageHosts: options.imageHosts ?? [], checkAddresses: options.checkAddresses });
  const fetch = options.checkAddresses ? createPinnedFetch(policy) : options.fetch;
  const store = createStore(options.cacheDir);
  let difference: string | undefined;
  let changed = false;
  let requests = 0;

  const outcomeNow = async (was: OriginalOutcome): Promise<OriginalOutcome | string> => {
    // A `file:` original with bytes was one of the site's own files (its logo): hashed again from disk.
    // One without was refused by the host policy, and would be again: it is never read.
    if (/^file:/i.test(was.url)) {
      if (!('sha256' in was)) return was;
      const copy = await copyLocalOriginal(was.url, {
        maxBytes: settings.maxImageBytes,
        timeoutMs: settings.timeoutMs,
        stallTimeoutMs: settings.stallTimeoutMs,
        tmpDir: store.tmpDir,
      }).catch(() => undefined);
      if (copy?.status !== 'ok') return { url: was.url, as: was.as, refused: 'network', retryable: false };
      await rm(copy.file, { force: true });
      return { url: was.url, as: was.as, sha256: copy.sha256 };
    }
    const record = 'sha256' in was ? await store.readRecord(was.url) : undefined;
    const held = record && record.sha256 === (was as { sha256: string }).sha256 ? record : undefined;
    requests++;
    try {
      const result = await guardedDownload({
        url: was.url,
        fetch,
        policy,
        maxBytes: was.as === 'image' ? settings.maxImageBytes : settings.maxFileBytes,
        timeoutMs: was.as === 'image' ? settings.timeoutMs : settings.fileTimeoutMs,
        stallTimeoutMs: settings.stallTimeoutMs,
        tmpDir: store.tmpDir,
        etag: held?.etag,
        etagUrl: held?.finalUrl,
      });
      if (result.status === 'not-modified') return { url: was.url, as: was.as, sha256: held!.sha256 };
      await rm(result.file, { force: true });
      return { url: was.url, as: was.as, sha256: result.sha256 };
    } catch (error) {
      const refusal = asRefusal(error);
      // A transport failure says nothing about the bytes: the build will try again.
      if (refusal.retryable) return `could not be checked (${refusal.message})`;
      return { url: was.url, as: was.as, refused: refusal.kind, retryable: false };
    }
  };

  await Promise.all(
    expected.map((was) =>
      options.limit(async () => {
        if (difference !== undefined) return;
        const now = await outcomeNow(was);
        if (difference !== undefined) return;
        if (typeof now === 'string') difference = `the media original ${was.url} ${now}`;
        else if (!sameOutcome(was, now)) {
          difference = `the media original ${was.url} changed (${describe(now)} now, ${describe(was)} when built)`;
          changed = true;
        }
      }),
    ),
  );
  return { difference, changed, requests };
}

function sameOutcome(a: OriginalOutcome, b: OriginalOutcome): boolean {
  if ('sha256' in a) return 'sha256' in b && a.sha256 === b.sha256;
  return 'refused' in b && a.refused === b.refused;
}

function describe(outcome: OriginalOutcome): string {
  return 'sha256' in outcome ? `bytes ${outcome.sha256.slice(0, 12)}…` : `refused (${outcome.refused})`;
}
