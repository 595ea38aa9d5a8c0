/**
 * Public paths of the site. Permalinks from the API decide where releases and
 * custom pages live (`/<id>-<slug>`, `/pages/<slug>`), so links from the hosted
 * newsroom keep working; every path is checked here so no id or slug from the
 * API can escape `dist/` or shadow one of the site's own sections.
 *
 * Every path below is written under the site's base path (PRESSROOM_SITE_URL's path, Astro's
 * `base`): `/releases/` is published as `/press/releases/` for `https://example.com/press/`.
 * Every href this module gives is already under it (`sitePath`); the build writes the files
 * at the root of dist/ all the same (`routePath` is the path without the base).
 *
 * URL scheme (trailing slash everywhere: the build writes `<path>/index.html`):
 *   /                         home (press room language)
 *   /<permalink>/             press release (`/100314-slug/`) or custom page (`/pages/about-us/`)
 *   /releases/, /releases/1/  every release: the newest on /releases/, numbered pages from the oldest (src/lib/listing-pages.ts)
 *   /<lang>/, /<lang>/1/      releases in one language (`/nl/`), interface in that language
 *   /archive/, /archive/2025/, /archive/2025/03/       (long ones paginated: /archive/2025/page/1/, /archive/2025/03/page/1/)
 *   /tags/, /tags/<slug>/, /tags/<slug>/1/
 *   /rss.xml, /atom.xml, /feed.json, /feeds/…          feeds and their archives (src/lib/feeds.ts)
 *   /media-kits/, /media-kits/<id>-<slug>/             (from the kit's permalink `/media_kits/<id>-<slug>`)
 *   /media/, /media/<section>/, /media/<section>/1/    media library: images, videos, audio, documents
 *   /coverage/, /coverage/1/ (#clipping-<id>)          clippings, newest first
 *   /events/, /events/<id>-<slug>/, /events/<id>-<slug>.ics, /events/calendar.ics
 *   /contacts/ (#contact-<id>), /contacts/<id>-<name>.vcf
 *   /llms.txt, /llms-full.txt, /<permalink>/index.md       for AI assistants (src/lib/llms.ts; none when noindex)
 *
 * The hosted newsroom's other addresses (`/media_kits/<id>-<slug>`, `/clippings/<id>-<slug>`,
 * `/images/<id>`, `/documents/<id>`, `/movies/<id>`, `/videos/<id>`, `/sounds/<id>`,
 * `/live/<id>-<slug>`) stay reachable as redirect pages to where the item lives here
 * (src/lib/legacy-redirects.ts), so old links keep working.
 */
import { slugify } from '@pressroom-static/content-loaders';
import { sessionState } from '../config/session.ts';

/** One path segment: letters, digits, `-`, `_`, `.`, `~`; never `.`/`..`, never starting with a dot. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;
/** Longest segment: file systems allow 255 bytes per name, and the build adds none to a folder's. */
const MAX_SEGMENT_LENGTH = 200;
/** Names Windows refuses for a file or folder, with any extension (`CON`, `nul.txt`, `com1.md`). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Names of files the build writes inside a page's folder or at the root, which a folder of that name would collide with. */
const WRITTEN_FILE = /^index\.(html|md)$|\.html?$/i;

/**
 * A segment every file system and storage can hold as a folder name, whatever its case handling:
 * safe characters, not too long, no trailing dot (Windows drops it), no Windows device name, and
 * not the name of a file the build writes beside it.
 */
export function isPortableSegment(segment: string): boolean {
  return (
    SEGMENT.test(segment) &&
    segment.length <= MAX_SEGMENT_LENGTH &&
    !segment.endsWith('.') &&
    !WINDOWS_RESERVED.test(segment) &&
    !WRITTEN_FILE.test(segment)
  );
}

/** First segments the site uses for its own pages and assets. */
const RESERVED_SEGMENTS = new Set([
  'releases',
  'archive',
  'tags',
  '_astro',
  '_media',
  'media_kits',
  'media-kits',
  'media',
  'events',
  'clippings',
  'coverage',
  'contacts',
  'images',
  'videos',
  'movies',
  'sounds',
  'documents',
  'live',
  'search',
  'feeds',
  'pagefind',
  'rss.xml',
  'atom.xml',
  'feed.json',
  'sitemap-index.xml',
  'sitemap-0.xml',
  'sitemap-news.xml',
  'robots.txt',
  '404',
  'index.html',
  'favicon.ico',
  'favicon.svg',
  'icon-192.png',
  'apple-touch-icon.png',
  'llms.txt',
  'llms-full.txt',
  '_search',
  // Custom pages own /pages/: a release there would take a page's path.
  'pages',
]);

