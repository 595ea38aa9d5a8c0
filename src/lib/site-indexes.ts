/** The lookups pages use instead of scanning: releases and clippings by id, tag, language and month. */
import type { Clipping, PressroomData, Release, Tag } from './data-types.ts';
import { yearMonthIn } from './dates.ts';
import { isLanguageCode } from './paths.ts';

/** Adds `value` to the list `map` holds under `key`, starting the list when there is none. */
function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** An ISO date as epoch milliseconds for sorting; a missing one sorts before every date. */
export const epochMsOf = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);
export const newestFirst =
  <T extends { id: number }>(date: (x: T) => string | null | undefined) =>
  (a: T, b: T) =>
    epochMsOf(date(b)) - epochMsOf(date(a)) || a.id - b.id;

/** Items under each of their tags, in the items' order. */
export function byTag<T extends { tag_ids: readonly number[] }>(items: readonly T[]): Map<number, T[]> {
  const index = new Map<number, T[]>();
  for (const item of items) for (const tagId of item.tag_ids) appendTo(index, tagId, item);
  return index;
}

export function indexReleases(releases: readonly Release[], tagById: ReadonlyMap<number, Tag>, timeZone: string) {
  const releaseById = new Map<number, Release>();
  const releasesByLanguage = new Map<string, Release[]>();
  const releasesByTag = new Map<number, Release[]>();
  const releasesByYearMonth = new Map<number, Map<number, Release[]>>();
  for (const release of releases) {
    releaseById.set(release.id, release);
    if (isLanguageCode(release.language)) appendTo(releasesByLanguage, release.language, release);
    for (const tagId of release.tag_ids) if (tagById.has(tagId)) appendTo(releasesByTag, tagId, release);
    if (release.release_date) {
      const { year, month } = yearMonthIn(release.release_date, timeZone);
      let months = releasesByYearMonth.get(year);
      if (!months) releasesByYearMonth.set(year, (months = new Map()));
      appendTo(months, month, release);
    }
  }
  return { releaseById, releasesByLanguage, releasesByTag, releasesByYearMonth };
}

/** Clippings newest first, by id, by tag and by release (linked from either side). */
export function indexClippings(unsorted: Clipping[], releases: readonly Release[]) {
  const clippings = unsorted.sort(newestFirst((c) => c.published_at ?? c.release_date));
  const clippingById = new Map(clippings.map((c) => [c.id, c]));
  const clippingsByTag = new Map<number, Clipping[]>();
  const clippingsByRelease = new Map<number, Clipping[]>();
  for (const clipping of clippings) {
    for (const tagId of clipping.tag_ids) appendTo(clippingsByTag, tagId, clipping);
    if (clipping.press_release_id !== null) appendTo(clippingsByRelease, clipping.press_release_id, clipping);
  }
  for (const release of releases) {
    for (const clippingId of release.clipping_ids) {
      const clipping = clippingById.get(clippingId);
      const linked = clippingsByRelease.get(release.id);
      if (clipping && !linked?.includes(clipping)) appendTo(clippingsByRelease, release.id, clipping);
    }
  }
  return { clippings, clippingById, clippingsByTag, clippingsByRelease };
}

/** Languages with releases, the press room's own first. */
export function siteLanguages(pressroom: PressroomData, releasesByLanguage: ReadonlyMap<string, Release[]>): string[] {
  const languageSet = new Set<string>();
  for (const lang of [pressroom.language, ...pressroom.languages, ...releasesByLanguage.keys()]) {
    if (isLanguageCode(lang) && releasesByLanguage.has(lang)) languageSet.add(lang);
  }
  return [...languageSet];
}
