/**
 * The content loaded again in a warm renderer, as a new build process would load it: a fresh
 * loaders' runtime (its client and caches), the build clock chosen again (unless pinned), the kept
 * ContentLayer synced (it writes the store file), then a new data generation
 * (src/config/data-generation.ts: the pages' store Map is read again, getSite() and the feeds start
 * empty), the App's getStaticPaths results forgotten and a new image pipeline for this change.
 */
import { resetBuildRuntime } from '../../src/config/build-runtime.ts';
import { startDataGeneration } from '../../src/config/data-generation.ts';
import { chooseBuildClock, currentBuildClock, fixBuildClock } from '../../src/lib/build-day.ts';
import { resetImagePipeline } from '../../src/lib/image-pipeline.ts';
import type { KeptContentLayer, RouteCache } from './astro-internals.ts';

export async function refreshContent({ layer, routeCache }: { layer: KeptContentLayer; routeCache: RouteCache }): Promise<void> {
  resetBuildRuntime();
  // A build process picks its clock when it starts; so does each change (the demo's frozen instant stays).
  if (currentBuildClock().source === 'system') fixBuildClock(chooseBuildClock(process.env));
  await layer.sync();
  startDataGeneration();
  routeCache.clearAll();
  resetImagePipeline();
}
