/**
 * The data store a renderer kept warm (scripts/warm/) has just synced, handed to the pages in memory:
 * its content layer holds the collections already, so the pages take them (each collection's entries
 * in a Map of their own) instead of the store file, which is written once the change is live. Kept
 * in the build session, since the renderer's scripts and the pages live in separate module graphs.
 */
import { buildSession } from './session.ts';

export type SyncedCollections = ReadonlyMap<string, ReadonlyMap<string, unknown>>;

declare module './session.ts' {
  interface SessionState {
    syncedStore: SyncedCollections | undefined;
  }
}

/** The collections the next data generation reads, instead of the store file. */
export function handOverSyncedStore(collections: SyncedCollections): void {
  buildSession().state.syncedStore = collections;
}

/** The collections handed over for this data generation, once; undefined when the pages read the file. */
export function takeSyncedStore(): Map<string, Map<string, unknown>> | undefined {
  const state = buildSession().state;
  const collections = state.syncedStore;
  state.syncedStore = undefined;
  return collections && new Map([...collections].map(([name, entries]) => [name, new Map(entries)]));
}