/** Sitemap files the build writes at the root: `sitemap-<n>.xml` (@astrojs/sitemap past 45,000 URLs), `sitemap-news-<n>.xml`. */
const SITEMAP_FILE = /^sitemap(-news)?-\d+\.xml$/i;

/**
 * The base path the site is served under, from Astro (`import.meta.env.BASE_URL`): `/` or `/press/`,
 * always ending in `/`. Plain Node (scripts, astro.config.mjs) has no import.meta.env: those use
 * base-less paths only (`isLegacyPath`).
 */
export const BASE_PATH: string = (import.meta.env?.BASE_URL ?? '/').replace(/\/?$/, '/');

/** A root-relative site path (`/releases/`) as the site publishes it, under the base path (`/press/releases/`). */
export function sitePath(path: string, base = BASE_PATH): string {
  return `${base}${path.replace(/^\//, '')}`;
}

/** The path of a site href without the base path (`/press/releases/` → `/releases/`): where dist/ holds it. */
export function routePath(href: string, base = BASE_PATH): string {
  if (href.startsWith(base)) return `/${href.slice(base.length)}`;
  return base.length > 1 && href === base.slice(0, -1) ? '/' : href;
}

/** A language code usable as `/<lang>/`. */
export function isLanguageCode(lang: string): boolean {
  return /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang);
}

/**
 * The segments of an API permalink when it is safe to write as a folder of
 * dist/, or null: relative, no `..`, no encoded or odd characters, and not
 * starting with a reserved segment or a language code.
 */
export function permalinkSegments(permalink: string, { allowFirst = [] as string[] } = {}): string[] | null {
  if (!permalink.startsWith('/') || permalink.startsWith('//') || permalink.length > 300) return null;
  const segments = permalink.slice(1).replace(/\/$/, '').split('/');
  if (segments.length === 0 || segments.some((s) => !isPortableSegment(s))) return null;
  const first = segments[0]!;
  // Compared without case: on case-insensitive storage `/EN/` would be the language index `/en/`.
  const folded = first.toLowerCase();
  if (!allowFirst.includes(first) && (RESERVED_SEGMENTS.has(folded) || SITEMAP_FILE.test(first) || isLanguageCode(folded))) return null;
  return segments;
}

/** Where a browser ends up for a root-relative link: dot segments resolved (`/a/../../b` → `/b`); null for other links. */
export function landingPath(permalink: string): string | null {
  if (!permalink.startsWith('/') || permalink.startsWith('//')) return null;
  try {
    return new URL(permalink, 'https://newsroom.invalid/').pathname;
  } catch {
    return null;
  }
}

