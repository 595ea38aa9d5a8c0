/**
 * The press room as the pages see it: every collection loaded ONCE per build
 * (getCollection() copies every entry on each call) and indexed, so a page
 * looks things up instead of scanning. Pages call `getSite()` and pass what
 * they need to components as props.
 */
import { getCollection, type CollectionEntry, type CollectionKey } from 'astro:content';
import { yearMonthIn } from './dates.ts';
import { httpHref } from './format.ts';
import { clippingHref, homeHref, isLanguageCode, hrefOf, permalinkSegments, sitePath, tagHref } from './paths.ts';
import { ianaTimeZone } from './timezones.ts';
import { currentBuildDay, eventPhase, type BuildDay } from './build-day.ts';
import { htmlToText } from './sanitize.ts';
import { themeCss, themeFrom, type Theme } from './color.ts';

type Data<C extends CollectionKey> = CollectionEntry<C>['data'];

export type PressroomData = Data<'pressroom'>;
/** A release with its site path and its body as plain text (made once: cards, descriptions and feeds all read it). */
export type Release = Data<'pressReleases'> & { href: string; bodyText: string };
export type Tag = Data<'tags'> & { href: string };
export type Clipping = Data<'clippings'>;
export type PressEvent = Data<'events'>;
export type LiveEvent = Data<'liveEvents'>;
export type CustomPage = Data<'pages'> & { href: string };
export type Contact = Data<'prContacts'>;
export type MediaKit = Data<'mediaKits'>;
export type MediaKitCategory = Data<'mediaKitCategories'>;
export type MediaItem = Release['featured_images'][number];
export type LibraryImage = Data<'images'>;
/** A media library item: images, movies (files), videos (platform embeds), sounds, documents. */
export type LibraryItem = Data<'movies'>;

