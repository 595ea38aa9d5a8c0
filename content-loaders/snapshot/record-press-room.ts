/**
 * Records everything a build needs into a snapshot folder: every API answer
 * the loaders request (the same sources, so nothing is missed) and every media
 * original those answers point to.
 */
import { createNewsroomClient } from '../client/index.ts';
import { defaultSleep, retrying, type RetryPolicy } from '../client/retry.ts';
import { mediaOriginalUrls } from '../media-urls.ts';
import { admitItem } from '../data-policy/admit.ts';
import { SOURCES } from '../sources/index.ts';
import { fetchAll, fetchOnlyContext, type CollectionSource } from '../sources/source.ts';
import { createSnapshotRecorder, type OpenMedia } from './record.ts';
import { publicAnswer } from './public-only.ts';
import type { Manifest } from './manifest.ts';

export interface RecordOptions {
  config: { apiUrl: string | undefined; pressroomId: string | undefined; readonly apiKey: string | undefined; concurrency: number };
  /** The instant (ms) that decides what is public yet (default: now). */
  now?: number;
  out: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** The bundled demo press room: noted in the manifest, so builds from it are marked as a demo. */
  demo?: boolean;
  /** Per media download (default 60 s). */
  mediaTimeoutMs?: number;
  /** How media originals are opened (default: the recorder's fetch, redirects followed unchecked). */
  openMedia?: OpenMedia;
}

export interface RecordResult {
  manifest: Manifest;
  apiResponses: number;
  mediaFiles: number;
  /** Media URLs that could not be downloaded (each also logged). */
  mediaFailures: string[];
  bytes: number;
}

const MEDIA_RETRIES: RetryPolicy = {
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  retryAfterCapMs: 30_000,
  random: Math.random,
  sleep: defaultSleep,
};

export async function recordSnapshot({
  config,
  out,
  log = () => {},
  mediaTimeoutMs = 60_000,
  openMedia,
  demo = false,
  now = Date.now(),
}: RecordOptions): Promise<RecordResult> {
  if (!config.apiUrl || !config.pressroomId) throw new Error('recordSnapshot needs an API URL and a press room id');
  // A snapshot travels (offline archives pack it): it keeps only what is public, whatever the key could read.
  const recorder = createSnapshotRecorder(out, undefined, {
    keep: (body, url) =>
      publicAnswer(body, now, {
        releases: /\/press_releases(\.json)?([/?]|$)/.test(new URL(url).pathname) && !/\/count$/.test(new URL(url).pathname),
      }),
  });
  const client = createNewsroomClient({
    baseUrl: config.apiUrl,
    pressroomId: config.pressroomId,
    apiKey: config.apiKey,
    concurrency: config.concurrency,
    fetch: recorder.fetch,
  });

  // Every source at once, as a build runs its loaders: the client's limiter bounds the requests.
  // Items go through the data policy as in a build, so media are recorded for published items only.
  const published: unknown[] = [];
  const policy = { ...fetchOnlyContext(), now, log };
  await Promise.all(
    Object.values(SOURCES).map(async (source) => {
      await fetchAll(source.fetch(client, policy), ({ endpoint, items }) => {
        for (const item of items) {
          const admitted = admitItem(item, { ...(source as CollectionSource), endpoint }, policy);
          if (admitted !== null) published.push(admitted);
        }
      });
      log(`api: ${source.collection} recorded`);
    }),
  );
  const apiResponses = recorder.count;

  // Media downloads share the client's limiter (one concurrency budget); no client call runs inside it.
  const urls = [...mediaOriginalUrls(published)];
  const limit = client.limit;
  const failures: string[] = [];
  let done = 0;
  await Promise.all(
    urls.map((url) =>
      limit(async () => {
        try {
          // A transient failure (a 503, a reset) gets two more tries, with jittered backoff, before the original is left out.
          await retrying(
            () => recorder.download(url, { signal: AbortSignal.timeout(mediaTimeoutMs), ...(openMedia && { open: openMedia }) }),
            MEDIA_RETRIES,
            {
              retryableAfter: () => null,
            },
          );
        } catch (error) {
          failures.push(url);
          log(`media: could not download ${url} (${(error as Error).message}); it is left out of the snapshot`);
        }
        if (++done % 100 === 0 || done === urls.length) log(`media: ${done}/${urls.length} originals`);
      }),
    ),
  );

  const manifest = await recorder.save({ baseUrl: client.baseUrl, pressroomId: client.pressroomId, ...(demo && { demo }) }, new Date());
  return {
    manifest,
    apiResponses,
    mediaFiles: urls.length - failures.length,
    mediaFailures: failures,
    bytes: manifest.entries.reduce((n, e) => n + e.bytes, 0),
  };
}
