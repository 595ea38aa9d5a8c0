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
import { NewsroomApiError } from '../client/errors.ts';
import { parseContactInfo, phoneCountryOf } from '../contact-info.ts';
import type { CountryCode } from 'libphonenumber-js';
import { bodyFromBlocks, titleFromBody } from '../data-policy/fallback-text.ts';
import type { Rescue } from '../data-policy/repair.ts';
import { safePermalink, safeSlug } from '../data-policy/safe-paths.ts';
import { hiddenReason } from '../data-policy/visibility.ts';
import type { StoredBody } from '../html/body-files.ts';
import { defineSource, fetchedTogether, itemOf, listOf, listsOf } from './source.ts';

const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/** A contact with what its free-text `contact_info` holds filled in where the API sent no field of its own. */
function withContactDetails(raw: unknown, country: CountryCode | undefined): unknown {
  if (!raw || typeof raw !== 'object' || typeof (raw as { contact_info?: unknown }).contact_info !== 'string') return raw;
  const item = raw as Record<string, unknown>;
  const found = parseContactInfo(item.contact_info as string, country, typeof item.name === 'string' ? item.name : undefined);
  return {
    ...item,
    email: blank(item.email) ? found.email : item.email,
    phone: blank(item.phone) ? found.phone : item.phone,
    job_title: blank(item.job_title) ? found.jobTitle : item.job_title,
    mobile: blank(item.mobile) ? found.mobile : item.mobile,
    website: blank(item.website) ? found.website : item.website,
  };
}

const isNotFound = (error: unknown) => error instanceof NewsroomApiError && error.status === 404;

const ids = (list: Array<{ id: number }> | undefined) => (list ?? []).map((item) => item.id);

export const pressroomSource = defineSource({
  collection: 'pressroom',
  fetch: fetchedTogether(async (client) => [{ endpoint: client.endpoint(''), items: [await client.get('')] }]),
  schema: pressroom,
  entryId: () => 'pressroom',
  toEntry: (item) => item,
});

/** A release with no usable title is titled by the first words of its body (one with neither is skipped). */
const titleFromItsBody: Rescue = (item) => {
  const title = titleFromBody(item.body_html);
  return title ? { value: title, replacement: `titled ${JSON.stringify(title)} from its first words` } : undefined;
};

/** What a release is asked for with, in the list and alone: the same fields either way. */
const RELEASE_QUERY = { includes: 'tags,featured_images,clippings' };

export const pressReleasesSource = defineSource({
  collection: 'pressReleases',
  fetch: listOf('press_releases', RELEASE_QUERY),
  fetchItem: itemOf('press_releases', RELEASE_QUERY),
  schema: pressRelease,
  nested: ['clippings', 'featured_images'],
  // Older answers leave `body_html` empty and keep the text in the editor blocks of `content_as_json`.
  screen: (raw) => {
    if (typeof raw.body_html === 'string' && raw.body_html.trim() !== '') return raw;
    const body = bodyFromBlocks(raw.content_as_json);
    return body ? { ...raw, body_html: body } : raw;
  },
  rescues: { permalink: safePermalink(), title: titleFromItsBody },
  entryId: (item) => String(item.id),
  toEntry: ({ tags, featured_images, clippings, body_html, ...release }) => ({
    ...release,
    body: { html: body_html } as StoredBody,
    tag_ids: ids(tags),
    featured_images: featured_images ?? [],
    clipping_ids: ids(clippings),
  }),
});

const dated = timelineItem;
/** A reference to an item of pressReleases, clippings or events, with what orders it: no second copy of the item. */
const datedEntry = (item: z.output<typeof dated>, index: number) => ({
  type: item.type,
  item_id: item.id,
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
  fetch: listsOf(['archive/press_releases', 'archive/clippings', 'archive/events']),
  schema: dated,
  entryId: (item) => `${item.type}-${item.id}`,
  toEntry: datedEntry,
});

export const clippingsSource = defineSource({
  collection: 'clippings',
  fetch: listOf('clippings', { includes: 'tags' }),
  schema: clipping,
  rescues: { permalink: safePermalink('/clippings') },
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
  nested: ['featured_images'],
  rescues: { permalink: safePermalink('/events') },
  entryId: (item) => String(item.id),
  toEntry: ({ tags, featured_images, ...item }) => ({ ...item, tag_ids: ids(tags), featured_images: featured_images ?? [] }),
});

/** Live events have no list route: they are found through the (public) events that link to them. */
export const liveEventsSource = defineSource({
  collection: 'liveEvents',
  fetch: fetchedTogether(async (client, context) => {
    const linked = z.object({ live_event_id: id.nullish().catch(null) }).loose();
    const events = (await client.list('events', EVENTS_QUERY)).filter((raw) => hiddenReason(raw, context.now) === null);
    const liveIds = [...new Set(events.flatMap((raw) => linked.safeParse(raw).data?.live_event_id ?? []))];
    return Promise.all(
      liveIds.map(async (liveId) => ({
        endpoint: client.endpoint(`live_events/${liveId}`),
        // A live blog the public cannot read (404) is simply not shown on its event's page.
        items: await client.get(`live_events/${liveId}`).then(
          (item) => [item],
          (error: unknown) => {
            if (isNotFound(error)) return [];
            throw error;
          },
        ),
      })),
    );
  }),
  schema: liveEvent,
  rescues: { permalink: safePermalink('/live') },
  entryId: (item) => String(item.id),
  toEntry: (item) => item,
});

export const pagesSource = defineSource({
  collection: 'pages',
  fetch: listOf('pages', { includes: 'tags' }),
  schema: page,
  rescues: { permalink: safePermalink('/pages'), slug: safeSlug },
  entryId: (item) => String(item.id),
  toEntry: ({ tags, ...item }) => ({ ...item, tag_ids: ids(tags) }),
});

/**
 * Contacts from their list route, and those that older answers only embed in the press room
 * object (`pr_contacts`); a press room without the route (404) has only the embedded ones.
 */
export const prContactsSource = defineSource({
  collection: 'prContacts',
  fetch: fetchedTogether(async (client) => {
    const [listed, room] = await Promise.all([
      client.list('pr_contacts').catch((error: unknown) => {
        if (isNotFound(error)) return [];
        throw error;
      }),
      client.get<{ pr_contacts?: unknown; language?: unknown; timezone?: unknown } | null>(''),
    ]);
    const key = (item: unknown) => String((item as { id?: unknown } | null)?.id);
    const listedIds = new Set(listed.map(key));
    const embedded = Array.isArray(room?.pr_contacts) ? room.pr_contacts.filter((item) => !listedIds.has(key(item))) : [];
    const country = phoneCountryOf(
      typeof room?.language === 'string' ? room.language : null,
      typeof room?.timezone === 'string' ? room.timezone : null,
    );
    return [
      { endpoint: client.endpoint('pr_contacts'), items: listed.map((c) => withContactDetails(c, country)) },
      { endpoint: `${client.endpoint('')} (pr_contacts)`, items: embedded.map((c) => withContactDetails(c, country)) },
    ];
  }),
  schema: prContact,
  entryId: (item) => String(item.id),
  toEntry: (item) => item,
});
