/**
 * `pressroomLoaders()` — one Astro content loader per collection of the press
 * room, ready for `defineCollection({ loader })` in `src/content.config.ts`.
 */
import type { Loader } from 'astro/loaders';
import type { z } from 'astro/zod';
import { SOURCES, type CollectionName } from '../sources/index.ts';
import { newsroomLoader, type NewsroomLoaderOptions } from './newsroom-loader.ts';

type Sources = typeof SOURCES;
type EntryOf<S> = S extends { toEntry: (...args: never[]) => infer E } ? E : never;
export type PressroomLoaders = { [K in CollectionName]: Loader & { schema: z.ZodType<EntryOf<Sources[K]>> } };

export function pressroomLoaders(options: NewsroomLoaderOptions = {}): PressroomLoaders {
  const loaders: Partial<Record<CollectionName, Loader>> = {};
  for (const name of Object.keys(SOURCES) as CollectionName[]) {
    loaders[name] = newsroomLoader(SOURCES[name] as never, options) satisfies Loader;
  }
  return loaders as PressroomLoaders;
}

export { newsroomLoader, formatReport } from './newsroom-loader.ts';
