/**
 * The 45 GET routes of the Read API (read-api.md). Paths are written without
 * the `.json` suffix; the server strips it and maps `/presskits` to
 * `/media_kits` before routing.
 */
import { pageOf, parseListParams, orderRows, sortableAttributes, ParamError, type ListParams, type OrderTerm } from './list-query.ts';
import {
  categoryTree,
  categoryView,
  clippingView,
  contactView,
  eventView,
  kitsOfCategory,
  mediaKitView,
  mediaView,
  pageView,
  pressroomView,
  publicFields,
  releaseView,
  shows,
  showsCategory,
  tagView,
  type ViewContext,
  type ViewMode,
} from './views.ts';
import type { Include } from './list-query.ts';
import type { Store } from '../model/store.ts';
import type { MediaItem, Tag, Visibility, World } from '../model/types.ts';

export interface ReadRequest {
  store: Store;
  now: Date;
  params: Record<string, string | undefined>;
  query: URLSearchParams;
  trueTotals: boolean;
  /** Shapes and visibility of this answer (the server's settings). */
  mode: ViewMode;
}

/** What a read route answers: a JSON value, or an error status with its message. */
export type ReadResult = { status: 200; body: unknown } | { status: 404 | 400 | 422; message: string };

export const missing = (): ReadResult => ({ status: 404, message: 'Missing' });

/** A collection as list routes see it. */
interface Listing<T> {
  /** The `type` an item carries in mixed lists (timeline, search/all). */
  type: string;
  /** The records this answer may show, unfiltered by the list parameters. */
  rows: (ctx: ViewContext) => T[];
  defaultOrder: OrderTerm[];
  view: (row: T, ctx: ViewContext) => unknown;
  language?: (row: T) => string;
  tagIds?: (row: T) => readonly number[];
  /** The fields `q=` searches. */
  text?: (row: T) => Array<string | null | undefined>;
  /** The date that places it in the archive and the timeline. */
  date?: (row: T) => string | null;
}

const desc = (attribute: string): OrderTerm[] => [{ attribute, direction: 'desc' }];
const asc = (attribute: string): OrderTerm[] => [{ attribute, direction: 'asc' }];

/**
 * Lower-cased, tag-stripped search text per record, valid while the store's
 * revision is unchanged (management operations mutate records in place and
 * `touch()` the store).
 */
const searchTextCache = new WeakMap<object, { revision: number; text: string }>();
function searchText<T extends object>(row: T, parts: (row: T) => Array<string | null | undefined>, revision: number): string {
  const cached = searchTextCache.get(row);
  if (cached?.revision === revision) return cached.text;
  const text = parts(row)
    .filter(Boolean)
    .join(' ')
    .replace(/<[^>]*>/g, ' ')
    .toLowerCase();
  searchTextCache.set(row, { revision, text });
  return text;
}

function shownOf<T extends Visibility>(rows: T[], ctx: ViewContext): T[] {
  return rows.filter((r) => shows(ctx, r));
}

function contextOf(req: ReadRequest, includes: ReadonlySet<Include> = new Set()): ViewContext {
  return { store: req.store, now: req.now, includes, ...req.mode };
}

function listParams(req: ReadRequest) {
  return parseListParams(req.query, { legacy: req.mode.shapes === 'legacy' });
}

const releases: Listing<World['pressReleases'][number]> = {
  type: 'press_release',
  rows: (ctx) => shownOf(ctx.store.world.pressReleases, ctx),
  defaultOrder: desc('release_date'),
  view: releaseView,
  language: (r) => r.language,
  tagIds: (r) => r._tagIds,
  text: (r) => [r.title, r.subtitle, r.summary, r.body_html],
  date: (r) => r.release_date,
};

const clippings: Listing<World['clippings'][number]> = {
  type: 'clipping',
  rows: (ctx) => shownOf(ctx.store.world.clippings, ctx),
  defaultOrder: desc('release_date'),
  view: clippingView,
  language: (c) => c.language,
  tagIds: (c) => c._tagIds,
  text: (c) => [c.title, c.description, c.source],
  date: (c) => c.release_date,
};

const events: Listing<World['events'][number]> = {
  type: 'event',
  rows: (ctx) => shownOf(ctx.store.world.events, ctx),
  defaultOrder: desc('starts_at'),
  view: eventView,
  language: (e) => e.language,
  tagIds: (e) => e._tagIds,
  text: (e) => [e.title, e.description, e.location],
  date: (e) => e.starts_at,
};

const pages: Listing<World['pages'][number]> = {
  type: 'page',
  rows: (ctx) => shownOf(ctx.store.world.pages, ctx),
  defaultOrder: asc('position'),
  view: pageView,
  language: (p) => p.language,
  tagIds: (p) => p._tagIds,
  text: (p) => [p.title, p.body_html],
};

const mediaKits: Listing<World['mediaKits'][number]> = {
  type: 'media_kit',
  rows: (ctx) => shownOf(ctx.store.world.mediaKits, ctx),
  defaultOrder: asc('position'),
  view: mediaKitView,
  tagIds: (k) => k._tagIds,
  text: (k) => [k.title, k.description_title, k.description],
};

