/**
 * Runs Astro content loaders outside Astro: an in-memory store with Astro's
 * DataStore semantics (Astro does not export its own), a logger that keeps
 * lines, and the loaders' real runtime against a real API or snapshot.
 */
import { createHash } from 'node:crypto';
import type { LoaderContext } from 'astro/loaders';
import { pressroomLoaders } from '../../content-loaders/loaders/index.ts';
import type { NewsroomLoaderOptions } from '../../content-loaders/loaders/newsroom-loader.ts';
import type { LoaderRuntime } from '../../content-loaders/runtime.ts';
import { createSiteRuntime } from '../../src/config/build-runtime.ts';
import { loadConfig } from '../../src/config/environment.ts';
import { publicationInstant } from '../../src/config/clock.ts';
import { loaderOptionsOf } from '../../src/config/loader-options.ts';
import type { CollectionName } from '../../content-loaders/sources/index.ts';

type StoredEntry = { id: string; data: Record<string, unknown>; digest?: string | number };

export interface MemoryStore {
  /** The entries, by id. */
  map: Map<string, StoredEntry>;
  /** Entries written (added or changed) and deleted, over the store's life. */
  writes: number;
  deletes: number;
}

export function memoryStore(): MemoryStore & LoaderContext['store'] {
  const map = new Map<string, StoredEntry>();
  const counts = { writes: 0, deletes: 0 };
  const store = {
    map,
    get writes() {
      return counts.writes;
    },
    get deletes() {
      return counts.deletes;
    },
    get: (key: string) => map.get(key),
    entries: () => [...map.entries()],
    values: () => [...map.values()],
    keys: () => [...map.keys()],
    has: (key: string) => map.has(key),
    set(entry: StoredEntry) {
      const existing = map.get(entry.id);
      if (existing && entry.digest !== undefined && existing.digest === entry.digest) return false;
      map.set(entry.id, structuredClone(entry));
      counts.writes++;
      return true;
    },
    delete(key: string) {
      map.delete(key);
      counts.deletes++;
    },
    clear: () => map.clear(),
    addModuleImport: () => {},
  };
  return store as never;
}

export interface LoadRun {
  stores: Record<CollectionName, ReturnType<typeof memoryStore>>;
  logs: string[];
  runtime: LoaderRuntime;
}

/** Loads every collection (or the named ones) into the given stores, as a build would (with the loaders' other options, if any). */
export async function loadAll(
  runtime: LoaderRuntime,
  stores: Partial<Record<CollectionName, ReturnType<typeof memoryStore>>> = {},
  only?: CollectionName[],
  loaderOptions: Omit<NewsroomLoaderOptions, 'runtime'> = {},
  /** The sync's context, as Astro hands it to loaders (`refreshContextData`). */
  refreshContextData?: Record<string, unknown>,
): Promise<LoadRun> {
  const loaders = pressroomLoaders({ runtime: async () => runtime, ...loaderOptions });
  const logs: string[] = [];
  const names = only ?? (Object.keys(loaders) as CollectionName[]);
  for (const name of names) stores[name] ??= memoryStore();
  await Promise.all(
    names.map((name) =>
      loaders[name].load({
        collection: name,
        store: stores[name]!,
        meta: new Map() as never,
        logger: {
          info: (l: string) => logs.push(l),
          warn: (l: string) => logs.push(l),
          error: (l: string) => logs.push(l),
          debug: () => {},
        } as never,
        config: {} as never,
        parseData: (async ({ data }: { data: unknown }) => data) as never,
        renderMarkdown: (async () => ({ html: '' })) as never,
        ...(refreshContextData ? { refreshContextData } : {}),
        generateDigest: (data: unknown) =>
          createHash('sha1')
            .update(typeof data === 'string' ? data : JSON.stringify(data))
            .digest('hex'),
      }),
    ),
  );
  return { stores: stores as LoadRun['stores'], logs, runtime };
}

/** A runtime with the site's options for `env` (the PRESSROOM_* contract, src/config/), as a build makes it. */
export async function runtimeFor(env: Record<string, string | undefined>, cacheDir?: string): Promise<LoaderRuntime> {
  const options = loaderOptionsOf(loadConfig(env), publicationInstant(env));
  return createSiteRuntime(cacheDir && !options.snapshot ? { ...options, cacheDir } : options);
}

/** Entry data of a collection, by id, for deep comparisons. */
export function dataOf(store: MemoryStore): Record<string, unknown> {
  return Object.fromEntries([...store.map].map(([id, e]) => [id, e.data]));
}
