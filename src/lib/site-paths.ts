/**
 * Site paths of releases, custom pages and tags: one owner per path, and no
 * item ever left without a page. A path is compared as case-insensitive
 * storage (macOS and Windows checkouts, bucket syncs, an unzipped archive)
 * would: without case, after Unicode normalisation (NFC). Rightful owners
 * claim first — a release whose permalink starts with its own id, then custom
 * pages (which own `/pages/`), then the other releases, newest first; a
 * permalink that is unsafe or already owned falls back to a path from the id
 * (`/<id>/` for a release, `/pages/<id>/` for a page, `tags/tag-<id>/` for a
 * tag), with one warning that the data-policy summary counts.
 */
import type { CollectionEntry } from 'astro:content';
import type { CustomPage, Release, Tag } from './data-types.ts';
import { hrefOf, isPortableSegment, permalinkSegments, sitePath, tagHref, tagSegment } from './paths.ts';
import { readBody } from '@pressroom-static/content-loaders';
import { detached } from './detached.ts';
import { featuredOutsideBody } from './images.ts';
import { htmlToText } from './sanitize.ts';
import { newestFirst } from './site-indexes.ts';

/** One item placed elsewhere than its permalink asks: what the data policy records for it. */
export interface PathMove {
  collection: 'pressReleases' | 'pages' | 'tags';
  itemId: string;
  field: 'permalink' | 'slug';
  value: string;
  /** Why the asked path could not be used. */
  reason: string;
  /** Where the item is published instead. */
  href: string;
}

/** Who hears of an item published elsewhere than it asked (the build: the data policy's warnings). */
export type PathReport = (move: PathMove) => void;

/** Hands out each path once, comparing paths as case-insensitive storage would. */
export interface PathClaims {
  /** Claims `href` for `owner`; false when another owner holds it (or a path equal to it but for case). */
  claim(href: string, owner: string): boolean;
  /** The owner of `href`, if claimed. */
  ownerOf(href: string): string | undefined;
  readonly report: PathReport;
}

const claimKey = (href: string) => href.normalize('NFC').toLowerCase();

const warned = new Set<string>();
/** Outside a build (unit tests, a page module on its own): one console line per move. */
const logMove: PathReport = (move) => {
  const line = `${move.collection}: item ${move.itemId}: '${move.field}' ${JSON.stringify(move.value)} cannot be used (${move.reason}); published at ${move.href}`;
  if (warned.has(line)) return;
  warned.add(line);
  console.warn(`[pressroom-static] ${line}`);
};

export function createPathClaims(report: PathReport = logMove): PathClaims {
  const owners = new Map<string, string>();
  return {
    claim(href, owner) {
      const key = claimKey(href);
      const held = owners.get(key);
      if (held !== undefined && held !== owner) return false;
      owners.set(key, owner);
      return true;
    },
    ownerOf: (href) => owners.get(claimKey(href)),
    report,
  };
}

/** Claims the first free path of `candidates` (the last is made unique with a counter if need be). */
function claimFirstFree(claims: PathClaims, candidates: readonly string[], owner: string): string {
  for (const href of candidates) if (claims.claim(href, owner)) return href;
  const last = candidates.at(-1)!.replace(/\/$/, '');
  for (let n = 2; ; n++) if (claims.claim(`${last}-${n}/`, owner)) return `${last}-${n}/`;
}

/**
 * Places one item: its permalink's path when safe and free, else the first free fallback, reported
 * as a move naming why.
 */
function place(
  claims: PathClaims,
  item: { collection: PathMove['collection']; id: string; field: PathMove['field']; value: string; owner: string },
  asked: string | null,
  fallbacks: readonly string[],
): string {
  if (asked !== null && claims.claim(asked, item.owner)) return asked;
  const href = claimFirstFree(claims, fallbacks, item.owner);
  const holder = asked === null ? undefined : claims.ownerOf(asked);
  claims.report({
    collection: item.collection,
    itemId: item.id,
    field: item.field,
    value: item.value,
    reason: asked === null ? 'not a safe path' : `its path ${asked} belongs to ${holder ?? 'another item'}`,
    href,
  });
  return href;
}

/** A release's permalink starts with its own id (`/100314-launch`): the path is rightfully its. */
function ownsPermalink(id: number, segments: readonly string[] | null): boolean {
  const first = segments?.[0];
  return first !== undefined && (first === String(id) || first.startsWith(`${id}-`));
}

/** The longest summary of a body the site writes (feeds: 300 characters) plus one, so `truncate` cuts it as it would the whole text. */
export const BODY_LEAD_CHARS = 301;

/**
 * Releases newest first, each with its path and what the pages show of its body (its bodies are read
 * once, here). Claims the paths of releases whose permalink starts with their own id; the others
 * claim theirs in `placeOtherReleases`, after the custom pages.
 */
export function claimOwnReleasePaths(entries: CollectionEntry<'pressReleases'>[], claims: PathClaims): Set<number> {
  const owned = new Set<number>();
  for (const { data } of entries) {
    const segments = permalinkSegments(data.permalink);
    if (segments && ownsPermalink(data.id, segments) && claims.claim(hrefOf(segments), `press release ${data.id}`)) owned.add(data.id);
  }
  return owned;
}

