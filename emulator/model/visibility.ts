import type { MediaKitCategory, Visibility } from './types.ts';

/** Only published, non-private items whose embargo has passed are public. */
export function isPublic(record: Visibility, now: Date): boolean {
  return (
    record._state === 'published' && !record._private && (record._visibleFrom === null || Date.parse(record._visibleFrom) <= now.getTime())
  );
}

/** A category is public when it and every ancestor are public. */
export function isCategoryPublic(category: MediaKitCategory, byId: ReadonlyMap<number, MediaKitCategory>, now: Date): boolean {
  const seen = new Set<number>();
  for (let c: MediaKitCategory | undefined = category; c; c = c.parent_id === null ? undefined : byId.get(c.parent_id)) {
    if (seen.has(c.id) || !isPublic(c, now)) return false;
    seen.add(c.id);
  }
  return true;
}
