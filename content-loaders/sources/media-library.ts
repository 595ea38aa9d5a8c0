/** Sources of media kits, their categories, tags and the media library. */
import { z } from 'astro/zod';
import { NewsroomApiError } from '../client/errors.ts';
import type { NewsroomClient } from '../client/types.ts';
import { safeSlug } from '../data-policy/safe-paths.ts';
import { warnUnreadableSignal } from '../data-policy/admit.ts';
import { MAX_TAGS } from '../data-policy/bounds.ts';
import { flatNodeOf, hiddenWithDescendants } from '../data-policy/hidden-subtrees.ts';
import { hiddenReason, kitLock, type UnreadableSignal } from '../data-policy/visibility.ts';
import { mediaItem } from '../schemas/media.ts';
import { mediaKit, mediaKitCategory } from '../schemas/media-kit.ts';
import { count, id, numeric } from '../schemas/primitives.ts';
import { tag } from '../schemas/tag.ts';
import { defineSource, fetchedTogether, listOf, type SourceContext } from './source.ts';

export const mediaKitsSource = defineSource({
  collection: 'mediaKits',
  fetch: listOf('media_kits', { includes: 'tags' }),
  schema: mediaKit.extend({ tags: z.array(z.object({ id })).optional() }),
  nested: ['media'],
  // A locked or password-protected kit never carries media into the site, whatever the API sent; a
  // lock flag that cannot be read locks it (and the kit is shown as locked).
  screen: (raw, context, where) => {
    const lock = kitLock(raw);
    if (!lock) return raw;
    if (lock.unreadable) warnUnreadableSignal(raw, lock.unreadable, where, context, 'its media');
    const media = Array.isArray(raw.media) ? raw.media : [];
    for (let i = 0; i < media.length; i++) context.issues.hidden('mediaKits.media', 'locked-media');
    return { ...raw, ...(lock.unreadable ? { [lock.unreadable.field]: true } : {}), media: [] };
  },
  entryId: (item) => String(item.id),
  toEntry: ({ tags, ...kit }) => ({
    ...kit,
    media: kit.is_locked || kit.is_password_protected ? [] : kit.media,
    tag_ids: (tags ?? []).map((t) => t.id),
  }),
});

interface TreePlace {
  depth: number;
  child_ids: number[];
  ancestor_ids: number[];
}

/** What the tree endpoint must give for placing categories: ids and children, whatever else a node holds. */
interface TreeNode {
  id: number;
  raw: Record<string, unknown>;
  children: TreeNode[];
}

/** Deepest category tree placed as a tree; a deeper one is read as unreadable (and its categories placed from the flat list). */
export const MAX_CATEGORY_DEPTH = 32;

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The tree endpoint's answer as nodes, read without recursion (an answer nested 100,000 levels
 * deep must not overflow the stack), or why it cannot be placed.
 */
function readTree(answer: unknown): TreeNode[] | string {
  if (!Array.isArray(answer)) return 'not a list';
  const roots: TreeNode[] = [];
  const pending: Array<{ raw: unknown; depth: number; into: TreeNode[] }> = answer.map((raw) => ({ raw, depth: 1, into: roots }));
  for (let next = 0; next < pending.length; next++) {
    const { raw, depth, into } = pending[next]!;
    if (depth > MAX_CATEGORY_DEPTH) return `nested more than ${MAX_CATEGORY_DEPTH} levels`;
    if (!isObject(raw)) return 'a node is not an object';
    const nodeId = id.safeParse(raw.id);
    if (!nodeId.success) return `a node has no usable id (${nodeId.error.issues[0]?.message})`;
    const children = raw.children ?? [];
    if (!Array.isArray(children)) return `node ${nodeId.data} has children that are not a list`;
    const node: TreeNode = { id: nodeId.data, raw, children: [] };
    into.push(node);
    for (const child of children) pending.push({ raw: child, depth: depth + 1, into: node.children });
  }
  return roots;
}

const isNotFound = (error: unknown) => error instanceof NewsroomApiError && error.status === 404;

/**
 * Where each public category sits in the tree, and the ids of categories that are not public: a
 * category is public only when it and every ancestor are (an embargoed or draft parent hides its
 * whole subtree, as the public API does). `unreadable`: categories hidden because a visibility
 * signal of their own cannot be read.
 */
function placesInTree(nodes: TreeNode[], now: number) {
  const places = new Map<number, TreePlace>();
  const hidden = new Set<number>();
  const unreadable = new Map<number, { raw: Record<string, unknown>; signal: UnreadableSignal }>();
  const visit = (list: TreeNode[], ancestors: number[], hiddenAbove: boolean) => {
    for (const node of list) {
      const own = hiddenAbove ? null : hiddenReason(node.raw, now);
      if (own?.unreadable) unreadable.set(node.id, { raw: node.raw, signal: own.unreadable });
      const isHidden = hiddenAbove || own !== null;
      if (isHidden) hidden.add(node.id);
      else places.set(node.id, { depth: ancestors.length, child_ids: [], ancestor_ids: ancestors });
      if (!isHidden && ancestors.length > 0) places.get(ancestors.at(-1)!)?.child_ids.push(node.id);
      visit(node.children, [...ancestors, node.id], isHidden);
    }
  };
  visit(nodes, [], false);
  return { places, hidden, unreadable };
}