export interface SiteData {
  pressroom: PressroomData;
  /** The press room's "about" as plain text, and its theme as CSS: every page's frame shows both. */
  aboutText: string;
  theme: Theme;
  themeCss: string;
  /** IANA zone of the press room (dates, datelines, archive months). */
  timeZone: string;
  /**
   * The build's day in the press room's time zone (src/lib/build-day.ts): what pages, feeds and
   * calendars read without JavaScript decide "past" and "recent" by. Live and upcoming are decided
   * by the reader's clock, at view time.
   */
  buildDay: BuildDay;
  /** Languages with releases, the press room's own first. */
  languages: string[];
  releases: Release[];
  releaseById: Map<number, Release>;
  releasesByLanguage: Map<string, Release[]>;
  releasesByTag: Map<number, Release[]>;
  /** Year → month → releases (press room time zone), newest first. */
  releasesByYearMonth: Map<number, Map<number, Release[]>>;
  tags: Tag[];
  tagById: Map<number, Tag>;
  clippings: Clipping[];
  clippingById: Map<number, Clipping>;
  clippingsByTag: Map<number, Clipping[]>;
  clippingsByRelease: Map<number, Clipping[]>;
  events: PressEvent[];
  eventsByTag: Map<number, PressEvent[]>;
  liveEventById: Map<number, LiveEvent>;
  pages: CustomPage[];
  pagesByTag: Map<number, CustomPage[]>;
  menuPages: CustomPage[];
  contacts: Contact[];
  mediaKits: MediaKit[];
  kitsByTag: Map<number, MediaKit[]>;
  categories: MediaKitCategory[];
  categoryById: Map<number, MediaKitCategory>;
  /** The media library's images (inline images of bodies are renditions of these), newest first. */
  images: LibraryImage[];
  /** Uploaded video files, platform videos (YouTube, Vimeo: poster and link out), sounds, documents; newest first. */
  movies: LibraryItem[];
  videos: LibraryItem[];
  sounds: LibraryItem[];
  documents: LibraryItem[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);
const newestFirst = <T extends { id: number }>(date: (x: T) => string | null | undefined) => (a: T, b: T) =>
  time(date(b)) - time(date(a)) || a.id - b.id;

const warned = new Set<string>();
function warn(message: string) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[pressroom-static] ${message}`);
}

async function load(): Promise<SiteData> {
  const [pressroomEntries, releaseEntries, tagEntries, clippingEntries, eventEntries, liveEntries, pageEntries, contactEntries, kitEntries, categoryEntries, imageEntries, movieEntries, videoEntries, soundEntries, documentEntries] =
    await Promise.all([
      getCollection('pressroom'),
      getCollection('pressReleases'),
      getCollection('tags'),
      getCollection('clippings'),
      getCollection('events'),
      getCollection('liveEvents'),
      getCollection('pages'),
      getCollection('prContacts'),
      getCollection('mediaKits'),
      getCollection('mediaKitCategories'),
      getCollection('images'),
      getCollection('movies'),
      getCollection('videos'),
      getCollection('sounds'),
      getCollection('documents'),
    ]);
  const pressroom = pressroomEntries[0]?.data;
  if (!pressroom) throw new Error('pressroom-static: the press room itself was not loaded (collection "pressroom" is empty)');
  const timeZone = ianaTimeZone(pressroom.timezone);

  // Paths: each is claimed once; an unsafe or clashing permalink falls back to a path from the id.
  const claimed = new Set<string>();
  const claim = (href: string, what: string): string | null => {
    if (claimed.has(href)) {
      warn(`${what}: path ${href} is already taken; it gets no page`);
      return null;
    }
    claimed.add(href);
    return href;
  };

  const releases: Release[] = [];
  for (const { data } of releaseEntries.sort((a, b) => newestFirst<Data<'pressReleases'>>((r) => r.release_date)(a.data, b.data))) {
    const segments = permalinkSegments(data.permalink);
    if (!segments) warn(`press release ${data.id}: permalink ${JSON.stringify(data.permalink)} is not a safe path; published at ${sitePath(`/${data.id}/`)}`);
    const href = claim(segments ? hrefOf(segments) : sitePath(`/${data.id}/`), `press release ${data.id}`);
    if (href) releases.push({ ...data, href, bodyText: htmlToText(data.body_html) });
  }

  const pages: CustomPage[] = [];
  for (const { data } of pageEntries.sort((a, b) => a.data.position - b.data.position || a.data.id - b.data.id)) {
    const segments = permalinkSegments(data.permalink, { allowFirst: ['pages'] });
    const fallback = /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(data.slug) ? sitePath(`/pages/${data.slug}/`) : sitePath(`/pages/${data.id}/`);
    if (!segments) warn(`page ${data.id}: permalink ${JSON.stringify(data.permalink)} is not a safe path; published at ${fallback}`);
    const href = claim(segments ? hrefOf(segments) : fallback, `page ${data.id}`);
    if (href) pages.push({ ...data, href });
  }

  const tags: Tag[] = tagEntries
    .map(({ data }) => ({ ...data, href: tagHref(data) }))
    .filter((tag) => claim(tag.href, `tag ${tag.slug}`) !== null)
    .sort((a, b) => a.name.localeCompare(b.name, pressroom.language));
  const tagById = new Map(tags.map((t) => [t.id, t]));

  const releaseById = new Map<number, Release>();
  const releasesByLanguage = new Map<string, Release[]>();
  const releasesByTag = new Map<number, Release[]>();
  const releasesByYearMonth = new Map<number, Map<number, Release[]>>();
  for (const release of releases) {
    releaseById.set(release.id, release);
    if (isLanguageCode(release.language)) push(releasesByLanguage, release.language, release);
    for (const tagId of release.tag_ids) if (tagById.has(tagId)) push(releasesByTag, tagId, release);
    if (release.release_date) {
      const { year, month } = yearMonthIn(release.release_date, timeZone);
      let months = releasesByYearMonth.get(year);
      if (!months) releasesByYearMonth.set(year, (months = new Map()));
      push(months, month, release);
    }
  }

  const clippings = clippingEntries.map((e) => e.data).sort(newestFirst((c) => c.published_at ?? c.release_date));
  const clippingById = new Map(clippings.map((c) => [c.id, c]));
  const clippingsByTag = new Map<number, Clipping[]>();
  const clippingsByRelease = new Map<number, Clipping[]>();
  for (const clipping of clippings) {
    for (const tagId of clipping.tag_ids) push(clippingsByTag, tagId, clipping);
    if (clipping.press_release_id !== null) push(clippingsByRelease, clipping.press_release_id, clipping);
  }
  for (const release of releases) {
    for (const clippingId of release.clipping_ids) {
      const clipping = clippingById.get(clippingId);
      const linked = clippingsByRelease.get(release.id);
      if (clipping && !linked?.includes(clipping)) push(clippingsByRelease, release.id, clipping);
    }
  }

  const events = eventEntries.map((e) => e.data).sort((a, b) => time(a.starts_at) - time(b.starts_at) || a.id - b.id);
  const eventsByTag = new Map<number, PressEvent[]>();
  for (const event of events) for (const tagId of event.tag_ids) push(eventsByTag, tagId, event);

  const pagesByTag = new Map<number, CustomPage[]>();
  for (const page of pages) for (const tagId of page.tag_ids) push(pagesByTag, tagId, page);

  const mediaKits = kitEntries.map((e) => e.data).sort((a, b) => a.position - b.position || a.id - b.id);
  const kitsByTag = new Map<number, MediaKit[]>();
  for (const kit of mediaKits) for (const tagId of kit.tag_ids) push(kitsByTag, tagId, kit);

  const categories = categoryEntries.map((e) => e.data).sort((a, b) => a.position - b.position || a.id - b.id);

  const languageSet = new Set<string>();
  for (const lang of [pressroom.language, ...pressroom.languages, ...releasesByLanguage.keys()]) {
    if (isLanguageCode(lang) && releasesByLanguage.has(lang)) languageSet.add(lang);
  }

  const library = (entries: Array<{ data: LibraryItem }>) => entries.map((e) => e.data).sort(newestFirst<LibraryItem>((m) => m.created_at));
  const [images, movies, videos, sounds, documents] = [imageEntries, movieEntries, videoEntries, soundEntries, documentEntries].map(library) as [
    LibraryItem[], LibraryItem[], LibraryItem[], LibraryItem[], LibraryItem[],
  ];
  const liveEvents = liveEntries.map((e) => e.data);

  const theme = themeFrom(pressroom.design);
  return {
    pressroom,
    aboutText: htmlToText(pressroom.description),
    theme,
    themeCss: themeCss(theme),
    timeZone,
    buildDay: currentBuildDay(timeZone),
    languages: [...languageSet],
    releases,
    releaseById,
    releasesByLanguage,
    releasesByTag,
    releasesByYearMonth,
    tags,
    tagById,
    clippings,
    clippingById,
    clippingsByTag,
    clippingsByRelease,
    events,
    eventsByTag,
    liveEventById: new Map(liveEvents.map((l) => [l.id, l])),
    pages,
    pagesByTag,
    menuPages: pages.filter((p) => p.show_in_menu),
    contacts: contactEntries.map((e) => e.data).sort((a, b) => a.position - b.position || a.id - b.id),
    mediaKits,
    kitsByTag,
    categories,
    categoryById: new Map(categories.map((c) => [c.id, c])),
    images,
    movies,
    videos,
    sounds,
    documents,
  };
}

let site: Promise<SiteData> | undefined;

/** The whole press room, loaded and indexed once per build. */
export function getSite(): Promise<SiteData> {
  site ??= load().catch((error: unknown) => {
    site = undefined;
    throw error;
  });
  return site;
}

/** An event that ended before the build's day began: past for every reader (see src/lib/build-day.ts). */
export function endedBeforeBuildDay(site: Pick<SiteData, 'buildDay'>, event: PressEvent): boolean {
  return eventPhase(event, site.buildDay.start) === 'past';
}

/** Events not ended when the build's day began, soonest first: the script on the page hides those that have ended since. */
export function eventsAhead(site: Pick<SiteData, 'buildDay' | 'events'>): PressEvent[] {
  return site.events.filter((e) => !endedBeforeBuildDay(site, e));
}

/** The known tags of a list of tag ids, in the list's order (unknown ids are skipped). */
export function tagsOf(site: SiteData, tagIds: readonly number[]): Tag[] {
  return tagIds.map((id) => site.tagById.get(id)).filter((tag): tag is Tag => !!tag);
}

/** A locked or password-protected kit: listed with a lock, no media, no zip. */
export function isProtectedKit(kit: { is_locked: boolean; is_password_protected: boolean }): boolean {
  return kit.is_locked || kit.is_password_protected;
}

/** The press room's own website when it is an http(s) URL, else this site's home page. */
export function pressroomUrl(site: SiteData, siteUrl: URL | undefined): string {
  return httpHref(site.pressroom.urls.homepage) ?? new URL(homeHref, siteUrl).href;
}

/** Kits worth showing on the home page: public (not locked/protected), with media, most recently updated first. */
export function highlightedKits(site: SiteData, count = 3): MediaKit[] {
  return site.mediaKits
    .filter((k) => !isProtectedKit(k) && k.media.length > 0)
    .sort((a, b) => time(b.updated_at) - time(a.updated_at) || a.position - b.position || a.id - b.id)
    .slice(0, count);
}

/** The first image of a list of media items that has renditions. */
export function firstImage(media: readonly MediaItem[]): MediaItem | null {
  return media.find((m) => m.type === 'image' && Object.keys(m.sizes).length > 0) ?? media.find((m) => Object.keys(m.sizes).length > 0) ?? null;
}

const clippingPositions = new WeakMap<SiteData, Map<number, number>>();
/** Where a clipping is listed on /coverage/ (its page and `#clipping-<id>` anchor), or null. */
export function coverageHrefOf(site: SiteData, clipping: { id: number }): string | null {
  let positions = clippingPositions.get(site);
  if (!positions) clippingPositions.set(site, (positions = new Map(site.clippings.map((c, i) => [c.id, i]))));
  const position = positions.get(clipping.id);
  return position === undefined ? null : clippingHref(clipping, position);
}
