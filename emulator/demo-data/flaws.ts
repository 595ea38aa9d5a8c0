/**
 * A small, fixed set of deliberately broken items, the way a real old press
 * room has them (`EmulatorOptions.flaws`, `--flaws`). Each is published and
 * public, so it appears on every route a public item would, among the good
 * ones. `FLAWS` lists them with what a client is expected to do about each:
 *
 * - `field-dropped`: an optional value that is invalid or unsafe; the item is
 *   published without it.
 * - `safe-path`: a permalink or slug that cannot be used as a path; the item
 *   is published under a safe path derived from its id and title.
 * - `item-skipped`: the item lacks what it cannot live without; it is not
 *   published, the rest of the press room is.
 * - `moved-path`: a permalink that is a valid path but not the item's to
 *   take (a custom page's `/pages/…`) or a name no file system can hold as a
 *   folder (`/CON`): the item is published at `/<id>/`.
 *
 * Ids are fixed (`FLAW_IDS`), in each collection's id range but far above
 * what the generator allocates at any usual scale; adding flaws to a world
 * that already uses one of them is an error.
 */
import type { Clipping, MediaItem, Page, PressEvent, PressRelease, PrContact, World } from '../model/types.ts';
import { isPublic } from '../model/visibility.ts';
import { hash32 } from '../model/random.ts';
import { AssetRegistry, LIBRARY_RENDITIONS, SCREENSHOT_RENDITIONS } from './assets.ts';
import { COMPANY } from './company.ts';
import { DAY, HOUR, floorTo, iso } from './dates.ts';
import { ID_BASE } from './ids.ts';
import { slugify } from './slug.ts';
import { visible } from './visibility.ts';

export type FlawExpectation = 'field-dropped' | 'item-skipped' | 'safe-path' | 'moved-path';

/** The world collections flaws live in (the same names as the site's content collections). */
export type FlawCollection = 'pressReleases' | 'clippings' | 'events' | 'pages' | 'prContacts' | 'images';

export interface Flaw {
  collection: FlawCollection;
  id: number;
  /** Dotted path of the broken field in the API object, e.g. `urls.twitter`. */
  field: string;
  /** The broken value, exactly as the API sends it. */
  value: unknown;
  expect: FlawExpectation;
}

export const FLAW_IDS = {
  releaseClimbingPermalink: ID_BASE.pressRelease + 99_901,
  releaseEmptyPermalink: ID_BASE.pressRelease + 99_902,
  releasePunctuationPermalink: ID_BASE.pressRelease + 99_903,
  releaseWithoutTitleOrBody: ID_BASE.pressRelease + 99_904,
  releaseOnPagePath: ID_BASE.pressRelease + 99_905,
  releaseDeviceName: ID_BASE.pressRelease + 99_906,
  clippingScriptUrl: ID_BASE.clipping + 99_901,
  clippingNotAUrl: ID_BASE.clipping + 99_902,
  eventMalformedEnd: ID_BASE.event + 59_901,
  eventEndPastYear9999: ID_BASE.event + 59_902,
  pageClimbingSlug: ID_BASE.page + 19_901,
  contactScriptTwitter: ID_BASE.prContact + 19_901,
  imageNegativeSize: ID_BASE.media + 900_003,
} as const;

