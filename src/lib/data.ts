/**
 * The press room as the pages see it: every collection loaded ONCE per build
 * (getCollection() copies every entry on each call) and indexed, so a page
 * looks things up instead of scanning. Pages call `getSite()` and pass what
 * they need to components as props.
 */
import { getCollection, type CollectionEntry } from 'astro:content';
import { SITE_COLLECTIONS } from './site-collections.ts';
import { httpHref } from './format.ts';
import { pageOfIndex } from './listing-pages.ts';
import { clippingHref, COVERAGE_PAGE_SIZE, homeHref } from './paths.ts';
import { ianaTimeZone } from './timezones.ts';
import { currentBuildDay, eventPhase, type BuildDay } from './build-day.ts';
import { htmlToText } from './sanitize.ts';
import brand from 'virtual:pressroom/config';
import { chosenDesign, contrastNote, themeFrom, type Theme } from './color.ts';
import { brandCss } from './brand-css.ts';
import { byTag, epochMsOf, indexClippings, indexReleases, newestFirst, siteLanguages } from './site-indexes.ts';
import { claimOwnReleasePaths, createPathClaims, placePages, placeReleases, placeTags, type PathReport } from './site-paths.ts';
import { startedBuildRuntime } from '../config/build-runtime.ts';
import { recordingSite } from './recorded-site.ts';
import { provideSiteDigests, shareWork, usedShared, type SharedWork } from './route-record.ts';
import { shown, type LoaderRuntime } from '@pressroom-static/content-loaders';

export type {
  PressroomData,
  Release,
  Tag,
  Clipping,
  PressEvent,
  LiveEvent,
  CustomPage,
  Contact,
  MediaKit,
  MediaKitCategory,
  MediaItem,
  LibraryImage,
  LibraryItem,
} from './data-types.ts';
import type {
  Clipping,
  Contact,
  CustomPage,
  LibraryImage,
  LibraryItem,
  LiveEvent,
  MediaItem,
  MediaKit,
  MediaKitCategory,
  PressEvent,
  PressroomData,
  Release,
  Tag,
} from './data-types.ts';
import { perDataGeneration } from '../config/data-generation.ts';

