/**
 * The content loaded again in a warm renderer, as a new build process would load it: a fresh
 * loaders' runtime (its client and caches), the build clock chosen again (unless pinned), the kept
 * ContentLayer synced for the collections pages are made from (the others once the change is live:
 * `syncTheRest`), then a new data generation (src/config/data-generation.ts: the pages' store Map
 * takes the synced collections, getSite() and the feeds start empty), the App's getStaticPaths
 * results forgotten and a new image pipeline for this change.
 *
 * A change whose deliveries named a few releases (`scope`) loads those alone before it renders (the
 * loaders' targeted refresh: one request each instead of every list's pages; the tags only when a
 * named release carries one the store lacks), and once it is live syncs every collection in full,
 * as a build would: what that finds beyond the named releases, in what pages are made of, is
 * `syncTheRest`'s answer, and one more change is then due.
 *
 * The store file is not written during the sync: the pages take the collections from the layer's
 * store in memory (src/config/synced-store.ts), and `writeStore()` writes the file once the change
 * is live. At L that file is 34 MB, serialised (devalue) in 2.8–3.5 s of each change and parsed
 * again by the pages in 0.4 s. Until it is written a new process would find the previous change's
 * store there, which its loaders bring up to date as they do any stale store (by each entry's digest).
 */
import { SOURCES, TARGETED_ITEMS, loaderName, type CollectionReport, type TargetedItems } from '@pressroom-static/content-loaders';
import { resetBuildRuntime, startedBuildRuntime } from '../../src/config/build-runtime.ts';
import { SITE_COLLECTIONS } from '../../src/lib/site-collections.ts';
import { startDataGeneration } from '../../src/config/data-generation.ts';
import { handOverSyncedStore } from '../../src/config/synced-store.ts';
import { chooseBuildClock, currentBuildClock, fixBuildClock } from '../../src/lib/build-day.ts';
import { resetImagePipeline } from '../../src/lib/image-pipeline.ts';
import type { KeptDataStore, KeptContentLayer, RouteCache } from './astro-internals.ts';
import type { ChangeScope } from '../../webhook-receiver/change-scope.ts';
import type { CollectionEntry } from 'astro:content';
import { tagAsPagesShow } from '../../src/lib/site-paths.ts';

const SITE_COLLECTION_NAMES: readonly string[] = Object.values(SITE_COLLECTIONS);
/** The collections pages are made from, synced before the change renders: the others cannot change the site (src/lib/site-collections.ts). */
const SITE_LOADERS = SITE_COLLECTION_NAMES.map(loaderName);
/** The others, synced once the change is live. */
const OTHER_LOADERS = Object.keys(SOURCES)
  .filter((collection) => !SITE_COLLECTION_NAMES.includes(collection))
  .map(loaderName);
const EVERY_LOADER = Object.keys(SOURCES).map(loaderName);
const RELEASES_LOADER = loaderName(SITE_COLLECTIONS.releases);
const TAGS_LOADER = loaderName(SITE_COLLECTIONS.tags);

export interface RefreshedContent {
  /**
   * Syncs the collections the first sync left out (the timeline and the archive; after a targeted
   * load, every collection in full), once the change is live: the fingerprint, the data report and
   * the store then hold them as a build's do. After a targeted load, what the full sync found
   * changed in the collections pages are made from (one line), else undefined.
   */
  syncTheRest(): Promise<string | undefined>;
  /** Writes the store file as the sync would have (nothing when no entry changed). */
  writeStore(): Promise<void>;
}