export const FLAWS: readonly Flaw[] = [
  { collection: 'clippings', id: FLAW_IDS.clippingScriptUrl, field: 'url', value: 'javascript:alert(1)', expect: 'field-dropped' },
  { collection: 'clippings', id: FLAW_IDS.clippingNotAUrl, field: 'url', value: 'www dot example', expect: 'field-dropped' },
  {
    collection: 'pressReleases',
    id: FLAW_IDS.releaseClimbingPermalink,
    field: 'permalink',
    value: '/../../../etc/passwd',
    expect: 'safe-path',
  },
  { collection: 'pressReleases', id: FLAW_IDS.releaseEmptyPermalink, field: 'permalink', value: '', expect: 'safe-path' },
  { collection: 'pressReleases', id: FLAW_IDS.releasePunctuationPermalink, field: 'permalink', value: '/!?/', expect: 'safe-path' },
  { collection: 'pressReleases', id: FLAW_IDS.releaseWithoutTitleOrBody, field: 'title', value: '', expect: 'item-skipped' },
  { collection: 'pressReleases', id: FLAW_IDS.releaseOnPagePath, field: 'permalink', value: '/pages/about-us', expect: 'moved-path' },
  { collection: 'pressReleases', id: FLAW_IDS.releaseDeviceName, field: 'permalink', value: '/CON', expect: 'moved-path' },
  { collection: 'events', id: FLAW_IDS.eventMalformedEnd, field: 'ends_at', value: 'soon', expect: 'field-dropped' },
  // The largest date JavaScript holds: a calendar that wrote it would not be RFC 5545.
  {
    collection: 'events',
    id: FLAW_IDS.eventEndPastYear9999,
    field: 'ends_at',
    value: '+275760-09-13T00:00:00.000Z',
    expect: 'field-dropped',
  },
  { collection: 'images', id: FLAW_IDS.imageNegativeSize, field: 'file_size', value: -1024, expect: 'field-dropped' },
  {
    collection: 'prContacts',
    id: FLAW_IDS.contactScriptTwitter,
    field: 'urls.twitter',
    value: 'javascript:alert(document.cookie)',
    expect: 'field-dropped',
  },
  { collection: 'pages', id: FLAW_IDS.pageClimbingSlug, field: 'slug', value: '../../x', expect: 'safe-path' },
];

const valueOf = (id: number, field: string): unknown => FLAWS.find((f) => f.id === id && f.field === field)?.value;

interface Inputs {
  now: number;
  tagId: number | undefined;
  /** The newest public release, which the flawed clippings are about. */
  releaseId: number | null;
  assets: AssetRegistry;
  seed: number;
}

function release(input: Inputs, id: number, title: string, permalink: string, body: string, daysAgo: number): PressRelease {
  const date = iso(floorTo(input.now - daysAgo * DAY, DAY) + 10 * HOUR);
  return {
    ...visible(),
    id,
    pressroom_id: COMPANY.pressroomId,
    title,
    subtitle: null,
    release_date: date,
    release_location: null,
    language: 'en',
    social_media_pitch: null,
    summary: null,
    body_html: body,
    permalink,
    full_url: `${COMPANY.newsroomUrl}${permalink}`,
    short_link: `${COMPANY.shortLinkBase}/f${id.toString(36)}`,
    type: 'press_release',
    state: 'published',
    pdf: null,
    show_in_timeline: true,
    show_boilerplate_text: true,
    content_as_json: null,
    draft_content_as_json: null,
    freeform_two: false,
    reading_time: 1,
    updated_at: date,
    _tagIds: input.tagId === undefined ? [] : [input.tagId],
    _featuredImageIds: [],
  };
}

function releases(input: Inputs): PressRelease[] {
  const body = (text: string) => `<p>${text}</p>`;
  return [
    release(
      input,
      FLAW_IDS.releaseClimbingPermalink,
      'Northwind Mobility statement on the Rotterdam pilot',
      valueOf(FLAW_IDS.releaseClimbingPermalink, 'permalink') as string,
      body('Northwind Mobility confirms that the Rotterdam shared e-scooter pilot continues until the end of the year.'),
      9,
    ),
    release(
      input,
      FLAW_IDS.releaseEmptyPermalink,
      'Northwind Hubs open on Sundays',
      valueOf(FLAW_IDS.releaseEmptyPermalink, 'permalink') as string,
      body('From next month every Northwind Hub opens on Sundays from 10:00 to 17:00.'),
      12,
    ),
    release(
      input,
      FLAW_IDS.releasePunctuationPermalink,
      'Fold 2 recall: battery latch check',
      valueOf(FLAW_IDS.releasePunctuationPermalink, 'permalink') as string,
      body('Owners of a Fold 2 built in March can have the battery latch checked free of charge at any Northwind Hub.'),
      15,
    ),
    release(input, FLAW_IDS.releaseWithoutTitleOrBody, '', `/${FLAW_IDS.releaseWithoutTitleOrBody}-`, '', 18),
    release(
      input,
      FLAW_IDS.releaseOnPagePath,
      'Northwind Mobility about its new e-cargo fleet',
      valueOf(FLAW_IDS.releaseOnPagePath, 'permalink') as string,
      body('Northwind Mobility adds forty electric cargo bikes to its delivery fleet in Utrecht and Leipzig.'),
      20,
    ),
    release(
      input,
      FLAW_IDS.releaseDeviceName,
      'Northwind Connect app: new trip planner',
      valueOf(FLAW_IDS.releaseDeviceName, 'permalink') as string,
      body('The Northwind Connect app now plans trips that combine a shared e-bike with the train.'),
      22,
    ),
  ];
}

