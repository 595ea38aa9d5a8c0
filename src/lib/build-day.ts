/**
 * The build's day: what the site decides at build time about "now".
 *
 * Pages never claim what only the reader's clock can know (live now, upcoming): a
 * classic script decides that at view time (src/scripts/event-phases.js). What a
 * crawler, calendar app or reader without JavaScript reads (the events index's
 * split, the home page's teaser, the Google News sitemap window, `.ics` DTSTAMP)
 * uses the build's clock rounded down to the start of its day in the press room's
 * time zone, so a rebuild with no upstream change writes the same bytes all day
 * and changes at most once a day.
 *
 * The build clock is, in order: `SOURCE_DATE_EPOCH` (seconds since the epoch, the
 * reproducible-builds standard); the bundled demo emulator's frozen instant when
 * the demo press room is built (so the demo keeps its upcoming / live / past mix
 * whatever the real date); else the machine's clock. It is fixed once per build
 * (`fixBuildClock`, called by the site's integration) so every page sees the same.
 */
// Subpath imports: the package index loads every date-fns function (seconds on a busy machine).
import { format } from 'date-fns/format';
import { startOfDay } from 'date-fns/startOfDay';
import { tz } from '@date-fns/tz';
import { sourceDateEpoch } from '../config/clock.ts';
import { sessionState } from '../config/session.ts';

export { sourceDateEpoch };

export type BuildClockSource = 'SOURCE_DATE_EPOCH' | 'demo' | 'system';

export interface BuildClock {
  /** ms since the epoch. */
  instant: number;
  source: BuildClockSource;
}

export interface BuildDay {
  /** The calendar day in the press room's time zone, `YYYY-MM-DD`. */
  date: string;
  /** When that day starts (ms since the epoch): the site's deterministic "now". */
  start: number;
  /** IANA zone the day was taken in. */
  timeZone: string;
}

/** Which clock a build uses: SOURCE_DATE_EPOCH, else the demo's instant (when building the demo), else the machine's. */
export function chooseBuildClock(env: Record<string, string | undefined>, demoInstant?: number, now = Date.now()): BuildClock {
  const fixed = sourceDateEpoch(env);
  if (fixed !== undefined) return { instant: fixed, source: 'SOURCE_DATE_EPOCH' };
  if (demoInstant !== undefined && Number.isFinite(demoInstant)) return { instant: demoInstant, source: 'demo' };
  return { instant: now, source: 'system' };
}

/** The day `instant` falls on in `timeZone`, and when it starts (midnight, or the first instant of a day that skips it). */
export function buildDayOf(instant: number, timeZone: string): BuildDay {
  const start = startOfDay(instant, { in: tz(timeZone) });
  return { date: format(start, 'yyyy-MM-dd'), start: start.getTime(), timeZone };
}

interface BuildTime {
  clock?: BuildClock;
  /** The day the pages used, for the build record. */
  day?: BuildDay | undefined;
}

declare module '../config/session.ts' {
  interface SessionState {
    buildTime: BuildTime;
  }
}

// The integration and the pages are loaded by different module graphs of one process: they meet in the build session.
const shared = (): BuildTime => sessionState('buildTime', () => ({}));

/** Fixes this process's build clock (the integration, once the upstream is known). */
export function fixBuildClock(clock: BuildClock): BuildClock {
  Object.assign(shared(), { clock, day: undefined });
  return clock;
}

/** The build clock fixed for this process, or (outside a build: dev server, scripts) one chosen now and kept. */
export function currentBuildClock(env: Record<string, string | undefined> = process.env): BuildClock {
  return (shared().clock ??= chooseBuildClock(env));
}

/** The build day in the press room's time zone; remembered for the build record. */
export function currentBuildDay(timeZone: string): BuildDay {
  const day = buildDayOf(currentBuildClock().instant, timeZone);
  shared().day = day;
  return day;
}

/** The build day the pages used, if any page was rendered in this process. */
export function renderedBuildDay(): BuildDay | undefined {
  return shared().day;
}

export const BUILD_RECORD_FILE = '.pressroom-build.json';

/**
 * What the build decided about time, written beside the pages (`<out>/.pressroom-build.json`,
 * linked from nowhere): the day and the zone it was taken in. No clock time and no source, so two
 * builds on one day write the same bytes; a no-change check compares `buildDayOf(clock, timeZone).date`
 * with `day` to know whether the day-bound files are due.
 */
export function buildRecord(day: BuildDay): string {
  return `${JSON.stringify({ format: 'pressroom-build/1', day: day.date, timeZone: day.timeZone, dayStart: new Date(day.start).toISOString() }, null, 2)}\n`;
}

export type EventPhase = 'upcoming' | 'live' | 'past';

/**
 * Where an event stands at `at` (ms): upcoming before its start, live from its start until its end,
 * past from its end. One without an end, or with an end not after its start, ends when it starts
 * (as in iCalendar), so it is never live. The view-time script applies the same rule.
 */
export function eventPhase(event: { starts_at: string; ends_at: string | null }, at: number): EventPhase {
  const start = Date.parse(event.starts_at);
  const end = Math.max(start, event.ends_at ? Date.parse(event.ends_at) : Number.NaN) || start;
  if (at < start) return 'upcoming';
  return at < end ? 'live' : 'past';
}

/** Whether an event can ever be live (it has an end after its start): only then do pages carry a live badge for the script. */
export function canBeLive(event: { starts_at: string; ends_at: string | null }): boolean {
  return !!event.ends_at && Date.parse(event.ends_at) > Date.parse(event.starts_at);
}
