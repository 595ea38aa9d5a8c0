/**
 * The build's "now" for splitting events into upcoming and past and for live
 * markers: the newest instant among the press room's own content dates (release
 * dates and edits, coverage, media kit updates, live-blog posts, media uploads),
 * NOT the build machine's clock. Same input → same bytes: a scheduled rebuild with
 * no upstream change writes an identical dist/ (DESIGN.md, scheduled rebuilds), and
 * two builds of one snapshot match. The API hides anything dated in the future
 * (embargoes), so this instant is never ahead of real time; it lags it only while
 * the press room publishes nothing — an event then stays "upcoming" until the next
 * publication or rebuild with new content. Event dates themselves are not used
 * (they are mostly in the future). With no dated content at all: the Unix epoch.
 */
export function referenceInstant(dates: Iterable<string | null | undefined>): number {
  let newest = 0;
  for (const date of dates) {
    const t = date ? Date.parse(date) : Number.NaN;
    if (Number.isFinite(t) && t > newest) newest = t;
  }
  return newest;
}
