/** The related releases of a release page (src/lib/related-releases.ts). */
import { describe, expect, it } from 'vitest';
import type { Release } from '../../../src/lib/data.ts';
import { relatedReleases } from '../../../src/lib/related-releases.ts';

describe('relatedReleases', () => {
  // A seeded press room: 400 releases, 6 tags, 3 languages, dates with ties.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const releases = Array.from({ length: 400 }, (_, i) => ({
    id: 1000 + i,
    language: ['en', 'nl', 'de'][Math.floor(random() * 3)]!,
    release_date: new Date(Date.UTC(2026, 0, 1 + Math.floor(random() * 60))).toISOString(),
    tag_ids: [1, 2, 3, 4, 5, 6].filter(() => random() < 0.35),
  })) as unknown as Release[];
  const releasesByTag = new Map<number, Release[]>();
  for (const r of releases) for (const t of r.tag_ids) releasesByTag.set(t, [...(releasesByTag.get(t) ?? []), r]);

  /** The plain definition: score every candidate, sort them all, take the first few. */
  function reference(release: Release, count: number): Release[] {
    const shared = (o: Release) => o.tag_ids.filter((t) => release.tag_ids.includes(t)).length;
    return releases
      .filter((o) => o.id !== release.id && shared(o) > 0)
      .sort(
        (a, b) =>
          Number(b.language === release.language) - Number(a.language === release.language) ||
          shared(b) - shared(a) ||
          Date.parse(b.release_date!) - Date.parse(a.release_date!) ||
          a.id - b.id,
      )
      .slice(0, count);
  }

  it('picks the same releases in the same order as scoring and sorting every candidate', () => {
    for (const release of releases.slice(0, 120)) {
      for (const count of [1, 3, 5]) {
        expect(
          relatedReleases({ releasesByTag }, release, count).map((r) => r.id),
          `release ${release.id}, ${count}`,
        ).toEqual(reference(release, count).map((r) => r.id));
      }
    }
    const untagged = releases.find((r) => r.tag_ids.length === 0)!;
    expect(relatedReleases({ releasesByTag }, untagged)).toEqual([]);
  });
});