export async function placeReleases(
  entries: CollectionEntry<'pressReleases'>[],
  claims: PathClaims,
  owned: ReadonlySet<number>,
): Promise<Release[]> {
  const placed: Array<{ data: CollectionEntry<'pressReleases'>['data']; href: string }> = [];
  for (const { data } of entries.sort((a, b) =>
    newestFirst<CollectionEntry<'pressReleases'>['data']>((r) => r.release_date)(a.data, b.data),
  )) {
    const segments = permalinkSegments(data.permalink);
    const asked = segments ? hrefOf(segments) : null;
    const owner = `press release ${data.id}`;
    const href = owned.has(data.id)
      ? asked!
      : place(claims, { collection: 'pressReleases', id: String(data.id), field: 'permalink', value: data.permalink, owner }, asked, [
          sitePath(`/${data.id}/`),
        ]);
    placed.push({ data, href });
  }
  const measured = new Map<string, BodyMeasures>();
  const releases = await Promise.all(
    placed.map(async ({ data, href }) => {
      const { bodyLead, wordCount, shows } = await measuresOf(data.body, pictureUrls(data.featured_images), measured);
      return { ...data, href, bodyLead, wordCount, picturesOutsideBody: featuredOutsideBody(data.featured_images, shows) };
    }),
  );
  bodyMeasures = measured;
  return releases;
}

interface BodyMeasures {
  bodyLead: string;
  wordCount: number;
  /** Whether the body shows a picture's URL, for each URL asked about so far. */
  shows: Map<string, boolean>;
}

/**
 * The measures of each body file of the last placement. A file is named by its bytes' SHA-256, so a
 * renderer kept warm between changes (scripts/warm/) reads and turns into text only new bodies:
 * 10,000 of them took 1.1 s at each change to measure, and 0.2–0.5 s to read at L.
 * Only the current bodies are kept.
 */
let bodyMeasures = new Map<string, BodyMeasures>();

const pictureUrls = (featured: ReadonlyArray<{ sizes: Record<string, { url: string }> }>): string[] =>
  featured.flatMap((picture) => Object.values(picture.sizes).map((rendition) => rendition.url));

/** A body's measures, with whether it shows each of `urls`: the body is read only when one of them is new to its file. */
async function measuresOf(body: Release['body'], urls: readonly string[], measured: Map<string, BodyMeasures>): Promise<BodyMeasures> {
  const file = 'file' in body ? body.file : undefined;
  const known = file === undefined ? undefined : (measured.get(file) ?? bodyMeasures.get(file));
  if (known && urls.every((url) => known.shows.has(url))) {
    measured.set(file!, known);
    return known;
  }
  const html = await readBody(body);
  let made = known;
  if (!made) {
    const text = htmlToText(html);
    made = { bodyLead: detached(text.slice(0, BODY_LEAD_CHARS)), wordCount: text.split(/\s+/).filter(Boolean).length, shows: new Map() };
  }
  for (const url of urls) made.shows.set(url, html.includes(url));
  if (file !== undefined) measured.set(file, made);
  return made;
}

/** Custom pages in menu order, each with its path. */
export function placePages(entries: CollectionEntry<'pages'>[], claims: PathClaims): CustomPage[] {
  const pages: CustomPage[] = [];
  for (const { data } of entries.sort((a, b) => a.data.position - b.data.position || a.data.id - b.data.id)) {
    const segments = permalinkSegments(data.permalink, { allowFirst: ['pages'] });
    const bySlug = isPortableSegment(data.slug) && /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(data.slug) ? [sitePath(`/pages/${data.slug}/`)] : [];
    const owner = `page ${data.id}`;
    const href = place(
      claims,
      { collection: 'pages', id: String(data.id), field: 'permalink', value: data.permalink, owner },
      segments ? hrefOf(segments) : null,
      [...bySlug, sitePath(`/pages/${data.id}/`)],
    );
    pages.push({ ...data, href });
  }
  return pages;
}

/**
 * What the pages take of a tag: everything but the API's count of its releases (they count them
 * themselves). A warm change compares tags so (scripts/warm/content-refresh.ts): that count moves with
 * every retag.
 */
export const tagAsPagesShow = ({ press_release_count: _, ...data }: CollectionEntry<'tags'>['data']) => data;

/**
 * Tags by name in the press room's language, each with its path: its slug's, or `tag-<id>` (with a
 * warning) when the slug is not portable or another tag holds it but for case (the lower id keeps it).
 */
export function placeTags(entries: CollectionEntry<'tags'>[], claims: PathClaims, language: string): Tag[] {
  return entries
    .map(({ data }) => tagAsPagesShow(data))
    .sort((a, b) => a.id - b.id)
    .map((data) => {
      const asked = tagSegment({ id: data.id, slug: data.slug }) === data.slug ? tagHref(data) : null;
      const owner = `tag ${data.id}`;
      if (asked !== null && claims.claim(asked, owner)) return { ...data, href: asked };
      const segment = `tag-${data.id}`;
      const href = place(claims, { collection: 'tags', id: String(data.id), field: 'slug', value: data.slug, owner }, asked, [
        tagHref({ ...data, segment }),
      ]);
      return { ...data, segment, href };
    })
    .sort((a, b) => a.name.localeCompare(b.name, language));
}
