/**
 * The content loaded again in a warm renderer, as a new build process would load it: a fresh
 * loaders' runtime (its client and caches), the build clock chosen again (unless pinned), the kept
 * ContentLayer synced for the collections pages are made from (the others once the change is live:
 * `syncTheRest`), then a new data generation (src/config/data-generation.ts: the pages' store Map
 * takes the synced collections, getSite() and the feeds start empty), the App's getStaticPaths
 * results forgotten and a new image pipeline for this change.
 *
 * The store file is not written during the sync: the pages take the collections from the layer's
 * store in memory (src/config/synced-store.ts), and `writeStore()` writes the file once the change
 * is live. At L that file is 34 MB, serialised (devalue) in 2.8–3.5 s of each change and parsed
 * again by the pages in 0.4 s. Until it is written a new process would find the previous change's
 * store there, which its loaders bring up to date as they do any stale store (by each entry's digest).
 */
import { SOURCES, loaderName } from '@pressroom-static/content-loaders';
import { resetBuildRuntime } from '../../src/config/build-runtime.ts';
import { SITE_COLLECTIONS } from '../../src/lib/site-collections.ts';
import { startDataGeneration } from '../../src/config/data-generation.ts';
import { handOverSyncedStore } from '../../src/config/synced-store.ts';
import { chooseBuildClock, currentBuildClock, fixBuildClock } from '../../src/lib/build-day.ts';
import { resetImagePipeline } from '../../src/lib/image-pipeline.ts';
import type { KeptDataStore, KeptContentLayer, RouteCache } from './astro-internals.ts';

const SITE_COLLECTION_NAMES: readonly string[] = Object.values(SITE_COLLECTIONS);
/** The collections pages are made from, synced before the change renders: the others cannot change the site (src/lib/site-collections.ts). */
const SITE_LOADERS = SITE_COLLECTION_NAMES.map(loaderName);
/** The others, synced once the change is live. */
const OTHER_LOADERS = Object.keys(SOURCES)
  .filter((collection) => !SITE_COLLECTION_NAMES.includes(collection))
  .map(loaderName);

export interface RefreshedContent {
  /**
   * Syncs the collections the first sync left out (the timeline and the archive), once the change
   * is live: the fingerprint, the data report and the store then hold them as a build's do.
   */
  syncTheRest(): Promise<void>;
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
  await syncHoldingWrites(layer, store, SITE_LOADERS);
  handOverSyncedStore(store._collections);
  startDataGeneration();
  routeCache.clearAll();
  resetImagePipeline();
  return { syncTheRest: () => syncHoldingWrites(layer, store, OTHER_LOADERS), writeStore: () => store.writeToDisk() };
}

/** Syncs the collections of `loaders` without writing the store file. */
async function syncHoldingWrites(layer: KeptContentLayer, store: KeptDataStore, loaders: string[]): Promise<void> {
  const writeToDisk = store.writeToDisk;
  // The store's saves call this; the store stays marked as changed, so the write later does write.
  store.writeToDisk = async () => {};
  try {
    await layer.sync({ loaders });
  } finally {
    store.writeToDisk = writeToDisk;
  }
}
