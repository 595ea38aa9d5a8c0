/** Sources of the press room itself, its releases, coverage, events, pages and contacts. */
import { z } from 'astro/zod';
import { clipping } from '../schemas/clipping.ts';
import { liveEvent, pressEvent } from '../schemas/event.ts';
import { page } from '../schemas/page.ts';
import { prContact } from '../schemas/pr-contact.ts';
import { pressRelease } from '../schemas/press-release.ts';
import { pressroom } from '../schemas/pressroom.ts';
import { id } from '../schemas/primitives.ts';
import { timelineItem } from '../schemas/timeline.ts';
import { validateItem } from '../schemas/validate.ts';
import { defineSource, listOf } from './source.ts';

const ids = (list: Array<{ id: number }> | undefined) => (list ?? []).map((item) => item.id);

export const pressroomSource = defineSource({
  collection: 'pressroom',
  fetch: async (client) => [{ endpoint: client.endpoint(''), items: [await client.get('')] }],
  schema: pressroom,
  entryId: () => 'pressroom',
  toEntry: (item) => item,
});

export const pressReleasesSource = defineSource({
  collection: 'pressReleases',
  fetch: listOf('press_releases', { includes: 'tags,featured_images,clippings' }),
  schema: pressRelease,
  entryId: (item) => String(item.id),
  toEntry: ({ tags, featured_images, clippings, ...release }) => ({
    ...release,
    tag_ids: ids(tags),
    featured_images: featured_images ?? [],
    clipping_ids: ids(clippings),
  }),
});

const dated = timelineItem;
const datedEntry = (item: z.output<typeof dated>, index: number) => ({
  type: item.type,
  item_id: item.id,
  title: item.title,
  permalink: item.permalink,
  date: item.release_date ?? item.starts_at ?? item.published_at,
  position: index,
});

export const timelineSource = defineSource({
  collection: 'timeline',
  fetch: listOf('timeline'),
  schema: dated,
  entryId: (item) => `${item.type}-${item.id}`,
  toEntry: datedEntry,
});

export const archiveSource = defineSource({
  collection: 'archive',
  fetch: async (client) =>
    Promise.all(
      ['archive/press_releases', 'archive/clippings', 'archive/events'].map(async (path) => ({
        endpoint: client.endpoint(path),
        items: await client.list(path),
      })),
    ),
  schema: dated,
  entryId: (item) => `${item.type}-${item.id}`,
  toEntry: datedEntry,
});

export const clippingsSource = defineSource({
  collection: 'clippings',
  fetch: listOf('clippings', { includes: 'tags' }),
  schema: clipping,
  entryId: (item) => String(item.id),
  toEntry: ({ tags, ...item }) => ({ ...item, tag_ids: ids(tags) }),
});

const eventWithLiveBlog = pressEvent.extend({ live_event_id: id.nullish().transform((v) => v ?? null) });
/** Shared by `events` and `liveEvents`: one URL, so one snapshot entry and one HTTP cache entry. */
const EVENTS_QUERY = { includes: 'tags,featured_images' };

export const eventsSource = defineSource({
  collection: 'events',
  fetch: listOf('events', EVENTS_QUERY),
  schema: eventWithLiveBlog,
  entryId: (item) => String(item.id),
  toEntry: ({ tags, featured_images, ...item }) => ({ ...item, tag_ids: ids(tags), featured_images: featured_images ?? [] }),
});

/** Live events have no list route: they are found through the events that link to them. */
export const liveEventsSource = defineSource({
  collection: 'liveEvents',
  fetch: async (client) => {
    const endpoint = client.endpoint('events', EVENTS_QUERY);
    const events = (await client.list('events', EVENTS_QUERY)).map((raw) =>
      validateItem(z.object({ live_event_id: id.nullish() }), raw, { collection: 'liveEvents', endpoint }),
    );
    const liveIds = [...new Set(events.flatMap((e) => (e.live_event_id ? [e.live_event_id] : [])))];
    return Promise.all(
      liveIds.map(async (liveId) => ({ endpoint: client.endpoint(`live_events/${liveId}`), items: [await client.get(`live_events/${liveId}`)] })),
    );
  },
  schema: liveEvent,
  entryId: (item) => String(item.id),
  toEntry: (item) => item,
});

export const pagesSource = defineSource({
  collection: 'pages',
  fetch: listOf('pages', { includes: 'tags' }),
  schema: page,
  entryId: (item) => String(item.id),
  toEntry: ({ tags, ...item }) => ({ ...item, tag_ids: ids(tags) }),
});

export const prContactsSource = defineSource({
  collection: 'prContacts',
  fetch: listOf('pr_contacts'),
  schema: prContact,
  entryId: (item) => String(item.id),
  toEntry: (item) => item,
});