/** The category tree, or null when the press room's API has none or sends one that cannot be placed. */
async function categoryTree(client: NewsroomClient, context: SourceContext): Promise<TreeNode[] | null> {
  const endpoint = client.endpoint('media_kit_categories/tree');
  const answer = await client.get('media_kit_categories/tree').catch((error: unknown) => {
    // A press room whose API has no tree route: every category is a root.
    if (isNotFound(error)) return null;
    throw error;
  });
  if (answer === null) return null;
  const tree = readTree(answer);
  if (typeof tree !== 'string') return tree;
  context.log(`mediaKitCategories: ${endpoint} is not a readable tree (${tree}); every category is shown at the top level`);
  return null;
}

/**
 * Without a tree: the ids of categories under a hidden one by the flat list's `parent_id`, however
 * deep (a child listed next to its hidden parent is hidden with it, as in the tree).
 */
function hiddenByParents(list: readonly unknown[], now: number): Set<number> {
  const items = list.filter(isObject);
  const hidden = new Set(items.filter((item) => hiddenReason(item, now) !== null).map((item) => String(item.id)));
  return new Set([...hiddenWithDescendants(items.map(flatNodeOf), hidden)].map(Number));
}

/** Categories from the flat list, placed by the tree endpoint (depth, children, ancestors); hidden subtrees left out. */
export const mediaKitCategoriesSource = defineSource({
  collection: 'mediaKitCategories',
  fetch: fetchedTogether(async (client, context) => {
    const [list, tree] = await Promise.all([client.list('media_kit_categories'), categoryTree(client, context)]);
    const { places, hidden, unreadable } = tree
      ? placesInTree(tree, context.now)
      : { places: new Map<number, TreePlace>(), hidden: hiddenByParents(list, context.now), unreadable: new Map() };
    const where = { collection: 'mediaKitCategories', endpoint: client.endpoint('media_kit_categories/tree') };
    const items: unknown[] = [];
    for (const item of list as Array<{ id?: unknown }>) {
      const itemId = Number(item?.id);
      if (hidden.has(itemId)) {
        const signal = unreadable.get(itemId);
        if (signal) warnUnreadableSignal(signal.raw, signal.signal, where, context, 'the category and everything under it');
        else context.issues.hidden('mediaKitCategories', 'hidden-category');
        continue;
      }
      // Not in the tree (an older API, or a tree that lags the list): shown at the top level.
      items.push({ ...item, ...(places.get(itemId) ?? { depth: 0, child_ids: [], ancestor_ids: [] }) });
    }
    return [{ endpoint: client.endpoint('media_kit_categories'), items }];
  }),
  schema: mediaKitCategory.extend({
    depth: numeric,
    child_ids: z.array(id),
    ancestor_ids: z.array(id),
  }),
  entryId: (item) => String(item.id),
  toEntry: (item) => item,
});

/** Tags with the number of releases tagged with each (null when the API cannot count them). */
export const tagsSource = defineSource({
  collection: 'tags',
  fetch: fetchedTogether(async (client, context) => {
    const listed = await client.list<Record<string, unknown>>('tags');
    // Each tag is a landing page, three feeds and one count request: a press room's first MAX_TAGS only.
    const tags = listed.slice(0, MAX_TAGS);
    if (listed.length > MAX_TAGS)
      context.log(
        context.issues.warn({
          kind: 'item-skipped',
          collection: 'tags',
          endpoint: client.endpoint('tags'),
          itemId: `(${(listed.length - MAX_TAGS).toLocaleString('en')} tags)`,
          field: '(item)',
          value: `${listed.length} tags`,
          reason: `the press room has ${listed.length.toLocaleString('en')} tags, more than ${MAX_TAGS.toLocaleString('en')}; the first ${MAX_TAGS.toLocaleString('en')} are published`,
        }),
      );
    const items = await Promise.all(
      tags.map(async (t) => {
        if (!t || typeof t !== 'object' || typeof t.slug !== 'string' || t.slug === '') return t;
        const answer = await client.get<{ count?: unknown }>('tagged/press_releases/count', { tags: t.slug }).catch((error: unknown) => {
          // An unknown or odd slug (422/404): the tag is still published, without a count.
          if (error instanceof NewsroomApiError && error.status !== undefined && error.status >= 400 && error.status < 500) return null;
          throw error;
        });
        return { ...t, press_release_count: answer?.count ?? null };
      }),
    );
    return [{ endpoint: client.endpoint('tags'), items }];
  }),
  schema: tag.extend({ press_release_count: count.nullish().transform((v) => v ?? null) }),
  rescues: { slug: safeSlug },
  entryId: (item) => item.slug,
  toEntry: (item) => item,
});

const library = (collection: string, path: string) =>
  defineSource({
    collection,
    fetch: listOf(path),
    schema: mediaItem,
    entryId: (item) => String(item.id),
    toEntry: (item) => item,
  });

export const imagesSource = library('images', 'images');
export const moviesSource = library('movies', 'movies');
export const videosSource = library('videos', 'videos');
export const soundsSource = library('sounds', 'sounds');
export const documentsSource = library('documents', 'documents');