function clippings(input: Inputs): Clipping[] {
  const make = (id: number, title: string, source: string, daysAgo: number): Clipping => {
    const date = iso(floorTo(input.now - daysAgo * DAY, DAY) + 7 * HOUR);
    return {
      ...visible(),
      id,
      pressroom_id: COMPANY.pressroomId,
      press_release_id: input.releaseId,
      title,
      description: null,
      source,
      url: valueOf(id, 'url') as string,
      release_date: date,
      published_at: date,
      language: 'en',
      state: 'published',
      private: false,
      show_iframe: false,
      permalink: `/clippings/${id}-${slugify(title)}`,
      type: 'clipping',
      shares: { facebook: 0, linkedin: 0, twitter: 0 },
      sizes: input.assets.image(
        `/media/clippings/${id}`,
        {
          seed: hash32(input.seed, 'screenshot', id),
          label: `${source}: ${title}`,
          format: 'jpeg',
          transparent: false,
          width: 1280,
          height: 1600,
        },
        SCREENSHOT_RENDITIONS,
      ),
      _tagIds: input.tagId === undefined ? [] : [input.tagId],
    };
  };
  return [
    make(FLAW_IDS.clippingScriptUrl, 'Northwind’s newest hub, reviewed', 'The Commuter', 6),
    make(FLAW_IDS.clippingNotAUrl, 'Five e-bikes for the school run', 'Two Wheels Magazine', 8),
  ];
}

function event(input: Inputs, id: number, title: string, location: string, daysAhead: number): PressEvent {
  const start = floorTo(input.now + daysAhead * DAY, DAY) + 8 * HOUR;
  const slug = slugify(title);
  return {
    ...visible(),
    id,
    pressroom_id: COMPANY.pressroomId,
    title,
    description: `<p>Ride every Northwind model on the closed track at ${location}. Journalists can register at the press desk.</p>`,
    starts_at: iso(start),
    ends_at: valueOf(id, 'ends_at') as string,
    timezone: 'Amsterdam',
    location,
    online: false,
    stream_url: null,
    permalink: `/events/${id}-${slug}`,
    language: 'en',
    type: 'event',
    published_at: iso(floorTo(input.now - 3 * DAY, DAY) + 9 * HOUR),
    _tagIds: input.tagId === undefined ? [] : [input.tagId],
    _featuredImageIds: [],
  };
}

function page(input: Inputs, position: number): Page {
  const slug = valueOf(FLAW_IDS.pageClimbingSlug, 'slug') as string;
  return {
    ...visible(),
    id: FLAW_IDS.pageClimbingSlug,
    pressroom_id: COMPANY.pressroomId,
    title: 'Press accreditation',
    slug,
    permalink: `/pages/${slug}`,
    body_html:
      '<p>Accredited journalists get early access to releases and test bikes. Write to the press office with a copy of your press card.</p>',
    position,
    show_in_menu: false,
    language: 'en',
    updated_at: iso(floorTo(input.now - 30 * DAY, DAY) + 11 * HOUR),
    _tagIds: input.tagId === undefined ? [] : [input.tagId],
  };
}

function contact(position: number): PrContact {
  const email = 'sam.verhoeven@northwind.example';
  const phone = '+31 20 794 1177';
  return {
    id: FLAW_IDS.contactScriptTwitter,
    pressroom_id: COMPANY.pressroomId,
    name: 'Sam Verhoeven',
    job_title: 'Spokesperson, Fleet services',
    email,
    phone,
    contact_info: ['Spokesperson, Fleet services', `T ${phone}`, `E ${email}`].join('\n'),
    urls: {
      twitter: valueOf(FLAW_IDS.contactScriptTwitter, 'urls.twitter') as string,
      skype: null,
      linkedin: 'https://www.linkedin.com/in/sam-verhoeven',
      avatar: null,
    },
    usernames: { twitter: 'samverhoeven', skype: null },
    avatar: null,
    position,
  };
}

