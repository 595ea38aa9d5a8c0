/**
 * Redirect pages at the hosted newsroom's permalinks of items this site publishes
 * under its own sections (src/lib/paths.ts LEGACY_SECTIONS), so a link from the old
 * newsroom to `/media_kits/840025-northwind-hubs` lands on `/media-kits/840025-northwind-hubs/`.
 * Only permalinks that are safe paths (permalinkSegments) and start with one of those
 * sections become pages; anything else from the API is ignored.
 *
 * Releases whose permalink could not be used (the data policy published them at
 * `/<id>-<slug>`) get a redirect page where a browser lands when it follows the old
 * link: `/../../news/x` resolves to `/news/x`. Only when that is a safe path no other
 * page has; an empty or odd permalink gets none.
 */
import { coverageHrefOf, type SiteData } from './data.ts';
import { libraryItemHrefs } from './media-library.ts';
import {
  LEGACY_SECTIONS,
  eventHref,
  hrefOf,
  landingPath,
  mediaAnchor,
  mediaKitHref,
  permalinkSegments,
  redirectPages,
  routeOf,
} from './paths.ts';

export interface LegacyRedirect {
  /** Site path of the redirect page, without its slashes (`media_kits/840025-northwind-hubs`). */
  path: string;
  /** Where the item lives on this site. */
  to: string;
  /** The item's title, for the page's text. */
  title: string;
}

export function legacyRedirects(siteData: SiteData): LegacyRedirect[] {
  const wanted: Array<{ permalink: string | null | undefined; to: string | null; title: string }> = [];
  for (const kit of siteData.mediaKits) wanted.push({ permalink: kit.permalink, to: mediaKitHref(kit), title: kit.title });
  for (const clipping of siteData.clippings)
    wanted.push({ permalink: clipping.permalink, to: coverageHrefOf(siteData, clipping), title: clipping.title });
  const library = libraryItemHrefs(siteData);
  for (const item of [...siteData.images, ...siteData.videos, ...siteData.movies, ...siteData.sounds, ...siteData.documents]) {
    wanted.push({ permalink: item.permalink, to: library.get(mediaAnchor(item)) ?? null, title: item.title });
  }
  // A live blog is shown on the page of the event that names it (the only way the loaders find one).
  for (const event of siteData.events) {
    const live = event.live_event_id !== null ? siteData.liveEventById.get(event.live_event_id) : undefined;
    if (live) wanted.push({ permalink: live.permalink, to: eventHref(event), title: live.title });
  }

  const redirects = new Map<string, LegacyRedirect>();
  const taken = new Set([...siteData.releases, ...siteData.pages].map((item) => item.href));
  for (const release of siteData.releases) {
    const landing = release.unusable_permalink ? landingPath(release.unusable_permalink) : null;
    const segments = landing ? permalinkSegments(landing) : null;
    if (!segments || taken.has(hrefOf(segments))) continue;
    const path = segments.join('/');
    if (redirects.has(path)) continue;
    redirects.set(path, { path, to: release.href, title: release.title });
    redirectPages().add(routeOf(segments));
  }
  for (const { permalink, to, title } of wanted) {
    if (!permalink || !to) continue;
    const segments = permalinkSegments(permalink, { allowFirst: [...LEGACY_SECTIONS] });
    if (!segments || !(LEGACY_SECTIONS as readonly string[]).includes(segments[0]!) || hrefOf(segments) === to) continue;
    const path = segments.join('/');
    if (!redirects.has(path)) redirects.set(path, { path, to, title });
  }
  return [...redirects.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