const categories: Listing<World['mediaKitCategories'][number]> = {
  type: 'media_kit_category',
  rows: (ctx) => ctx.store.world.mediaKitCategories.filter((c) => showsCategory(ctx, c)),
  defaultOrder: asc('position'),
  view: categoryView,
};

const contacts: Listing<World['prContacts'][number]> = {
  type: 'pr_contact',
  rows: (ctx) => ctx.store.world.prContacts,
  defaultOrder: asc('position'),
  view: contactView,
};

const tags: Listing<Tag> = {
  type: 'tag',
  rows: (ctx) => ctx.store.world.tags,
  defaultOrder: asc('name'),
  view: tagView,
};

const mediaListing = (type: string, pick: (w: World) => MediaItem[]): Listing<MediaItem> => ({
  type,
  rows: (ctx) => shownOf(pick(ctx.store.world), ctx),
  defaultOrder: desc('created_at'),
  view: mediaView,
  tagIds: (m) => m._tagIds,
  text: (m) => [m.title, m.description],
});

/** Resolves `tags=` tokens (slug, name or id) to ids; an unknown one is a 422. */
function resolveTags(tokens: string[], store: Store): number[] {
  const unknown: string[] = [];
  const ids = tokens.map((token) => {
    const wanted = token.toLowerCase();
    const tag = store.world.tags.find((t) => t.slug.toLowerCase() === wanted || t.name.toLowerCase() === wanted || String(t.id) === token);
    if (!tag) unknown.push(token);
    return tag?.id ?? -1;
  });
  if (unknown.length > 0) throw new ParamError(`One or more of the tags specified did not exist: ${unknown.join(', ')}`, 422);
  return ids;
}

interface ListOptions {
  requireTags?: boolean;
  archive?: boolean;
}

function startOfYear(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), 0, 1)).toISOString();
}

/** Filters raw records by the list parameters (tags, language, q, archive); unordered. */
function filtered<T extends object>(listing: Listing<T>, req: ReadRequest, params: ListParams, options: ListOptions): T[] {
  let rows = listing.rows(contextOf(req));
  if (options.requireTags && !params.tags) throw new ParamError(`parameter 'tags' is required (comma list of tag slugs, names or ids)`);
  if (params.tags) {
    const wanted = resolveTags(params.tags, req.store);
    const tagIds = listing.tagIds;
    if (!tagIds) throw new ParamError(`parameter 'tags' is not supported on this collection`);
    rows = rows.filter((row) => {
      const have = tagIds(row);
      return params.match === 'all' ? wanted.every((id) => have.includes(id)) : wanted.some((id) => have.includes(id));
    });
  }
  if (params.language && listing.language) {
    const lang = params.language.toLowerCase();
    rows = rows.filter((row) => listing.language!(row).toLowerCase() === lang);
  }
  if (params.q && listing.text) {
    const terms = params.q.toLowerCase().split(/\s+/).filter(Boolean);
    const parts = listing.text;
    const revision = req.store.revision;
    rows = rows.filter((row) => {
      const text = searchText(row, parts, revision);
      return terms.every((t) => text.includes(t));
    });
  }
  if (options.archive && listing.date) {
    const cutoff = startOfYear(req.now);
    rows = rows.filter((row) => {
      const d = listing.date!(row);
      return d !== null && d < cutoff;
    });
  }
  return rows;
}

/** Filter → order, on raw records; the caller pages. */
function filteredAndOrdered<T extends object>(listing: Listing<T>, req: ReadRequest, params: ListParams, options: ListOptions): T[] {
  const rows = filtered(listing, req, params, options);
  const sample = rows[0] ?? listing.rows(contextOf(req))[0];
  return orderRows(rows, params.order ?? listing.defaultOrder, sortableAttributes(sample));
}

function list<T extends object>(listing: Listing<T>, options: ListOptions = {}) {
  return (req: ReadRequest): ReadResult => {
    const params = listParams(req);
    const ctx = contextOf(req, params.includes);
    const { data, paging } = pageOf(filteredAndOrdered(listing, req, params, options), params, req.trueTotals);
    return { status: 200, body: { data: data.map((row) => listing.view(row, ctx)), paging } };
  };
}

function show<T extends { id: number }>(listing: Listing<T>) {
  return (req: ReadRequest): ReadResult => {
    if (!/^\d+$/.test(req.params.id ?? '')) return missing();
    const id = Number(req.params.id);
    const ctx = contextOf(req, listParams(req).includes);
    const row = listing.rows(ctx).find((r) => r.id === id);
    if (!row) return missing();
    return { status: 200, body: { data: listing.view(row, ctx) } };
  };
}

