/**
 * The content loaded again in a warm renderer, as a new build process would load it: a fresh
 * loaders' runtime (its client and caches), the build clock chosen again (unless pinned), the kept
 * ContentLayer synced, then a new data generation (src/config/data-generation.ts: the pages' store
 * Map takes the synced collections, getSite() and the feeds start empty), the App's getStaticPaths
 * results forgotten and a new image pipeline for this change.
 *
 * The store file is not written during the sync: the pages take the collections from the layer's
 * store in memory (src/config/synced-store.ts), and `writeStore()` writes the file once the change
 * is live. At L that file is 34 MB, serialised (devalue) in 2.8–3.5 s of each change and parsed
 * again by the pages in 0.4 s. Until it is written a new process would find the previous change's
 * store there, which its loaders bring up to date as they do any stale store (by each entry's digest).
 */
import { resetBuildRuntime } from '../../src/config/build-runtime.ts';
import { startDataGeneration } from '../../src/config/data-generation.ts';
import { handOverSyncedStore } from '../../src/config/synced-store.ts';
import { chooseBuildClock, currentBuildClock, fixBuildClock } from '../../src/lib/build-day.ts';
import { resetImagePipeline } from '../../src/lib/image-pipeline.ts';
import type { KeptDataStore, KeptContentLayer, RouteCache } from './astro-internals.ts';

export interface RefreshedContent {
  /** Writes the store file as the sync would have (nothing when no entry changed). */
  writeStore(): Promise<void>;
}

export async function refreshContent({
  layer,
  store,
  routeCache,
}: {
  layer: KeptContentLayer;
  store: KeptDataStore;
  routeCache: RouteCache;
}): Promise<RefreshedContent> {
  resetBuildRuntime();
  // A build process picks its clock when it starts; so does each change (the demo's frozen instant stays).
  if (currentBuildClock().source === 'system') fixBuildClock(chooseBuildClock(process.env));
  const writeToDisk = store.writeToDisk;
  // The store's saves call this; the store stays marked as changed, so the write later does write.
  store.writeToDisk = async () => {};
  try {
    await layer.sync();
  } finally {
    store.writeToDisk = writeToDisk;
  }
  handOverSyncedStore(store._collections);
  startDataGeneration();
  routeCache.clearAll();
  resetImagePipeline();
  return { writeStore: () => store.writeToDisk() };
}
