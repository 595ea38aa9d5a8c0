/**
 * Records → API objects. Internal `_` fields are dropped, relations resolved
 * against what is public right now, and `includes` added only when asked.
 */
import type { Include } from './list-query.ts';
import { isPublic, type Store } from '../model/store.ts';
import type {
  Clipping,
  MediaItem,
  MediaKit,
  MediaKitCategory,
  Page,
  PressEvent,
  PressRelease,
  Tag,
  World,
} from '../model/types.ts';

export interface ViewContext {
  store: Store;
  now: Date;
  includes: ReadonlySet<Include>;
}

type Public<T> = { [K in keyof T as K extends `_${string}` ? never : K]: T[K] };

export function publicFields<T extends object>(record: T): Public<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) out[key] = value;
  return out as Public<T>;
}

export const tagView = (tag: Tag) => publicFields(tag);
export const mediaView = (item: MediaItem) => publicFields(item);

function tagsOf(ids: readonly number[], ctx: ViewContext) {
  return ids.flatMap((id) => {
    const tag = ctx.store.tagById(id);
    return tag ? [tagView(tag)] : [];
  });
}

function publicMedia(ids: readonly number[], ctx: ViewContext) {
  return ids.flatMap((id) => {
    const item = ctx.store.mediaById(id);
    return item && isPublic(item, ctx.now) ? [mediaView(item)] : [];
  });
}

export function clippingView(clipping: Clipping, ctx: ViewContext) {
  return {
    ...publicFields(clipping),
    ...(ctx.includes.has('tags') && { tags: tagsOf(clipping._tagIds, ctx) }),
  };
}

export function releaseView(release: PressRelease, ctx: ViewContext) {
  const base = publicFields(release);
  return {
    ...base,
    ...(ctx.includes.has('tags') && { tags: tagsOf(release._tagIds, ctx) }),
    ...(ctx.includes.has('featured_images') && { featured_images: publicMedia(release._featuredImageIds, ctx) }),
    ...(ctx.includes.has('clippings') && {
      clippings: ctx.store
        .clippingsOfRelease(release.id)
        .filter((c) => isPublic(c, ctx.now))
        .map((c) => clippingView(c, { ...ctx, includes: new Set() })),
    }),
  };
}

export function eventView(event: PressEvent, ctx: ViewContext) {
  const live = ctx.store.world.liveEvents.find((l) => l.event_id === event.id && isPublic(l, ctx.now));
  return {
    ...publicFields(event),
    /** The live blog of this event, if any: the way clients discover live events (no list route exists). */
    live_event_id: live?.id ?? null,
    ...(ctx.includes.has('tags') && { tags: tagsOf(event._tagIds, ctx) }),
    ...(ctx.includes.has('featured_images') && { featured_images: publicMedia(event._featuredImageIds, ctx) }),
  };
}

export function pageView(page: Page, ctx: ViewContext) {
  return {
    ...publicFields(page),
    ...(ctx.includes.has('tags') && { tags: tagsOf(page._tagIds, ctx) }),
  };
}

/** Locked and password-protected kits never expose their media. */
export function mediaKitView(kit: MediaKit, ctx: ViewContext) {
  const all = kit._mediaIds.flatMap((id) => {
    const item = ctx.store.mediaById(id);
    return item && isPublic(item, ctx.now) ? [item] : [];
  });
  const closed = kit.is_locked || kit.is_password_protected;
  const category = kit.category_id === null ? undefined : ctx.store.categoryById(kit.category_id);
  return {
    ...publicFields(kit),
    category_id: category && ctx.store.isCategoryVisible(category, ctx.now) ? category.id : null,
    media_count: all.length,
    total_size: all.reduce((sum, m) => sum + m.file_size, 0),
    media: closed ? [] : all.map(mediaView),
    ...(ctx.includes.has('tags') && { tags: tagsOf(kit._tagIds, ctx) }),
  };
}

export function visibleKitsOf(categoryId: number, ctx: ViewContext): MediaKit[] {
  return ctx.store.world.mediaKits.filter((k) => k.category_id === categoryId && isPublic(k, ctx.now));
}

export function categoryView(category: MediaKitCategory, ctx: ViewContext) {
  return { ...publicFields(category), media_kits_count: visibleKitsOf(category.id, ctx).length };
}

export interface CategoryNode extends ReturnType<typeof categoryView> {
  children: CategoryNode[];
}

export function categoryTree(categories: MediaKitCategory[], ctx: ViewContext): CategoryNode[] {
  const byParent = new Map<number | null, MediaKitCategory[]>();
  for (const c of categories) byParent.set(c.parent_id, [...(byParent.get(c.parent_id) ?? []), c]);
  const build = (parent: number | null): CategoryNode[] =>
    (byParent.get(parent) ?? [])
      .sort((a, b) => a.position - b.position || a.id - b.id)
      .map((c) => ({ ...categoryView(c, ctx), children: build(c.id) }));
  return build(null);
}

export function pressroomView(world: World) {
  return { ...world.pressroom, pr_contacts: [...world.prContacts].sort((a, b) => a.position - b.position) };
}

/**
 * The model keeps emulator-served URLs as `/media/...` paths; responses carry
 * absolute URLs on the emulator's origin, in fields and in HTML bodies alike.
 */
export function absolutizeMediaUrls(json: string, origin: string): string {
  return json.replaceAll('"/media/', `"${origin}/media/`).replaceAll('=\\"/media/', `=\\"${origin}/media/`);
}
