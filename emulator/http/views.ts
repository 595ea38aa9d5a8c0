/**
 * Records → API objects. Internal `_` fields are dropped, relations resolved
 * against what this answer may show right now, and `includes` added only when
 * asked. Two switches change what an answer looks like, never the data:
 * `leakHidden` answers like a key with more rights than the public view
 * (hidden items too, each saying why it is hidden), and `shapes: 'legacy'`
 * passes every object through the older wire shapes of `./legacy-shapes.ts`.
 */
import type { Shapes } from '../defaults.ts';
import type { Include } from './list-query.ts';
import * as legacy from './legacy-shapes.ts';
import { isPublic, type Store } from '../model/store.ts';
import type {
  Clipping,
  MediaItem,
  MediaKit,
  MediaKitCategory,
  Page,
  PrContact,
  PressEvent,
  PressRelease,
  Tag,
  Visibility,
  World,
} from '../model/types.ts';

/** How an answer is made; the server fills it from its settings. */
export interface ViewMode {
  shapes: Shapes;
  /** Non-public items too, as a key with more rights than the public view would get them. */
  leakHidden: boolean;
}

export const PUBLIC_CURRENT: ViewMode = { shapes: 'current', leakHidden: false };

export interface ViewContext extends ViewMode {
  store: Store;
  now: Date;
  includes: ReadonlySet<Include>;
}

/** Whether this answer may show the record. */
export function shows(ctx: ViewContext, record: Visibility): boolean {
  return ctx.leakHidden || isPublic(record, ctx.now);
}

export function showsCategory(ctx: ViewContext, category: MediaKitCategory): boolean {
  return ctx.leakHidden || ctx.store.isCategoryVisible(category, ctx.now);
}

type Public<T> = { [K in keyof T as K extends `_${string}` ? never : K]: T[K] };

export function publicFields<T extends object>(record: T): Public<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) out[key] = value;
  return out as Public<T>;
}

/**
 * With `leakHidden`, the fields that say why an item is (or is not) hidden,
 * named as the management answers name them, and in the legacy shapes spelled
 * as other upstreams spell them. Nothing otherwise, so public answers keep
 * their exact bytes.
 */
function hiddenReasons(record: Visibility & { id: number }, ctx: ViewContext) {
  if (!ctx.leakHidden) return {};
  const reasons = { state: record._state, private: record._private, publish_date: record._visibleFrom };
  return ctx.shapes === 'legacy' ? legacy.spelledSignals({ id: record.id, ...reasons }) : reasons;
}

const shaped = <T>(ctx: ViewContext, current: T, toLegacy: (view: T) => unknown): unknown =>
  ctx.shapes === 'legacy' ? toLegacy(current) : current;

export const tagView = (tag: Tag) => publicFields(tag);

export const mediaView = (item: MediaItem, ctx: ViewContext) =>
  shaped(ctx, { ...publicFields(item), ...hiddenReasons(item, ctx) }, legacy.media);

export const contactView = (contact: PrContact, ctx: ViewContext) => shaped(ctx, publicFields(contact), legacy.contact);

function tagsOf(ids: readonly number[], ctx: ViewContext) {
  return ids.flatMap((id) => {
    const tag = ctx.store.tagById(id);
    return tag ? [tagView(tag)] : [];
  });
}

function shownMedia(ids: readonly number[], ctx: ViewContext): MediaItem[] {
  return ids.flatMap((id) => {
    const item = ctx.store.mediaById(id);
    return item && shows(ctx, item) ? [item] : [];
  });
}

export function clippingView(clipping: Clipping, ctx: ViewContext) {
  return shaped(
    ctx,
    {
      ...publicFields(clipping),
      ...hiddenReasons(clipping, ctx),
      ...(ctx.includes.has('tags') && { tags: tagsOf(clipping._tagIds, ctx) }),
    },
    legacy.clipping,
  );
}

