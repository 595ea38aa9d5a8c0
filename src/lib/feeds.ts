/**
 * The site's feeds: all releases, per language and per tag, each as RSS 2.0,
 * Atom 1.0 and JSON Feed 1.1 (formats in feed-formats.ts). Each feed is a
 * subscription document with its newest releases and RFC 5005 archive documents
 * with the rest, within a count and byte budget (feed-archives.ts):
 *
 *   /rss.xml  /atom.xml  /feed.json                          all releases
 *   /feeds/archive/<n>/rss.xml  …/atom.xml  …/feed.json      their archive n (1 = the oldest releases)
 *   /feeds/<lang>/rss.xml  …                                 releases in one language (`/feeds/nl/rss.xml`)
 *   /feeds/<lang>/archive/<n>/rss.xml  …
 *   /feeds/tags/<slug>/rss.xml  …                            releases with one tag
 *   /feeds/tags/<slug>/archive/<n>/rss.xml  …
 *
 * An item carries the release's full body, sanitized with the pages' allow-list
 * (src/lib/release-body.ts: inline images through the image pipeline) and then made
 * absolute (links and images point at this site's URL, so they work in a feed
 * reader); its featured image is the same JPEG/PNG the page's Open Graph tag
 * names, its PDF the same file the page offers. Items are built once per build
 * and shared by every feed that lists them; a document notes only the items it
 * holds (src/lib/route-record.ts), so an edited release renders again only the
 * documents that hold it.
 *
 * With PRESSROOM_WEBSUB_HUB every subscription document names the hub
 * (feed-formats.ts); notify/ announces the feeds a build changed to it.
 *
 * Deterministic: ids are name-based UUIDs of the press room and release ids
 * (stable across slug changes and site moves), dates come from the data, and a
 * feed's `updated` is its newest item's.
 */
import { stat } from 'node:fs/promises';
import { sessionConfig } from '../config/session.ts';
import { getImagePipeline, shareImage } from './image-pipeline.ts';
import { detached } from './detached.ts';
import { awaitShared, derivedKey, lookupKey, shareWork, usedShared, withoutRecording, type SharedWork } from './route-record.ts';
import { getSite, pressroomUrl, tagsOf, type Release, type SiteData } from './data.ts';
import { archiveCount, documentItems, documentOf } from './feed-archives.ts';
import { feedHref, type FeedScope } from './feed-paths.ts';
import {
  FEED_FILES,
  FEED_FORMATS,
  absoluteUrls,
  stableId,
  type Feed,
  type FeedFile,
  type FeedImage,
  type FeedItem,
  type FeedPerson,
  type FeedUrls,
} from './feed-formats.ts';
import { languageName, translator } from './i18n.ts';
import { hasPicture, logoMedia, pdfDownload, type PictureSource } from './images.ts';
import { languageHref, releasesHref, tagsHref } from './paths.ts';
import { sanitizedBody } from './release-body.ts';
import { htmlToText, truncate } from './sanitize.ts';
import { perDataGeneration } from '../config/data-generation.ts';

export { feedHref, type FeedScope };
export { FEED_FILES, FEED_FORMATS, type FeedFile };

const iso = (value: string | null | undefined): string | null => {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};
const later = (a: string, b: string | null) => (b && b > a ? b : a);

/** The newest release date of the data: the fixed "now" of feeds without items and of the news sitemap. */
function newestReleaseDate(siteData: SiteData): string | null {
  let newest: string | null = null;
  for (const release of siteData.releases) {
    const date = iso(release.release_date);
    if (date && (!newest || date > newest)) newest = date;
  }
  return newest;
}

const EPOCH = '1970-01-01T00:00:00.000Z';

const noteNewestReleaseDate = derivedKey('newestReleaseDate', (site) => newestReleaseDate(site as SiteData));

async function fileBytes(sitePath: string): Promise<number | undefined> {
  try {
    const file = (await getImagePipeline()).published().get(sitePath.slice(sitePath.lastIndexOf('/') + 1));
    return file ? (await stat(file)).size : undefined;
  } catch {
    return undefined;
  }
}

async function feedImage(media: PictureSource | null | undefined, siteUrl: URL, page: string): Promise<FeedImage | null> {
  if (!media) return null;
  const image = await shareImage(media, { page });
  if (!image) return null;
  return {
    url: new URL(image.src, siteUrl).href,
    mime: image.mime,
    width: image.width,
    height: image.height,
    bytes: await fileBytes(image.src),
  };
}

