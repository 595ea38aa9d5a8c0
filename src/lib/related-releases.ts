/** Related releases for a release page (pure: no content-layer import, so unit tests reach it). */
import type { Release, SiteData } from './data.ts';

const releaseTimes = new WeakMap<Release, number>();
const releasedAt = (r: Release): number => {
  let t = releaseTimes.get(r);
  if (t === undefined) releaseTimes.set(r, (t = r.release_date ? Date.parse(r.release_date) : Number.NEGATIVE_INFINITY));
  return t;
};

/**
 * Releases sharing the most tags with `release` (same language first), newest first among equals.
 * Every release page asks, so it keeps only the best `count` while scoring instead of sorting every
 * candidate (a tag can hold thousands of releases).
 */
export function relatedReleases(site: Pick<SiteData, 'releasesByTag'>, release: Release, count = 3): Release[] {
  const score = new Map<Release, number>();
  for (const tagId of release.tag_ids) {
    for (const other of site.releasesByTag.get(tagId) ?? []) {
      if (other.id !== release.id) score.set(other, (score.get(other) ?? 0) + 1);
    }
  }
  const before = ([a, sa]: [Release, number], [b, sb]: [Release, number]): number =>
    Number(b.language === release.language) - Number(a.language === release.language) ||
    sb - sa ||
    releasedAt(b) - releasedAt(a) ||
    a.id - b.id;
  const best: Array<[Release, number]> = [];
  for (const candidate of score) {
    if (best.length === count && before(candidate, best[count - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && before(candidate, best[at - 1]!) < 0) at--;
    best.splice(at, 0, candidate);
    if (best.length > count) best.pop();
  }
  return best.map(([r]) => r);
}
