/**
 * What a change announces: the subscription feeds that are new or changed (to a
 * WebSub hub) and the pages that are new, changed or gone (to IndexNow: a
 * removed URL is submitted too, so engines re-crawl it and find it gone). URLs
 * are absolute on the site's URL, a page under the address every link uses
 * (`a/index.html` → `…/a/`, scripts/change-report.ts urlsOfFile).
 *
 * The change comes from a build's change report (what the build swapped in) or
 * from a deploy (what it uploaded and deleted in the bucket).
 */
import { urlsOfFile, type ChangeReport } from '../scripts/change-report.ts';

/** Site files that changed, by path in the site folder (`/`-separated). */
export interface SiteChanges {
  /** PRESSROOM_SITE_URL, no trailing slash. */
  site: string;
  /** Files added or changed: there now. */
  present: string[];
  /** Files removed: gone now. */
  removed: string[];
  /** There was no earlier site to compare with (a first build, a first deploy): everything is new. */
  first: boolean;
}

export interface Announcement {
  /** Absolute URLs of the subscription feed documents that changed, sorted. */
  feeds: string[];
  /** Absolute URLs of the pages that were added, changed or removed, sorted. */
  pages: string[];
}

/**
 * A feed's subscription document, as src/lib/feed-paths.ts lays them out: `rss.xml`, `atom.xml`,
 * `feed.json` at the root, under `feeds/<lang>/` and `feeds/tags/<slug>/`. Archive documents
 * (`…/archive/<n>/…`) never change what a subscriber sees and are not announced.
 */
const SUBSCRIPTION_FEED = /^(?:feeds\/(?:tags\/)?[^/]+\/)?(?:rss\.xml|atom\.xml|feed\.json)$/;

/** The site's own error page is not an address anyone links to. */
const NOT_A_PAGE = new Set(['404.html']);

export const isSubscriptionFeed = (file: string): boolean => SUBSCRIPTION_FEED.test(file);
export const isPage = (file: string): boolean => file.endsWith('.html') && !NOT_A_PAGE.has(file);

/** What a build's change report lists. */
export function reportedChanges(report: ChangeReport): SiteChanges {
  return {
    site: report.site,
    present: [...report.added, ...report.changed].map((entry) => entry.path),
    removed: report.removed.map((entry) => entry.path),
    first: !report.previous,
  };
}

export function announcementOf({ site, present, removed }: SiteChanges): Announcement {
  const origin = site.replace(/\/+$/, '');
  const urls = (files: string[], keep: (file: string) => boolean) =>
    [...new Set(files.filter(keep).map((file) => `${origin}${urlsOfFile(file)[0]!}`))].sort();
  return {
    feeds: urls(present, isSubscriptionFeed),
    pages: urls([...present, ...removed], isPage),
  };
}
