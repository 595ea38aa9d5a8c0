/**
 * Collections announced as the content layer stores them, for integrations
 * that start work before the whole load is done (the image jobs of
 * scale-out/early-enqueue.ts). The content config and the integrations live
 * in separate module graphs, so the listeners are kept in the build session.
 */
import { sessionState } from './session.ts';

export type StoredCollectionListener = (collection: string, entries: Iterable<Record<string, unknown>>) => void;

declare module './session.ts' {
  interface SessionState {
    storedCollectionListeners: Set<StoredCollectionListener>;
  }
}

const listeners = () => sessionState('storedCollectionListeners', () => new Set());

/** Calls `listener` for each collection stored from now on; returns what stops it. */
export function onCollectionStored(listener: StoredCollectionListener): () => void {
  listeners().add(listener);
  return () => void listeners().delete(listener);
}

/** A collection's entries are final (the loaders' `onStored`). A listener's failure is its own: the load goes on. */
export function collectionStored(collection: string, entries: Iterable<Record<string, unknown>>): void {
  for (const listener of listeners()) {
    try {
      listener(collection, entries);
    } catch {
      // Listeners keep their own failures (early-enqueue.ts reports them at build start).
    }
  }
}