export async function refreshContent({
  layer,
  store,
  routeCache,
  scope,
}: {
  layer: KeptContentLayer;
  store: KeptDataStore;
  routeCache: RouteCache;
  /** What the deliveries named: only these releases are loaded before the change renders. */
  scope?: ChangeScope | undefined;
}): Promise<RefreshedContent> {
  resetBuildRuntime();
  // A build process picks its clock when it starts; so does each change (the demo's frozen instant stays).
  if (currentBuildClock().source === 'system') fixBuildClock(chooseBuildClock(process.env));
  const named: TargetedItems | undefined = scope && { [SITE_COLLECTIONS.releases]: scope.pressReleases };
  if (named) {
    await syncHoldingWrites(layer, store, [RELEASES_LOADER], { [TARGETED_ITEMS]: named });
    // The tags (at L 41 requests) only for a tag the store lacks: what pages show of the others has not moved with these releases.
    if (carriesUnknownTag(store, scope!.pressReleases)) await syncHoldingWrites(layer, store, [TAGS_LOADER]);
  } else await syncHoldingWrites(layer, store, SITE_LOADERS);
  handOverSyncedStore(store._collections);
  startDataGeneration();
  routeCache.clearAll();
  resetImagePipeline();
  return {
    syncTheRest: async () => {
      if (!named) {
        await syncHoldingWrites(layer, store, OTHER_LOADERS);
        return undefined;
      }
      const runtime = (await startedBuildRuntime())!;
      // The fingerprint names the answers a build would have used: this sync's, not the single releases'.
      runtime.client.forgetAnswers();
      const from = runtime.reports.length;
      const tagsBefore = tagsAsPagesShow(store);
      await syncHoldingWrites(layer, store, EVERY_LOADER);
      return changedBeyond(runtime.reports.slice(from), tagsBefore, tagsAsPagesShow(store));
    },
    writeStore: () => store.writeToDisk(),
  };
}

/**
 * What a full sync after a targeted load changed in the collections pages are made from, in one line;
 * undefined: nothing. The tags are compared as the pages show them, without their release counts.
 */
function changedBeyond(
  reports: readonly CollectionReport[],
  tagsBefore: ReadonlyMap<string, string>,
  tagsAfter: ReadonlyMap<string, string>,
): string | undefined {
  const changed = reports
    .map((report) => (report.collection === SITE_COLLECTIONS.tags ? { ...report, ...difference(tagsBefore, tagsAfter) } : report))
    .filter(({ collection, added, changed, removed }) => SITE_COLLECTION_NAMES.includes(collection) && added + changed + removed > 0);
  if (changed.length === 0) return undefined;
  const counts = changed.map(
    ({ collection, added, changed, removed }) => `${collection} ${added} new, ${changed} changed, ${removed} removed`,
  );
  return `the API changed beyond the named releases (${counts.join('; ')})`;
}

/** Whether one of the releases stored under `ids` carries a tag id no stored tag has. */
function carriesUnknownTag(store: KeptDataStore, ids: readonly string[]): boolean {
  const known = new Set<unknown>();
  for (const entry of store._collections.get(SITE_COLLECTIONS.tags)?.values() ?? []) known.add(dataOf(entry)?.id);
  const releases = store._collections.get(SITE_COLLECTIONS.releases);
  return ids.some((id) => {
    const tagIds = dataOf(releases?.get(id))?.tag_ids;
    return Array.isArray(tagIds) && tagIds.some((tagId) => !known.has(tagId));
  });
}

/** Each stored tag (by entry id) as the pages show it (src/lib/site-paths.ts `tagAsPagesShow`). */
function tagsAsPagesShow(store: KeptDataStore): Map<string, string> {
  const shown = new Map<string, string>();
  for (const [id, entry] of store._collections.get(SITE_COLLECTIONS.tags) ?? [])
    shown.set(id, JSON.stringify(tagAsPagesShow((dataOf(entry) ?? {}) as CollectionEntry<'tags'>['data'])));
  return shown;
}

function difference(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>) {
  let [added, changed, removed] = [0, 0, 0];
  for (const [id, shown] of after) {
    const was = before.get(id);
    if (was === undefined) added++;
    else if (was !== shown) changed++;
  }
  for (const id of before.keys()) if (!after.has(id)) removed++;
  return { added, changed, removed };
}

const dataOf = (entry: unknown): Record<string, unknown> | undefined => (entry as { data?: Record<string, unknown> } | undefined)?.data;

/** Syncs the collections of `loaders` without writing the store file. */
async function syncHoldingWrites(
  layer: KeptContentLayer,
  store: KeptDataStore,
  loaders: string[],
  context?: Record<string, unknown>,
): Promise<void> {
  const writeToDisk = store.writeToDisk;
  // The store's saves call this; the store stays marked as changed, so the write later does write.
  store.writeToDisk = async () => {};
  try {
    await layer.sync({ loaders, ...(context ? { context } : {}) });
  } finally {
    store.writeToDisk = writeToDisk;
  }
}