interface Context {
  siteData: SiteData;
  siteUrl: URL;
  author: FeedPerson;
  /** The date of an item without one and of a feed without items; it reads every release, so only what uses it depends on it. */
  fallbackDate(): string;
}

async function buildItem(ctx: Context, release: Release): Promise<FeedItem> {
  const { siteData, siteUrl } = ctx;
  const page = release.href;
  // Kept until the build ends (every feed and twin of the release reads it): a copy that holds on to nothing else.
  const contentHtml = detached(absoluteUrls(await sanitizedBody(release, siteData), siteUrl));
  const published = iso(release.release_date) ?? iso(release.updated_at) ?? ctx.fallbackDate();
  const tags = tagsOf(siteData, release.tag_ids);
  const pdf = await pdfDownload(release.pdf, release.title, page);
  return {
    id: stableId(`pressroom/${siteData.pressroom.id}/press_release/${release.id}`),
    url: new URL(release.href, siteUrl).href,
    title: release.title,
    summary: release.summary?.trim() || truncate(release.bodyLead, 300),
    contentHtml,
    published,
    updated: later(published, iso(release.updated_at)),
    language: release.language,
    authors: [ctx.author],
    categories: tags.map((tag) => ({ term: tag.slug, label: tag.name, url: new URL(tag.href, siteUrl).href })),
    image: await feedImage(release.featured_images.find(hasPicture), siteUrl, page),
    attachments: pdf ? [{ url: new URL(pdf.href, siteUrl).href, mime: pdf.mime, bytes: pdf.bytes, title: pdf.filename }] : [],
  };
}

// One item per release per data generation (once per build), shared by every feed (keyed by the site URL too, for dev servers).
// What an item read is noted for every route using it (src/lib/route-record.ts).
const itemsOfGeneration = perDataGeneration(() => new Map<string, SharedWork<Promise<FeedItem>>>());

/** The shared work of `key` in `made`, made now if it is not there; one that failed is made again when next asked. */
function sharedIn<T>(made: Map<string, SharedWork<Promise<T>>>, key: string, make: () => Promise<T>): SharedWork<Promise<T>> {
  let work = made.get(key);
  if (!work) {
    work = shareWork(make);
    made.set(key, work);
    work.value.catch(() => made.delete(key));
  }
  return work;
}

function itemOf(ctx: Context, release: Release): Promise<FeedItem> {
  return awaitShared(sharedIn(itemsOfGeneration(), `${ctx.siteUrl.href}|${release.id}`, () => buildItem(ctx, release)));
}

/**
 * A release as its feeds carry it (sanitized body with absolute URLs, summary, share image,
 * PDF, tags): made once per build and shared with the Markdown twins (src/lib/llms.ts).
 */
export async function releaseFeedItem(release: Release, siteUrl: URL): Promise<FeedItem> {
  return itemOf(contextOf(await getSite(), siteUrl), release);
}

// Made once per site and URL: every twin asks for its release's item, and the fallback date reads every release.
const contexts = new WeakMap<SiteData, Map<string, SharedWork<Context>>>();

function contextOf(siteData: SiteData, siteUrl: URL): Context {
  let bySiteUrl = contexts.get(siteData);
  if (!bySiteUrl) contexts.set(siteData, (bySiteUrl = new Map()));
  let context = bySiteUrl.get(siteUrl.href);
  if (!context) {
    context = shareWork(() => ({
      siteData,
      siteUrl,
      author: { name: siteData.pressroom.name, url: pressroomUrl(siteData, siteUrl) },
      fallbackDate: fallbackDateOf(siteData),
    }));
    bySiteUrl.set(siteUrl.href, context);
  }
  return usedShared(context);
}

/** The fallback date, worked out once, noted for the route (or shared work) that uses it: a new release must not re-render every feed and twin. */
function fallbackDateOf(siteData: SiteData): () => string {
  let date: string | undefined;
  return () => {
    date ??= withoutRecording(() => newestReleaseDate(siteData)) ?? EPOCH;
    noteNewestReleaseDate();
    return date;
  };
}

/** The title of a scope's feeds, in the scope's language ("Northwind Mobility: Persberichten in het Nederlands"). */
export function feedTitle(siteData: SiteData, scope: FeedScope): string {
  const name = siteData.pressroom.name;
  if (scope.kind === 'all') return `${name}: ${translator(siteData.pressroom.language)('allReleases')}`;
  if (scope.kind === 'language')
    return `${name}: ${translator(scope.language)('releasesIn', { language: languageName(scope.language, scope.language) })}`;
  return `${name}: ${scope.tag.name}`;
}

