/**
 * The release count an archive year page prints under each month heading. The year is taken
 * unrecorded and only the months read are noted (their entries in `releasesByYearMonth`), so a
 * numbered year page depends on the months it shows, not on the whole year, which every release of
 * the year coming or going would change (route-record.ts).
 */
import type { SiteData } from './data.ts';
import { withoutRecording } from './route-record.ts';

export function monthReleaseCount(siteData: Pick<SiteData, 'releasesByYearMonth'>, year: number, month: number): number | undefined {
  const months = withoutRecording(() => siteData.releasesByYearMonth.get(year));
  return months?.get(month)?.length;
}