export interface SiteData {
  pressroom: PressroomData;
  /** The press room's "about" as plain text, and its theme as CSS: every page's frame shows both. */
  aboutText: string;
  /** Colours: the pressroom() option, else the API's design, else the default, colour by colour (contrast-checked). */
  theme: Theme;
  /** The theme and the fonts as CSS custom properties (`:root{--c-…}`), written into every page's head. */
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

/** Every collection the site reads, loaded at once; each `getCollection()` copies its entries, so it is called once per build. */
function loadCollections() {
  type Loaded = { [K in keyof typeof SITE_COLLECTIONS]: Promise<CollectionEntry<(typeof SITE_COLLECTIONS)[K]>[]> };
  return awaitAll(Object.fromEntries(Object.entries(SITE_COLLECTIONS).map(([field, name]) => [field, getCollection(name)])) as Loaded);
}

/** An object of promises as one promise of the object of their values (Promise.all, keyed). */
async function awaitAll<T extends Record<string, Promise<unknown>>>(promises: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const values = await Promise.all(Object.values(promises));
  return Object.fromEntries(Object.keys(promises).map((key, i) => [key, values[i]])) as { [K in keyof T]: Awaited<T[K]> };
}

const dataOf = <T>(entries: Array<{ data: T }>): T[] => entries.map((e) => e.data);
const byPosition = <T extends { position: number; id: number }>(a: T, b: T) => a.position - b.position || a.id - b.id;
const library = (entries: Array<{ data: LibraryItem }>) => dataOf(entries).sort(newestFirst<LibraryItem>((m) => m.created_at));

const ENDPOINT_OF = { pressReleases: 'press_releases', pages: 'pages', tags: 'tags' } as const;

/** An item published elsewhere than it asked, as a data-policy warning of this build (counted; fatal under strict). */
function pathMovesWarned(runtime: LoaderRuntime): PathReport {
  return (move) => {
    const line = runtime.issues.warn({
      kind: 'field-replaced',
      collection: move.collection,
      endpoint: runtime.client.endpoint(ENDPOINT_OF[move.collection]),
      itemId: move.itemId,
      field: move.field,
      value: shown(move.value),
      reason: move.reason,
      replacement: `published at ${move.href}`,
    });
    console.warn(`[pressroom-static] ${line}`);
  };
}

/** The press room with the site's own logo (the `theme.logo` option) in place of the API's, so every use of the logo shows it. */
function withBrandLogo(pressroom: PressroomData): PressroomData {
  if (!brand.logo) return pressroom;
  return { ...pressroom, logo: { original_url: brand.logo, small_url: null, square_url: null, width: null, height: null } };
}

async function load(): Promise<SiteData> {
  const entries = await loadCollections();
  const loaded = entries.pressroom[0]?.data;
  if (!loaded) throw new Error('pressroom-static: the press room itself was not loaded (collection "pressroom" is empty)');
  const pressroom = withBrandLogo(loaded);
  const timeZone = ianaTimeZone(pressroom.timezone);

  // Paths: one owner each; an unsafe or clashing permalink falls back to a path from the id (site-paths.ts).
  const runtime = await startedBuildRuntime()?.catch(() => undefined);
  const claims = createPathClaims(runtime && pathMovesWarned(runtime));
  const owned = claimOwnReleasePaths(entries.releases, claims);
  const pages = placePages(entries.pages, claims);
  const releases = await placeReleases(entries.releases, claims, owned);
  const tags = placeTags(entries.tags, claims, pressroom.language);
  const tagById = new Map(tags.map((t) => [t.id, t]));
  const releaseIndexes = indexReleases(releases, tagById, timeZone);
  const clippingIndexes = indexClippings(dataOf(entries.clippings), releases);
  const events = dataOf(entries.events).sort((a, b) => epochMsOf(a.starts_at) - epochMsOf(b.starts_at) || a.id - b.id);
  const mediaKits = dataOf(entries.kits).sort(byPosition);
  const categories = dataOf(entries.categories).sort(byPosition);
  const design = chosenDesign(brand.colors, pressroom.design);
  const theme = themeFrom(design);
  const note = contrastNote(design, theme);
  if (note) console.warn(`[pressroom-static] ${note}`);
  return {
    pressroom,
    aboutText: htmlToText(pressroom.description),
    theme,
    themeCss: brandCss(theme, brand.fonts),
    timeZone,
    buildDay: currentBuildDay(timeZone),
    languages: siteLanguages(pressroom, releaseIndexes.releasesByLanguage),
    releases,
    ...releaseIndexes,
    tags,
    tagById,
    ...clippingIndexes,
    events,
    eventsByTag: byTag(events),
    liveEventById: new Map(dataOf(entries.liveEvents).map((l) => [l.id, l])),
    pages,
    pagesByTag: byTag(pages),
    contacts: dataOf(entries.contacts).sort(byPosition),
    mediaKits,
    kitsByTag: byTag(mediaKits),
    categories,
    categoryById: new Map(categories.map((c) => [c.id, c])),
    images: library(entries.images),
    movies: library(entries.movies),
    videos: library(entries.videos),
    sounds: library(entries.sounds),
    documents: library(entries.documents),
  };
}

/** Loaded once per data generation (src/config/data-generation.ts): once per build, again per change of a warm renderer. */
const loaded = perDataGeneration((): { site?: Promise<SiteData> } => ({}));

/** What each route reads of it is recorded (recorded-site.ts): the build's route record says what a change touches. */
async function loadRecorded(): Promise<SiteData> {
  const { view, digests } = recordingSite(await load());
  provideSiteDigests(digests);
  return view;
}

/** The whole press room, loaded and indexed once per build. */
export function getSite(): Promise<SiteData> {
  const holder = loaded();
  holder.site ??= loadRecorded().catch((error: unknown) => {
    holder.site = undefined;
    throw error;
  });
  return holder.site;
}

/** An event that ended before the build's day began: past for every reader (see src/lib/build-day.ts). */
export function endedBeforeBuildDay(siteData: Pick<SiteData, 'buildDay'>, event: PressEvent): boolean {
  return eventPhase(event, siteData.buildDay.start) === 'past';
}

/** Events not ended when the build's day began, soonest first: the script on the page hides those that have ended since. */
export function eventsAhead(siteData: Pick<SiteData, 'buildDay' | 'events'>): PressEvent[] {
  return siteData.events.filter((e) => !endedBeforeBuildDay(siteData, e));
}

/** The known tags of a list of tag ids, in the list's order (unknown ids are skipped). */
export function tagsOf(siteData: SiteData, tagIds: readonly number[]): Tag[] {
  return tagIds.map((id) => siteData.tagById.get(id)).filter((tag): tag is Tag => !!tag);
}

/** A locked or password-protected kit: listed with a lock, no media, no zip. */
export function isProtectedKit(kit: { is_locked: boolean; is_password_protected: boolean }): boolean {
  return kit.is_locked || kit.is_password_protected;
}

/** The press room's own website when it is an http(s) URL, else this site's home page. */
export function pressroomUrl(siteData: SiteData, siteUrl: URL | undefined): string {
  return httpHref(siteData.pressroom.urls.homepage) ?? new URL(homeHref, siteUrl).href;
}

/** Kits worth showing on the home page: public (not locked/protected), with media, most recently updated first. */
export function highlightedKits(siteData: SiteData, count = 3): MediaKit[] {
  return siteData.mediaKits
    .filter((k) => !isProtectedKit(k) && k.media.length > 0)
    .sort((a, b) => epochMsOf(b.updated_at) - epochMsOf(a.updated_at) || a.position - b.position || a.id - b.id)
    .slice(0, count);
}

/** The first image of a list of media items that has renditions. */
export function firstImage(media: readonly MediaItem[]): MediaItem | null {
  return (
    media.find((m) => m.type === 'image' && Object.keys(m.sizes).length > 0) ?? media.find((m) => Object.keys(m.sizes).length > 0) ?? null
  );
}

const clippingPositions = new WeakMap<SiteData, SharedWork<Map<number, number>>>();
/** Where a clipping is listed on /coverage/ (its page and `#clipping-<id>` anchor), or null. */
export function coverageHrefOf(siteData: SiteData, clipping: { id: number }): string | null {
  let made = clippingPositions.get(siteData);
  if (!made) clippingPositions.set(siteData, (made = shareWork(() => new Map(siteData.clippings.map((c, i) => [c.id, i])))));
  const positions = usedShared(made);
  const position = positions.get(clipping.id);
  return position === undefined ? null : clippingHref(clipping, pageOfIndex(position, siteData.clippings.length, COVERAGE_PAGE_SIZE));
}
