/**
 * The one client every loader of a build shares (one limiter, one HTTP
 * cache), built from the configuration: live from `PRESSROOM_API_URL`, or
 * replayed from `PRESSROOM_SNAPSHOT` with no network at all.
 *
 * Kept on `globalThis` because Astro loads the config, the integration and
 * the content config in separate module graphs; all of them must see the
 * same client and counters.
 */
import path from 'node:path';
import { createNewsroomClient, type NewsroomClient } from './client/index.ts';
import { ConfigError, loadConfig, type PressroomConfig } from './config.ts';
import { openSnapshot } from './snapshot/replay.ts';
import type { FetchLike } from './client/request.ts';
import { publicationInstant } from './data-policy/clock.ts';
import { DataIssues } from './data-policy/issues.ts';

export interface CollectionReport {
  collection: string;
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
  config: PressroomConfig;
  client: NewsroomClient;
  /** The fetch every download must use (the snapshot's in replay mode). */
  fetch: FetchLike;
  /** `demo`: the bundled demo press room, reached in-process (emulator/embedded.ts). */
  mode: 'live' | 'snapshot' | 'demo';
  /** Filled by each loader as it finishes; read by the end-of-sync summary. */
  reports: CollectionReport[];
  /** What the data policy did (warnings, skipped and non-public items), shared by every loader of the build. */
  issues: DataIssues;
  /** The build's clock for embargoes (ms): see `publicationInstant`. */
  now: number;
  startedAt: number;
}

export interface RuntimeOptions {
  env?: Record<string, string | undefined>;
  /** Folder for the conditional-request cache (default `<PRESSROOM_CACHE_DIR or .cache>/pressroom-http` from the working directory). */
  cacheDir?: string;
}

const KEY = Symbol.for('pressroom-static.loader-runtime');
/** Set by emulator/embedded.ts when a build reads the bundled demo press room at a fixed origin. */
const DEMO_UPSTREAM = Symbol.for('pressroom-static.demo-upstream');
type Holder = { [KEY]?: Promise<LoaderRuntime>; [DEMO_UPSTREAM]?: { origin: string; fetch: FetchLike } };

export async function createLoaderRuntime({ env = process.env, cacheDir }: RuntimeOptions): Promise<LoaderRuntime> {
  const config = loadConfig(env);
  const common = { concurrency: config.concurrency, apiKey: config.apiKey };
  const policy = { issues: new DataIssues({ strict: config.strict }), now: publicationInstant(env) };
  if (config.snapshotDir) {
    let replay;
    try {
      replay = await openSnapshot(path.resolve(config.snapshotDir));
    } catch (error) {
      throw new ConfigError('PRESSROOM_SNAPSHOT', [`PRESSROOM_SNAPSHOT is not a readable snapshot: ${(error as Error).message}`]);
    }
    const client = createNewsroomClient({
      ...common,
      baseUrl: replay.manifest.api.baseUrl,
      pressroomId: replay.manifest.api.pressroomId,
      fetch: replay.fetch,
      retries: 0,
    });
    // Recorded from the bundled demo press room: the site marks itself as a demo (src/lib/demo.ts).
    if (replay.manifest.api.demo) (globalThis as Record<symbol, unknown>)[Symbol.for('pressroom-static.demo-build')] = true;
    return { config, client, fetch: replay.fetch, mode: 'snapshot', reports: [], ...policy, startedAt: performance.now() };
  }
  if (!config.apiUrl) {
    throw new ConfigError('PRESSROOM_API_URL', ['PRESSROOM_API_URL is not set: give the Newsroom API base URL, or PRESSROOM_SNAPSHOT to build from a snapshot']);
  }
  if (!config.pressroomId) {
    throw new ConfigError('PRESSROOM_ID', ['PRESSROOM_ID is not set: give the press room numeric id or domain']);
  }
  const demo = (globalThis as Holder)[DEMO_UPSTREAM];
  const upstream = demo && demo.origin === config.apiUrl ? demo.fetch : undefined;
  const client = createNewsroomClient({
    ...common,
    baseUrl: config.apiUrl,
    pressroomId: config.pressroomId,
    cacheDir: cacheDir ?? path.resolve(config.cacheDir ?? '.cache', 'pressroom-http'),
    ...(upstream ? { fetch: upstream } : {}),
  });
  if (upstream) return { config, client, fetch: upstream, mode: 'demo', reports: [], ...policy, startedAt: performance.now() };
  return { config, client, fetch: (input, init) => fetch(input, init), mode: 'live', reports: [], ...policy, startedAt: performance.now() };
}

/** The runtime of this build, created on first use. */
export function getLoaderRuntime(options: RuntimeOptions = {}): Promise<LoaderRuntime> {
  const holder = globalThis as Holder;
  holder[KEY] ??= createLoaderRuntime(options).catch((error: unknown) => {
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}

/** The runtime of this build if one was started (never creates one): for what a command reports after a build. */
export function startedLoaderRuntime(): Promise<LoaderRuntime> | undefined {
  return (globalThis as Holder)[KEY];
}

/** Forget the runtime (tests, and a second build in the same process). */
export function resetLoaderRuntime(): void {
  delete (globalThis as Holder)[KEY];
}