/** Releases, clippings and events mixed, newest first, each with its `type`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listings of different record types, each row used only with its own listing
function mixed(sources: Array<Listing<any>>, { timeline = false } = {}) {
  return (req: ReadRequest): ReadResult => {
    const params = listParams(req);
    const ctx = contextOf(req, params.includes);
    const rows = sources.flatMap((listing) =>
      filtered(listing, req, params, {})
        .filter((row) => !timeline || listing !== releases || row.show_in_timeline)
        .map((row) => ({ date: (listing.date?.(row) as string | null) ?? '', id: row.id as number, row, listing })),
    );
    rows.sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
    const { data, paging } = pageOf(rows, params, req.trueTotals);
    const items = data.map((r) => ({ type: r.listing.type, ...(r.listing.view(r.row, ctx) as object) }));
    return { status: 200, body: { data: items, paging } };
  };
}

function tree(req: ReadRequest): ReadResult {
  const ctx = contextOf(req);
  return { status: 200, body: { data: categoryTree(categories.rows(ctx), ctx) } };
}

function kitsOfCategoryRoute(req: ReadRequest): ReadResult {
  const id = Number(req.params.id);
  const params = listParams(req);
  const ctx = contextOf(req, params.includes);
  const category = req.store.categoryById(id);
  if (!category || !showsCategory(ctx, category)) return missing();
  const rows = orderRows(kitsOfCategory(id, ctx), params.order ?? mediaKits.defaultOrder, sortableAttributes(req.store.world.mediaKits[0]));
  const { data, paging } = pageOf(rows, params, req.trueTotals);
  return { status: 200, body: { data: data.map((k) => mediaKitView(k, ctx)), paging } };
}

function taggedReleaseCount(req: ReadRequest): ReadResult {
  const params = listParams(req);
  return { status: 200, body: { data: { count: filteredAndOrdered(releases, req, params, { requireTags: true }).length } } };
}

function showLiveEvent(req: ReadRequest): ReadResult {
  const event = req.store.world.liveEvents.find((e) => String(e.id) === req.params.id && shows(contextOf(req), e));
  return event ? { status: 200, body: { data: publicFields(event) } } : missing();
}

const images = mediaListing('image', (w) => w.images);
const movies = mediaListing('movie', (w) => w.movies);
const videos = mediaListing('video', (w) => w.videos);
const sounds = mediaListing('sound', (w) => w.sounds);
const documents = mediaListing('document', (w) => w.documents);

const P = '/v1/pressrooms/:pressroom';

/** Route path (no `.json`) → handler. The pressroom segment is checked by the server. */
export const READ_ROUTES: ReadonlyArray<readonly [string, (req: ReadRequest) => ReadResult]> = [
  [`${P}`, (req) => ({ status: 200, body: { data: pressroomView(req.store.world, contextOf(req)) } })],
  [`${P}/timeline`, mixed([releases, clippings, events], { timeline: true })],
  [`${P}/search`, list(releases)],
  [`${P}/search_releases`, list(releases)],
  [`${P}/clippings`, list(clippings)],
  [`${P}/clippings/:id`, show(clippings)],
  [`${P}/documents`, list(documents)],
  [`${P}/documents/:id`, show(documents)],
  [`${P}/events`, list(events)],
  [`${P}/events/:id`, show(events)],
  [`${P}/images`, list(images)],
  [`${P}/images/:id`, show(images)],
  [`${P}/live_events/:id`, showLiveEvent],
  [`${P}/movies`, list(movies)],
  [`${P}/movies/:id`, show(movies)],
  [`${P}/pages`, list(pages)],
  [`${P}/pages/:id`, show(pages)],
  [`${P}/pr_contacts`, list(contacts)],
  [`${P}/pr_contacts/:id`, show(contacts)],
  [`${P}/press_releases`, list(releases)],
  [`${P}/press_releases/:id`, show(releases)],
  [`${P}/archive/clippings`, list(clippings, { archive: true })],
  [`${P}/archive/events`, list(events, { archive: true })],
  [`${P}/archive/press_releases`, list(releases, { archive: true })],
  [`${P}/media_kit_categories`, list(categories)],
  [`${P}/media_kit_categories/tree`, tree],
  [`${P}/media_kit_categories/:id`, show(categories)],
  [`${P}/media_kit_categories/:id/media_kits`, kitsOfCategoryRoute],
  [`${P}/media_kits`, list(mediaKits)],
  [`${P}/media_kits/:id`, show(mediaKits)],
  [`${P}/search/all`, mixed([releases, clippings, mediaKits])],
  [`${P}/search/clippings`, list(clippings)],
  [`${P}/search/media_kits`, list(mediaKits)],
  [`${P}/search/press_releases`, list(releases)],
  [`${P}/tagged/clippings`, list(clippings, { requireTags: true })],
  [`${P}/tagged/events`, list(events, { requireTags: true })],
  [`${P}/tagged/media_kits`, list(mediaKits, { requireTags: true })],
  [`${P}/tagged/pages`, list(pages, { requireTags: true })],
  [`${P}/tagged/press_releases`, list(releases, { requireTags: true })],
  [`${P}/tagged/press_releases/count`, taggedReleaseCount],
  [`${P}/sounds`, list(sounds)],
  [`${P}/sounds/:id`, show(sounds)],
  [`${P}/tags`, list(tags)],
  [`${P}/videos`, list(videos)],
  [`${P}/videos/:id`, show(videos)],
];
