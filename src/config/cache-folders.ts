/**
 * Every cache a build keeps sits in its own folder under one root
 * (`PRESSROOM_CACHE_DIR`, or `.cache/` in the project), so a CI job keeps all
 * of them warm by keeping that one folder between runs.
 */
import path from 'node:path';
import type { PressroomConfig } from './environment.ts';

/** The caches a build writes: API answers, release bodies (kept out of Astro's data store), media originals/renditions/zips, the icons derived from the logo, the bodies' Markdown, Node's compiled code (compile-cache.ts). */
export type CacheFolder = 'pressroom-http' | 'bodies' | 'images' | 'site-icons' | 'markdown' | 'node-compile';

/** `<PRESSROOM_CACHE_DIR or .cache>`, a relative PRESSROOM_CACHE_DIR taken from `root`. */
export function cacheRoot(root: string, config: Pick<PressroomConfig, 'cacheDir'>): string {
  return path.resolve(root, config.cacheDir ?? '.cache');
}

/** `<PRESSROOM_CACHE_DIR or .cache>/<folder>`. */
export function cacheFolder(root: string, config: Pick<PressroomConfig, 'cacheDir'>, folder: CacheFolder): string {
  return path.join(cacheRoot(root, config), folder);
}