function image(input: Inputs): MediaItem {
  const id = FLAW_IDS.imageNegativeSize;
  const created = iso(floorTo(input.now - 40 * DAY, DAY) + 13 * HOUR);
  const label = 'Cargo One at the Utrecht test-ride day';
  return {
    ...visible(),
    id,
    pressroom_id: COMPANY.pressroomId,
    title: 'cargo-one-utrecht.jpg',
    description: `${label}. Photo: Northwind Mobility.`,
    type: 'image',
    content_type: 'jpeg',
    permalink: `/images/${id}`,
    transparent: false,
    file_size: valueOf(id, 'file_size') as number,
    sizes: input.assets.image(
      `/media/images/${id}`,
      {
        seed: hash32(input.seed, 'picture', id),
        label,
        format: 'jpeg',
        transparent: false,
        width: 1600,
        height: 1064,
      },
      LIBRARY_RENDITIONS,
    ),
    created_at: created,
    updated_at: created,
    _tagIds: input.tagId === undefined ? [] : [input.tagId],
  };
}

function assertFree(world: World): void {
  const used: Record<FlawCollection, Set<number>> = {
    pressReleases: new Set(world.pressReleases.map((r) => r.id)),
    clippings: new Set(world.clippings.map((r) => r.id)),
    events: new Set(world.events.map((r) => r.id)),
    pages: new Set(world.pages.map((r) => r.id)),
    prContacts: new Set(world.prContacts.map((r) => r.id)),
    images: new Set([...world.images, ...world.movies, ...world.videos, ...world.sounds, ...world.documents].map((r) => r.id)),
  };
  for (const flaw of FLAWS) {
    if (used[flaw.collection].has(flaw.id)) {
      throw new Error(`emulator: flawed item ${flaw.collection} ${flaw.id} collides with a generated one; use a smaller scale with flaws`);
    }
  }
}

/** Adds the flawed items to a world (in place). Same world and `now` → same items and bytes. */
export function addFlaws(world: World, now: Date): void {
  removeFlaws(world);
  assertFree(world);
  const ms = now.getTime();
  const newest = world.pressReleases
    .filter((r) => isPublic(r, now) && r.release_date !== null)
    .reduce<PressRelease | null>((best, r) => (best === null || r.release_date! > best.release_date! ? r : best), null);
  const assets = new AssetRegistry();
  const input: Inputs = { now: ms, tagId: world.tags[0]?.id, releaseId: newest?.id ?? null, assets, seed: hash32('flaws', world.seed) };
  world.pressReleases.push(...releases(input));
  world.clippings.push(...clippings(input));
  world.events.push(
    event(input, FLAW_IDS.eventMalformedEnd, 'Test-ride day in Utrecht', 'Jaarbeurs, Utrecht', 20),
    event(input, FLAW_IDS.eventEndPastYear9999, 'Test-ride day in Eindhoven', 'Strijp-S, Eindhoven', 27),
  );
  world.pages.push(page(input, world.pages.reduce((max, p) => Math.max(max, p.position), 0) + 1));
  world.prContacts.push(contact(world.prContacts.reduce((max, c) => Math.max(max, c.position), 0) + 1));
  world.images.push(image(input));
  for (const [path, spec] of assets.assets) world.assets.set(path, spec);
}

const FLAW_ID_SET = new Set<number>(FLAWS.map((f) => f.id));

/** Takes the flawed items out of a world again (in place); their media stay servable. */
export function removeFlaws(world: World): void {
  const keep = <T extends { id: number }>(rows: T[]) => {
    const kept = rows.filter((r) => !FLAW_ID_SET.has(r.id));
    rows.splice(0, rows.length, ...kept);
  };
  keep(world.pressReleases);
  keep(world.clippings);
  keep(world.events);
  keep(world.pages);
  keep(world.prContacts);
  keep(world.images);
}