export function releaseView(release: PressRelease, ctx: ViewContext) {
  return shaped(
    ctx,
    {
      ...publicFields(release),
      ...hiddenReasons(release, ctx),
      ...(ctx.includes.has('tags') && { tags: tagsOf(release._tagIds, ctx) }),
      ...(ctx.includes.has('featured_images') && {
        featured_images: shownMedia(release._featuredImageIds, ctx).map((m) => mediaView(m, ctx)),
      }),
      ...(ctx.includes.has('clippings') && {
        clippings: ctx.store
          .clippingsOfRelease(release.id)
          .filter((c) => shows(ctx, c))
          .map((c) => clippingView(c, { ...ctx, includes: new Set() })),
      }),
    },
    legacy.release,
  );
}

export function eventView(event: PressEvent, ctx: ViewContext) {
  const live = ctx.store.world.liveEvents.find((l) => l.event_id === event.id && shows(ctx, l));
  return {
    ...publicFields(event),
    ...hiddenReasons(event, ctx),
    /** The live blog of this event, if any: the way clients discover live events (no list route exists). */
    live_event_id: live?.id ?? null,
    ...(ctx.includes.has('tags') && { tags: tagsOf(event._tagIds, ctx) }),
    ...(ctx.includes.has('featured_images') && {
      featured_images: shownMedia(event._featuredImageIds, ctx).map((m) => mediaView(m, ctx)),
    }),
  };
}

export function pageView(page: Page, ctx: ViewContext) {
  return {
    ...publicFields(page),
    ...hiddenReasons(page, ctx),
    ...(ctx.includes.has('tags') && { tags: tagsOf(page._tagIds, ctx) }),
  };
}

/** Locked and password-protected kits never expose their media to the public view. */
export function mediaKitView(kit: MediaKit, ctx: ViewContext) {
  const all = shownMedia(kit._mediaIds, ctx);
  const closed = !ctx.leakHidden && (kit.is_locked || kit.is_password_protected);
  const category = kit.category_id === null ? undefined : ctx.store.categoryById(kit.category_id);
  return shaped(
    ctx,
    {
      ...publicFields(kit),
      category_id: category && showsCategory(ctx, category) ? category.id : null,
      ...hiddenReasons(kit, ctx),
      media_count: all.length,
      total_size: all.reduce((sum, m) => sum + m.file_size, 0),
      media: closed ? [] : all.map((m) => mediaView(m, ctx)),
      ...(ctx.includes.has('tags') && { tags: tagsOf(kit._tagIds, ctx) }),
    },
    legacy.mediaKit,
  );
}

export function kitsOfCategory(categoryId: number, ctx: ViewContext): MediaKit[] {
  return ctx.store.world.mediaKits.filter((k) => k.category_id === categoryId && shows(ctx, k));
}

export function categoryView(category: MediaKitCategory, ctx: ViewContext) {
  return { ...publicFields(category), ...hiddenReasons(category, ctx), media_kits_count: kitsOfCategory(category.id, ctx).length };
}

export type CategoryNode = ReturnType<typeof categoryView> & { children: CategoryNode[] };

export function categoryTree(categories: MediaKitCategory[], ctx: ViewContext): CategoryNode[] {
  const byParent = new Map<number | null, MediaKitCategory[]>();
  for (const c of categories) byParent.set(c.parent_id, [...(byParent.get(c.parent_id) ?? []), c]);
  const build = (parent: number | null): CategoryNode[] =>
    (byParent.get(parent) ?? [])
      .sort((a, b) => a.position - b.position || a.id - b.id)
      .map((c) => ({ ...categoryView(c, ctx), children: build(c.id) }));
  return build(null);
}

export function pressroomView(world: World, ctx: ViewContext) {
  const current = {
    ...world.pressroom,
    pr_contacts: [...world.prContacts].sort((a, b) => a.position - b.position).map((c) => contactView(c, ctx)),
  };
  return shaped(ctx, current, (view) => legacy.pressroom(view, world.tags));
}

/**
 * The model keeps emulator-served URLs as `/media/...` paths; responses carry
 * absolute URLs on the emulator's origin, in fields and in HTML bodies alike.
 */
export function absolutizeMediaUrls(json: string, origin: string): string {
  return json.replaceAll('"/media/', `"${origin}/media/`).replaceAll('=\\"/media/', `=\\"${origin}/media/`);
}
