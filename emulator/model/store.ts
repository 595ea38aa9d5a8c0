import type { Clock } from './clock.ts';
import { isCategoryPublic, isPublic } from './visibility.ts';
import type { Clipping, MediaItem, MediaKitCategory, Tag, World } from './types.ts';

/** The collections of media items that share one id space. */
export const MEDIA_COLLECTIONS = ['images', 'movies', 'videos', 'sounds', 'documents'] as const;
export type MediaCollection = (typeof MEDIA_COLLECTIONS)[number];

/**
 * The live press room: the generated world plus the clock. The visibility
 * rules live in `./visibility.ts` (`isPublic`, `isCategoryPublic`).
 */
export interface Store {
  world: World;
  clock: Clock;
  /** Call after any mutation so indexes are rebuilt and `revision` moves on. */
  touch(): void;
  /** Bumped by every `touch()`: caches derived from records check it. */
  readonly revision: number;
  mediaById(id: number): MediaItem | undefined;
  tagById(id: number): Tag | undefined;
  categoryById(id: number): MediaKitCategory | undefined;
  /** The clippings linked to a release, public or not (the caller applies visibility: the clock moves). */
  clippingsOfRelease(releaseId: number): readonly Clipping[];
  isCategoryVisible(category: MediaKitCategory, now: Date): boolean;
  nextId(collection: 'mediaKits' | 'mediaKitCategories' | 'tags'): number;
}

export function createStore(world: World, clock: Clock): Store {
  let media: Map<number, MediaItem> | null = null;
  let tags: Map<number, Tag> | null = null;
  let categories: Map<number, MediaKitCategory> | null = null;
  let clippingsByRelease: Map<number, Clipping[]> | null = null;
  let revision = 0;

  const mediaIndex = () => {
    media ??= new Map(MEDIA_COLLECTIONS.flatMap((name) => world[name].map((m) => [m.id, m] as const)));
    return media;
  };
  const categoryIndex = () => {
    categories ??= new Map(world.mediaKitCategories.map((c) => [c.id, c]));
    return categories;
  };

  return {
    world,
    clock,
    touch() {
      media = tags = categories = null;
      clippingsByRelease = null;
      revision++;
    },
    get revision() {
      return revision;
    },
    mediaById: (id) => mediaIndex().get(id),
    tagById(id) {
      tags ??= new Map(world.tags.map((t) => [t.id, t]));
      return tags.get(id);
    },
    categoryById: (id) => categoryIndex().get(id),
    clippingsOfRelease(releaseId) {
      if (!clippingsByRelease) {
        clippingsByRelease = new Map();
        for (const c of world.clippings) {
          if (c.press_release_id === null || c.press_release_id === undefined) continue;
          const list = clippingsByRelease.get(c.press_release_id);
          if (list) list.push(c);
          else clippingsByRelease.set(c.press_release_id, [c]);
        }
      }
      return clippingsByRelease.get(releaseId) ?? [];
    },
    isCategoryVisible: (category, now) => isCategoryPublic(category, categoryIndex(), now),
    nextId(collection) {
      return world[collection].reduce((max, r) => Math.max(max, r.id), 0) + 1;
    },
  };
}

export { isPublic };
