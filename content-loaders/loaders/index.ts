/**
 * `pressroomLoaders()` — one Astro content loader per collection of the press
 * room, ready for `defineCollection({ loader })` in `src/content.config.ts`.
 */
import type { Loader } from 'astro/loaders';
import type { z } from 'astro/zod';
import { SOURCES, type CollectionName } from '../sources/index.ts';
import { newsroomLoader, type NewsroomLoaderOptions } from './newsroom-loader.ts';
import { createLoaderRuntime, type LoaderRuntime } from '../runtime.ts';
import type { LoaderOptions } from '../options.ts';

type Sources = typeof SOURCES;
type EntryOf<S> = S extends { toEntry: (...args: never[]) => infer E } ? E : never;
export type PressroomLoaders = { [K in CollectionName]: Loader & { schema: z.ZodType<EntryOf<Sources[K]>> } };

/**
 * From options: the collections share one runtime, made when the first of them
 * loads (so a wrong option fails the sync, not the import of the content config).
 * Or `{ runtime }`: the caller's handle, for an application that shares one runtime
 * with its integrations (and may keep an admission memo between its loads: `memo`).
 */
export function pressroomLoaders(options: LoaderOptions | NewsroomLoaderOptions): PressroomLoaders {
  const shared =
    'runtime' in options && typeof options.runtime === 'function' ? options : { runtime: onFirstUse(options as LoaderOptions) };
  const loaders: Partial<Record<CollectionName, Loader>> = {};
  for (const name of Object.keys(SOURCES) as CollectionName[]) {
    loaders[name] = newsroomLoader(SOURCES[name] as never, shared) satisfies Loader;
  }
  return loaders as PressroomLoaders;
}

function onFirstUse(options: LoaderOptions): () => Promise<LoaderRuntime> {
  let runtime: Promise<LoaderRuntime> | undefined;
  return () => {
    runtime ??= createLoaderRuntime(options).catch((error: unknown) => {
      runtime = undefined;
      throw error;
    });
    return runtime;
  };
}

export { loaderName, newsroomLoader, formatReport } from './newsroom-loader.ts';
export { createAdmissionMemo } from './admission-memo.ts';
export type { AdmissionMemo } from './admission-memo.ts';
