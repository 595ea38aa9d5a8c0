/** Sources of media kits, their categories, tags and the media library. */
import { z } from 'astro/zod';
import { mediaItem } from '../schemas/media.ts';
import { categoryNode, mediaKit, mediaKitCategory, type CategoryNode } from '../schemas/media-kit.ts';
import { id, numeric } from '../schemas/primitives.ts';
import { tag } from '../schemas/tag.ts';
import { validateItem } from '../schemas/validate.ts';
import { defineSource, listOf } from './source.ts';

export const mediaKitsSource = defineSource({
  collection: 'mediaKits',
  fetch: listOf('media_kits', { includes: 'tags' }),
  schema: mediaKit.extend({ tags: z.array(z.object({ id })).optional() }),
  entryId: (item) => String(item.id),
  // A locked or password-protected kit never carries media into the site, whatever the API sent.
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

function placesInTree(nodes: CategoryNode[], ancestors: number[] = [], into = new Map<number, TreePlace>()) {
  for (const node of nodes) {
    const nodeId = Number(node.id);
    const children = node.children ?? [];
    into.set(nodeId, { depth: ancestors.length, child_ids: children.map((c) => Number(c.id)), ancestor_ids: ancestors });
    placesInTree(children, [...ancestors, nodeId], into);
  }
  return into;
}

/** Categories from the flat list, placed by the tree endpoint (depth, children, ancestors). */
export const mediaKitCategoriesSource = defineSource({
  collection: 'mediaKitCategories',
  fetch: async (client) => {
    const [list, tree] = await Promise.all([client.list('media_kit_categories'), client.get('media_kit_categories/tree')]);
    const places = placesInTree(
      validateItem(z.array(categoryNode), tree, { collection: 'mediaKitCategories', endpoint: client.endpoint('media_kit_categories/tree') }),
    );
    const endpoint = client.endpoint('media_kit_categories');
    const items = (list as Array<{ id: unknown }>).map((item) => {
      const place = places.get(Number(item.id));
      if (!place) {
        throw new Error(
          `media kit category ${String(item.id)} from ${endpoint} is missing from ${client.endpoint('media_kit_categories/tree')}: the API sent an inconsistent category tree; rebuild once it settles`,
        );
      }
      return { ...item, ...place };
    });
    return [{ endpoint, items }];
  },
  schema: mediaKitCategory.extend({
    depth: numeric,
    child_ids: z.array(id),
    ancestor_ids: z.array(id),
  }),
  entryId: (item) => String(item.id),
  toEntry: (item) => item,
});

/** Tags with the number of releases tagged with each. */
export const tagsSource = defineSource({
  collection: 'tags',
  fetch: async (client) => {
    const endpoint = client.endpoint('tags');
    const tags = (await client.list('tags')).map((raw) => validateItem(z.object({ slug: z.string() }).loose(), raw, { collection: 'tags', endpoint }));
    const items = await Promise.all(
      tags.map(async (t) => {
        const query = { tags: t.slug };
        const count = validateItem(z.object({ count: numeric }), await client.get('tagged/press_releases/count', query), {
          collection: 'tags',
          endpoint: client.endpoint('tagged/press_releases/count', query),
        });
        return { ...t, press_release_count: count.count };
      }),
    );
    return [{ endpoint, items }];
  },
  schema: tag.extend({ press_release_count: numeric }),
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