/** The path of safe segments without the base (`/news/x/`), with the trailing slash the build writes. */
export function routeOf(segments: readonly string[]): string {
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** The href of a path made of safe segments. */
export const hrefOf = (segments: readonly string[]): string => sitePath(routeOf(segments));

export const homeHref = sitePath('/');
/**
 * Listing pages: `page` is a numbered page (1 the oldest, src/lib/listing-pages.ts); none or `null`
 * is the listing's front page, its newest items.
 */
type PageNumber = number | null;
const listingHref = (listing: string, page: PageNumber = null, prefix = '') =>
  sitePath(page === null ? listing : `${listing}${prefix}${page}/`);

/** Releases per page of /releases/ and of each language's /<lang>/ (cards). */
export const RELEASES_PAGE_SIZE = 12;
export const releasesHref = (page: PageNumber = null) => listingHref('/releases/', page);
export const languageHref = (lang: string, page: PageNumber = null) => listingHref(`/${lang}/`, page);
/** Releases per page of a tag's listing and of the archive's year and month listings (rows). */
export const LISTING_PAGE_SIZE = 20;
/**
 * The archive, a year or a month of it, and their numbered pages. `page/<n>/` rather than
 * a bare number, which would read like a month (`/archive/2025/2/` next to `/archive/2025/02/`).
 */
export const archiveHref = (year?: number, month?: number, page: PageNumber = null) => {
  const listing =
    year === undefined ? '/archive/' : month === undefined ? `/archive/${year}/` : `/archive/${year}/${String(month).padStart(2, '0')}/`;
  return listingHref(listing, year === undefined ? null : page, 'page/');
};
export const tagsHref = sitePath('/tags/');

/**
 * A tag's path segment: the one it was placed at (`segment`, see site-paths.ts), else its slug when
 * portable, else `tag-<id>`.
 */
export function tagSegment(tag: { id: number; slug: string; segment?: string }): string {
  if (tag.segment) return tag.segment;
  return isPortableSegment(tag.slug) && tag.slug.length <= 120 ? tag.slug : `tag-${tag.id}`;
}
export const tagHref = (tag: { id: number; slug: string; segment?: string }, page: PageNumber = null) =>
  listingHref(`/tags/${tagSegment(tag)}/`, page);

/**
 * The `<id>-<slug>` segment of an item published under one of the site's own
 * sections (`/media-kits/`, `/events/`): the last segment of its API permalink
 * when that is a safe segment starting with the item's id, else the id alone.
 * So `/media_kits/840057-cargo-photos` → `840057-cargo-photos`, while
 * `/media_kits/../../etc` or `/events/999-someone-else` → `<id>`.
 */
export function itemSegment(item: { id: number; permalink: string | null }): string {
  const id = String(item.id);
  const last = item.permalink?.replace(/\/+$/, '').split('/').pop() ?? '';
  const ok =
    isPortableSegment(last) && last.length <= 160 && (last === id || last.startsWith(`${id}-`)) && !/\.(ics|vcf|xml|json)$/i.test(last);
  return ok ? last : id;
}

/** The project's one slug rule (content-loaders/slug.ts): transliterated ASCII, currency signs as codes. */
export { slugify };

/** First segments of the hosted newsroom's permalinks for items this site publishes under its own sections. */
export const LEGACY_SECTIONS = ['media_kits', 'clippings', 'images', 'documents', 'movies', 'videos', 'sounds', 'live'] as const;

declare module '../config/session.ts' {
  interface SessionState {
    redirectPages: Set<string>;
  }
}

/**
 * Redirect pages outside the legacy sections (a release's unusable permalink, resolved), as
 * `/path/` without the base path. Kept in the build session: the routes are made in the pages' module graph, the sitemap
 * filter (astro.config.mjs) reads them in the config's, later in the same build.
 */
export function redirectPages(): Set<string> {
  return sessionState('redirectPages', () => new Set());
}

/** True for a site path without the base (`/media_kits/1-x/`) that is a redirect page: never in the sitemap or the search index. */
export function isLegacyPath(pathname: string): boolean {
  const first = pathname.replace(/^\/+/, '').split('/')[0] ?? '';
  if ((LEGACY_SECTIONS as readonly string[]).includes(first)) return true;
  return redirectPages().has(`/${pathname.replace(/^\/+|\/+$/g, '')}/`);
}

export const mediaKitsHref = sitePath('/media-kits/');
export const mediaKitHref = (kit: { id: number; permalink: string | null }): string => sitePath(`/media-kits/${itemSegment(kit)}/`);

/** Sections of the media library, in the order the overview shows them. */
export const MEDIA_SECTIONS = ['images', 'videos', 'audio', 'documents'] as const;
export type MediaSection = (typeof MEDIA_SECTIONS)[number];
export const mediaHref = (section?: MediaSection, page: PageNumber = null): string =>
  section === undefined ? sitePath('/media/') : listingHref(`/media/${section}/`, page);

const MEDIA_TYPES = new Set(['image', 'movie', 'video', 'sound', 'document']);
/** A media item's anchor where it is listed (`#image-91001`): ids are per type upstream; an unknown type is `media`. */
export const mediaAnchor = (item: { type: string; id: number }): string => `${MEDIA_TYPES.has(item.type) ? item.type : 'media'}-${item.id}`;

/** Clippings per page of /coverage/. */
export const COVERAGE_PAGE_SIZE = 20;
export const coverageHref = (page: PageNumber = null): string => listingHref('/coverage/', page);
export const clippingAnchor = (clipping: { id: number }): string => `clipping-${clipping.id}`;
/** Where a clipping is on /coverage/: the page it is listed on (pageOfIndex in listing-pages.ts) and its anchor. */
export const clippingHref = (clipping: { id: number }, page: PageNumber): string => `${coverageHref(page)}#${clippingAnchor(clipping)}`;

export const eventsHref = sitePath('/events/');
export const eventHref = (event: { id: number; permalink: string }): string => sitePath(`/events/${itemSegment(event)}/`);
export const eventIcsHref = (event: { id: number; permalink: string }): string => sitePath(`/events/${itemSegment(event)}.ics`);
export const calendarHref = sitePath('/events/calendar.ics');

export const contactsHref = sitePath('/contacts/');
export const contactAnchor = (contact: { id: number }): string => `contact-${contact.id}`;
export const contactSegment = (contact: { id: number; name: string }): string => {
  const slug = slugify(contact.name);
  return slug ? `${contact.id}-${slug}` : String(contact.id);
};
export const contactVcfHref = (contact: { id: number; name: string }): string => sitePath(`/contacts/${contactSegment(contact)}.vcf`);

export const llmsTxtHref = sitePath('/llms.txt');
export const llmsFullTxtHref = sitePath('/llms-full.txt');
/** A release's Markdown twin, in its page's own folder: `/123-slug/` → `/123-slug/index.md`. */
export const markdownTwinHref = (release: { href: string }): string => `${release.href}index.md`;
