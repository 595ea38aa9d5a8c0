/**
 * What every loader of one build shares: one client (one limiter, one HTTP
 * cache), the data policy's log and the build's clock, made from the options:
 * live from `apiUrl`, or replayed from a `snapshot` with no network at all.
 *
 * A runtime is a plain value: whoever builds the site decides how long it
 * lives and who shares it (`pressroomLoaders(options)` makes one on first use
 * for its collections; an application whose config, integrations and content
 * config run in separate module graphs keeps its own handle and passes
 * `runtime`).
 */
import path from 'node:path';
import { createNewsroomClient, type NewsroomClient } from './client/index.ts';
import type { FetchLike } from './client/transport.ts';
import { openSnapshot } from './snapshot/replay.ts';
import type { Manifest } from './snapshot/manifest.ts';
import { DataIssues } from './data-policy/issues.ts';
import { createBodyFiles, type BodyFiles } from './html/body-files.ts';
import { LoaderOptionsError, parseLoaderOptions, type LoaderOptions, type ResolvedLoaderOptions } from './options.ts';

export interface CollectionReport {
  collection: string;
  /** Set for a targeted refresh: how many items it was asked for (the others were left as they were). */
  named?: number;
  entries: number;
  added: number;
  changed: number;
  removed: number;
  requests: number;
  retries: number;
  notModified: number;
  bytes: number;
  ms: number;
}

export interface LoaderRuntime {
  /** The checked options (the API key is not among its enumerable fields). */
  options: ResolvedLoaderOptions;
  client: NewsroomClient;
  /** The fetch every download must use (the snapshot's in replay mode). */
  fetch: FetchLike;
  /** `supplied`: requests go through the `fetch` of the options (an in-process API, a proxy). */
  mode: 'live' | 'snapshot' | 'supplied';
  /** The snapshot's manifest in snapshot mode. */
  snapshot: Manifest | undefined;
  /** Filled by each loader as it finishes; read by an end-of-sync summary. */
  reports: CollectionReport[];
  /** What the data policy did (warnings, skipped and non-public items), shared by every loader of the build. */
  issues: DataIssues;
  /** The build's clock for embargoes (ms). */
  now: number;
  startedAt: number;
  /** Where release bodies are kept out of the data store (the `bodyDir` option); none: bodies stay in the entries. */
  bodies: BodyFiles | undefined;
}

/** The options without the key as an enumerable field, so logging a runtime never prints it. */
function withHiddenKey(options: ResolvedLoaderOptions): ResolvedLoaderOptions {
  const { apiKey, ...rest } = options;
  const copy = rest as ResolvedLoaderOptions;
  Object.defineProperty(copy, 'apiKey', { value: apiKey, enumerable: false });
  return copy;
}

export async function createLoaderRuntime(input: LoaderOptions): Promise<LoaderRuntime> {
  const options = withHiddenKey(parseLoaderOptions(input));
  const { settingNames } = options;
  const common = { concurrency: options.concurrency, apiKey: options.apiKey, settingNames };
  const shared = {
    options,
    reports: [],
    issues: new DataIssues({ strict: options.strict, strictName: settingNames.strict }),
    now: options.now ?? Date.now(),
    startedAt: performance.now(),
    bodies: options.bodyDir ? createBodyFiles(options.bodyDir) : undefined,
  };
  if (options.snapshot) {
    let replay;
    try {
      replay = await openSnapshot(path.resolve(options.snapshot));
    } catch (error) {
      throw new LoaderOptionsError('snapshot', `snapshot is not a readable snapshot: ${(error as Error).message}`, { cause: error });
    }
    const client = createNewsroomClient({
      ...common,
      baseUrl: replay.manifest.api.baseUrl,
      pressroomId: replay.manifest.api.pressroomId,
      fetch: replay.fetch,
      retries: 0,
    });
    return { ...shared, client, fetch: replay.fetch, mode: 'snapshot', snapshot: replay.manifest };
  }
  // The schema makes sure both are set without a snapshot.
  const client = createNewsroomClient({
    ...common,
    baseUrl: options.apiUrl!,
    pressroomId: options.pressroomId!,
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.fetch) return { ...shared, client, fetch: options.fetch, mode: 'supplied', snapshot: undefined };
  return { ...shared, client, fetch: (input, init) => fetch(input, init), mode: 'live', snapshot: undefined };
}