/** A feed's own fields, shared by its documents: everything but its items and their date. */
type FeedHead = Omit<Feed, 'items' | 'updated'>;

// One head per scope per data generation (once per build), shared by every document of the scope in every format.
const headsOfGeneration = perDataGeneration(() => new Map<string, SharedWork<Promise<FeedHead>>>());

function feedHeadOf(scope: FeedScope, siteUrl: URL): Promise<FeedHead> {
  return awaitShared(sharedIn(headsOfGeneration(), `${siteUrl.href}|${scopeKeyOf(scope)}`, () => buildFeedHead(scope, siteUrl)));
}

const scopeKeyOf = (scope: FeedScope): string =>
  scope.kind === 'all' ? 'all' : scope.kind === 'language' ? `language/${scope.language}` : `tag/${scope.tag.id}`;

/**
 * The releases of the scope `scopeKeyOf` names, newest first (the same order as the listings): from
 * the recording view for a document, from the raw data for the digest of its lookup entry.
 */
function releasesOf(siteData: Pick<SiteData, 'releases' | 'releasesByLanguage' | 'releasesByTag'>, scopeKey: string): Release[] {
  if (scopeKey === 'all') return siteData.releases;
  const slash = scopeKey.indexOf('/');
  const kind = scopeKey.slice(0, slash);
  const name = scopeKey.slice(slash + 1);
  if (kind === 'language') return siteData.releasesByLanguage.get(name) ?? [];
  return siteData.releasesByTag.get(Number(name)) ?? [];
}

/**
 * What one document depends on besides its own items (which it notes one by one): which releases
 * it holds, in order, and whether archives come before or after it. Not the scope's whole list: a
 * new release changes the subscription document and the newest archive, not every archive, and a
 * document must not depend on the 10,000 items of the others. A document without items prints the
 * newest date of the whole feed, so it depends on every item of it.
 */
const noteFeedDocument = lookupKey('feedDocument', (site) => ({
  get: (entry: string) => {
    const bar = entry.lastIndexOf('|');
    const releases = releasesOf(site as SiteData, entry.slice(0, bar));
    const document = entry.slice(bar + 1);
    const archive = document === 'current' ? null : Number(document);
    const last = archiveCount(releases.length);
    if (archive !== null && !(Number.isInteger(archive) && archive >= 1 && archive <= last)) return undefined;
    const ids = documentItems(releases, archive).map((release) => release.id);
    return {
      ids,
      links: archive === null ? last : archive < last,
      ...(ids.length === 0 ? { every: releases.map((release) => release.id) } : {}),
    };
  },
}));

/** The absolute URLs of one document of a scope's feed in every format. */
function documentUrls(scope: FeedScope, siteUrl: URL, archive: number | null): FeedUrls {
  const abs = (file: FeedFile) => new URL(feedHref(scope, file, archive), siteUrl).href;
  return { rss: abs('rss.xml'), atom: abs('atom.xml'), json: abs('feed.json') };
}

async function buildFeedHead(scope: FeedScope, siteUrl: URL): Promise<FeedHead> {
  const siteData = await getSite();
  const ctx = contextOf(siteData, siteUrl);
  const about = truncate(htmlToText(siteData.pressroom.description), 300);
  const scopeKey = scopeKeyOf(scope);
  const home = scope.kind === 'all' ? releasesHref() : scope.kind === 'language' ? languageHref(scope.language) : scope.tag.href;
  const abs = (path: string) => new URL(path, siteUrl).href;
  return {
    id: stableId(`pressroom/${siteData.pressroom.id}/feed/${scopeKey}`),
    title: feedTitle(siteData, scope),
    description: (scope.kind === 'tag' ? truncate(htmlToText(scope.tag.description), 300) : '') || about,
    homeUrl: abs(home),
    urls: documentUrls(scope, siteUrl, null),
    language: scope.kind === 'language' ? scope.language : siteData.pressroom.language,
    author: ctx.author,
    logo: await feedImage(logoMedia(siteData.pressroom.logo), siteUrl, home),
    categoryScheme: abs(tagsHref),
    generator: 'pressroom-static',
    hub: sessionConfig().websubHub,
  };
}

