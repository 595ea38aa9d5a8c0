/** Related releases for a release page (pure: no content-layer import, so unit tests reach it). */
import { createHash } from 'node:crypto';
import type { Release, SiteData } from './data.ts';
import { lookupKey, withoutRecording } from './route-record.ts';

/**
 * The tag lists as numbers, made once per site: every release page scores every release of its
 * tags, so scores are counted in a typed array by release number rather than in a Map.
 */
interface TagIndex {
  releases: Release[];
  /** Release time by release number (ms; -Infinity without a date). */
  times: Float64Array;
  /** Language (as a number of `languageNumbers`) and API id by release number: compared for every candidate. */
  languages: Int32Array;
  languageNumbers: Map<string, number>;
  ids: Float64Array;
  /** Tag id → the numbers of the releases listed under it. */
  numbersByTag: Map<number, Int32Array>;
  /** Scratch space of one scoring: shared tags per release number, and which numbers were touched. */
  scores: Uint32Array;
  touched: Int32Array;
}

const tagIndexes = new WeakMap<ReadonlyMap<number, Release[]>, TagIndex>();

/** Made once, reading every release: not what a page depends on (see `noteRelated`). */
function tagIndex(releasesByTag: ReadonlyMap<number, Release[]>): TagIndex {
  let index = tagIndexes.get(releasesByTag);
  if (!index) tagIndexes.set(releasesByTag, (index = withoutRecording(() => indexOf(releasesByTag))));
  return index;
}

function indexOf(releasesByTag: ReadonlyMap<number, Release[]>): TagIndex {
  const numbers = new Map<Release, number>();
  const releases: Release[] = [];
  const numbersByTag = new Map<number, Int32Array>();
  for (const [tagId, list] of releasesByTag) {
    const ids = new Int32Array(list.length);
    list.forEach((release, i) => {
      let n = numbers.get(release);
      if (n === undefined) numbers.set(release, (n = releases.push(release) - 1));
      ids[i] = n;
    });
    numbersByTag.set(tagId, ids);
  }
  const times = Float64Array.from(releases, (r) => (r.release_date ? Date.parse(r.release_date) : Number.NEGATIVE_INFINITY));
  const languageNumbers = new Map<string, number>();
  const languages = Int32Array.from(releases, (r) => {
    let n = languageNumbers.get(r.language);
    if (n === undefined) languageNumbers.set(r.language, (n = languageNumbers.size));
    return n;
  });
  const ids = Float64Array.from(releases, (r) => r.id);
  return {
    releases,
    times,
    languages,
    languageNumbers,
    ids,
    numbersByTag,
    scores: new Uint32Array(releases.length),
    touched: new Int32Array(releases.length),
  };
}

/**
 * Releases sharing the most tags with `release` (same language first), newest first among equals.
 * Every release page asks, so it keeps only the best `count` while scoring instead of sorting every
 * candidate (a tag can hold thousands of releases).
 */
export function relatedReleases(siteData: Pick<SiteData, 'releasesByTag'>, release: Release, count = 3): Release[] {
  noteRelated(`${release.id}:${count}`);
  return pickRelated(siteData, release, count);
}

/**
 * What a page's related releases depend on: which releases they are, in order (what they print of
 * each, the page reads and notes itself). Not the lists of the release's tags: a release published
 * under a tag of thousands changes those lists, and every page of the tag would render again for
 * the few whose picks it changes.
 */
const noteRelated = lookupKey('relatedReleases', (site) => {
  const { releaseById } = site as Pick<SiteData, 'releaseById' | 'releasesByTag'>;
  const picks = picksFor(site as Pick<SiteData, 'releaseById' | 'releasesByTag'>);
  return {
    get: (entry: string) => {
      if (picks.has(entry)) return picks.get(entry);
      const [id, count] = entry.split(':').map(Number);
      const release = releaseById.get(id!);
      const picked = release && withoutRecording(() => pickRelated(site as SiteData, release, count!).map((r) => r.id));
      picks.set(entry, picked);
      return picked;
    },
  };
});

/**
 * The picks of the last site whose releases had the same tags, languages and dates: a renderer kept
 * warm (scripts/warm/) digests every release's picks at each change (1.1–1.6 s at 10,000 releases),
 * and a retitle or a body edit leaves every pick as it was.
 */
let lastPicks: { inputs: string; picks: Map<string, number[] | undefined> } | undefined;

function picksFor(site: Pick<SiteData, 'releaseById' | 'releasesByTag'>): Map<string, number[] | undefined> {
  const inputs = pickInputs(site);
  if (lastPicks?.inputs !== inputs) lastPicks = { inputs, picks: new Map() };
  return lastPicks.picks;
}

/** A digest of everything pickRelated reads: each tag's releases and each release's tags, language and date. */
function pickInputs({ releaseById, releasesByTag }: Pick<SiteData, 'releaseById' | 'releasesByTag'>): string {
  const hash = createHash('sha256');
  const described = (r: Release) => `${r.id} ${r.language} ${r.release_date ?? ''}`;
  for (const [tagId, list] of releasesByTag) hash.update(`tag ${tagId}: ${list.map(described).join(', ')}\n`);
  for (const [id, r] of releaseById) hash.update(`release ${id}: ${described(r)} [${r.tag_ids.join(' ')}]\n`);
  return hash.digest('hex');
}

function pickRelated(siteData: Pick<SiteData, 'releasesByTag'>, release: Release, count: number): Release[] {
  const { releases, times, languages, languageNumbers, ids, numbersByTag, scores, touched } = tagIndex(siteData.releasesByTag);
  const language = languageNumbers.get(release.language) ?? -1;
  let candidates = 0;
  for (const tagId of release.tag_ids) {
    const numbers = numbersByTag.get(tagId);
    if (!numbers) continue;
    for (const n of numbers) if (scores[n]!++ === 0) touched[candidates++] = n;
  }
  // Negative when release number a goes before b: same language first, more shared tags, newer, lower id.
  const before = (a: number, b: number): number =>
    Number(languages[b] === language) - Number(languages[a] === language) ||
    scores[b]! - scores[a]! ||
    times[b]! - times[a]! ||
    ids[a]! - ids[b]!;
  const best: number[] = [];
  for (let i = 0; i < candidates; i++) {
    const n = touched[i]!;
    if (ids[n] === release.id) continue;
    if (best.length === count && before(n, best[count - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && before(n, best[at - 1]!) < 0) at--;
    best.splice(at, 0, n);
    if (best.length > count) best.pop();
  }
  const related = best.map((n) => releases[n]!);
  for (let i = 0; i < candidates; i++) scores[touched[i]!] = 0;
  return related;
}
