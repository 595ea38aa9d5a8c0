/**
 * Watches what the public can see and reports changes as webhook events:
 * `<type>.published` when an item becomes visible (including an embargo
 * lifting as the clock passes its date), `<type>.unpublished` when it
 * disappears, `<type>.updated` when a visible item was changed.
 */
import { isPublic, type Store } from './store.ts';
import type { Visibility } from './types.ts';

export interface PublicChange {
  type: string;
  data: { id: number; pressroom_id: number; object: string; permalink?: string };
}

const WATCHED = [
  ['press_release', 'pressReleases'],
  ['clipping', 'clippings'],
  ['event', 'events'],
  ['page', 'pages'],
  ['media_kit', 'mediaKits'],
  ['image', 'images'],
  ['movie', 'movies'],
  ['video', 'videos'],
  ['sound', 'sounds'],
  ['document', 'documents'],
] as const;

type Watched = Visibility & { id: number; permalink?: string };

function visibleNow(store: Store, now: Date): Map<string, Watched> {
  const visible = new Map<string, Watched>();
  for (const [object, collection] of WATCHED) {
    for (const record of store.world[collection] as Watched[]) {
      if (isPublic(record, now)) visible.set(`${object}:${record.id}`, record);
    }
  }
  for (const category of store.world.mediaKitCategories) {
    if (store.isCategoryVisible(category, now)) visible.set(`media_kit_category:${category.id}`, { ...category, permalink: undefined });
  }
  return visible;
}

export interface ChangeWatcher {
  /** Compares with the last check; `updated` names records that were changed in place. */
  check(updated?: string[]): PublicChange[];
  /** Forget the past (after a reset). */
  rebase(): void;
}

export function createChangeWatcher(store: Store): ChangeWatcher {
  let last = visibleNow(store, store.clock.now());
  const change = (key: string, record: Watched, verb: string): PublicChange => {
    const object = key.slice(0, key.indexOf(':'));
    return {
      type: `${object}.${verb}`,
      data: {
        id: record.id,
        pressroom_id: store.world.pressroom.id,
        object,
        ...(record.permalink !== undefined && { permalink: record.permalink }),
      },
    };
  };
  return {
    check(updated = []) {
      const current = visibleNow(store, store.clock.now());
      const changes: PublicChange[] = [];
      for (const [key, record] of current) if (!last.has(key)) changes.push(change(key, record, 'published'));
      for (const [key, record] of last) if (!current.has(key)) changes.push(change(key, record, 'unpublished'));
      for (const key of new Set(updated)) {
        const record = current.get(key);
        if (record && last.has(key)) changes.push(change(key, record, 'updated'));
      }
      last = current;
      return changes;
    },
    rebase() {
      last = visibleNow(store, store.clock.now());
    },
  };
}