/** The date of a feed: its newest item's, or the fallback date of a feed without items. */
async function feedUpdated(ctx: Context, releases: Release[]): Promise<string> {
  if (releases.length === 0) return ctx.fallbackDate();
  const every = await Promise.all(releases.map((release) => itemOf(ctx, release)));
  return every.reduce((newest, item) => later(newest, item.updated), EPOCH);
}

/**
 * One document of a scope's feed in every format, made from its own items only. Its date when it
 * has none is the feed's: the newest of every item, or the fallback date of a feed without items.
 */
async function renderDocument(scope: FeedScope, siteUrl: URL, archive: number | null): Promise<Map<FeedFile, Uint8Array<ArrayBuffer>>> {
  const siteData = await getSite();
  const ctx = contextOf(siteData, siteUrl);
  const head = await feedHeadOf(scope, siteUrl);
  const releases = withoutRecording(() => releasesOf(siteData, scopeKeyOf(scope)));
  noteFeedDocument(`${scopeKeyOf(scope)}|${archive ?? 'current'}`);
  const items = await Promise.all(documentItems(releases, archive).map((release) => itemOf(ctx, release)));
  // With items, the document's date is its own newest item's (documentOf).
  const updated = items.length > 0 ? items[0]!.updated : await feedUpdated(ctx, releases);
  const document = documentOf({ ...head, updated }, releases.length, archive, items, (n) => documentUrls(scope, siteUrl, n));
  return new Map(Object.entries(document.bodies) as Array<[FeedFile, Uint8Array<ArrayBuffer>]>);
}

/** One feed file to write: a scope's subscription document (`archive` null) or one of its archives, in one format. */
export interface FeedRoute {
  scope: FeedScope;
  file: FeedFile;
  archive: number | null;
  /** Site path, e.g. `/feeds/nl/archive/2/atom.xml`. */
  href: string;
}

/** The scopes with feeds: all releases, each language with releases, each tag. */
function scopesOf(siteData: SiteData): FeedScope[] {
  return [
    { kind: 'all' },
    ...siteData.languages.map((language): FeedScope => ({ kind: 'language', language })),
    ...siteData.tags.map((tag): FeedScope => ({ kind: 'tag', tag })),
  ];
}

/** Every feed file of the site, the three formats of a document next to each other. */
export async function feedRoutes(): Promise<FeedRoute[]> {
  const siteData = await getSite();
  return scopesOf(siteData).flatMap((scope) => {
    const archives = archiveCount(releasesOf(siteData, scopeKeyOf(scope)).length);
    return [null, ...Array.from({ length: archives }, (_, i) => i + 1)].flatMap((archive) =>
      FEED_FILES.map((file) => ({ scope, file, archive, href: feedHref(scope, file, archive) })),
    );
  });
}

/**
 * Rendered documents waiting for their other formats: a document is cut and fitted to
 * its byte budget once, in all three formats (the budget holds for each), and each
 * body is let go as soon as its file is written.
 */
const renderedOfGeneration = perDataGeneration(() => new Map<string, SharedWork<Promise<Map<FeedFile, Uint8Array<ArrayBuffer>>>>>());

async function documentBody(scope: FeedScope, file: FeedFile, siteUrl: URL, archive: number | null): Promise<Uint8Array<ArrayBuffer>> {
  const key = `${siteUrl.href}|${scopeKeyOf(scope)}|${archive ?? 'current'}`;
  const render = () => renderDocument(scope, siteUrl, archive);
  const rendered = renderedOfGeneration();
  const bodies = sharedIn(rendered, key, render);
  const waiting = await awaitShared(bodies);
  const body = waiting.get(file);
  // Asked for twice (a dev server): cut and render it again.
  if (body === undefined) return (await render()).get(file)!;
  waiting.delete(file);
  if (waiting.size === 0 && rendered.get(key) === bodies) rendered.delete(key);
  return body;
}

/** The Response of one feed file (the body is what the build writes): `archive` null for the subscription document. */
export async function feedResponse(
  scope: FeedScope,
  file: FeedFile,
  siteUrl: URL | undefined,
  archive: number | null = null,
): Promise<Response> {
  if (!siteUrl) throw new Error('pressroom-static: feeds need the site URL (astro.config `site`, from PRESSROOM_SITE_URL)');
  return new Response(await documentBody(scope, file, siteUrl, archive), { headers: { 'Content-Type': FEED_FORMATS[file].type } });
}
