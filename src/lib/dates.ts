/** Dates for people: formatted with Intl in the page's language and the press room's time zone. */

const cache = new Map<string, Intl.DateTimeFormat>();

/**
 * The locale for Intl: a bare `en` is US English only for press rooms in the
 * Americas; elsewhere it is British English (31 October 2026, 08:55 CET),
 * which is what international newsrooms write.
 */
export function dateLocale(lang: string, timeZone: string): string {
  if (lang.toLowerCase() !== 'en') return lang;
  return /^(America|US|Canada|Pacific\/Honolulu)/.test(timeZone) ? 'en-US' : 'en-GB';
}

function formatter(lang: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${timeZone}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(dateLocale(lang, timeZone), { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' });
    }
    cache.set(key, f);
  }
  return f;
}

const toDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);

/** "31 October 2026" / "31 oktober 2026" / "31. Oktober 2026". */
export function formatDate(value: string | Date, lang: string, timeZone: string): string {
  return formatter(lang, timeZone, { day: 'numeric', month: 'long', year: 'numeric' }).format(toDate(value));
}

/** Date, time and zone, as every date-time of the site is written. */
const DATE_TIME: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
};

/** "31 October 2026, 08:55 CET". */
export function formatDateTime(value: string | Date, lang: string, timeZone: string): string {
  return formatter(lang, timeZone, DATE_TIME).format(toDate(value));
}

/** "25 November 2026, 11:55–19:55 CET" (or the two full dates when the range spans days). */
export function formatDateTimeRange(start: string | Date, end: string | Date | null, lang: string, timeZone: string): string {
  const r = dateTimeRangeText(start, end, lang, timeZone);
  return r.end === null ? r.start : `${r.before}${r.start}${r.between}${r.end}${r.after}`;
}

/** A date-time range cut where its start and its end are written, so each can be its own `<time datetime>`. */
export interface RangeText {
  before: string;
  start: string;
  between: string;
  /** null: no end shown (none given, not after the start, or the same to the minute). */
  end: string | null;
  after: string;
}

/**
 * formatDateTimeRange's text in pieces: "1 November 2026, " + "09:00" + "–" + "15:00" + " CET"
 * (the shared date and zone stay outside; across days the whole start and the whole end are the pieces).
 */
export function dateTimeRangeText(start: string | Date, end: string | Date | null, lang: string, timeZone: string): RangeText {
  const f = formatter(lang, timeZone, DATE_TIME);
  const [a, b] = [toDate(start), end ? toDate(end) : null];
  const whole = { before: '', start: f.format(a), between: '', end: null, after: '' };
  if (!b || !(b > a)) return whole;
  const parts = f.formatRangeToParts(a, b);
  const first = (source: string) => parts.findIndex((p) => p.source === source);
  const last = (source: string) => parts.findLastIndex((p) => p.source === source);
  const [s0, s1, e0, e1] = [first('startRange'), last('startRange'), first('endRange'), last('endRange')];
  if (s0 < 0 || e0 < 0 || s1 >= e0) return whole;
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) => p.value)
      .join('');
  return {
    before: text(0, s0),
    start: text(s0, s1 + 1),
    between: text(s1 + 1, e0),
    end: text(e0, e1 + 1),
    after: text(e1 + 1, parts.length),
  };
}

/** "08:55". */
export function formatTime(value: string | Date, lang: string, timeZone: string): string {
  return formatter(lang, timeZone, { hour: '2-digit', minute: '2-digit' }).format(toDate(value));
}

/** "March 2025" (the month's name with its year). */
export function formatMonth(year: number, month: number, lang: string): string {
  return formatter(lang, 'UTC', { month: 'long', year: 'numeric' }).format(new Date(Date.UTC(year, month - 1, 15)));
}

/** Day number and short month for date badges: { day: "9", month: "Mar" }. */
export function dayAndMonth(value: string | Date, lang: string, timeZone: string): { day: string; month: string } {
  const parts = formatter(lang, timeZone, { day: 'numeric', month: 'short' }).formatToParts(toDate(value));
  return {
    day: parts.find((p) => p.type === 'day')?.value ?? '',
    month: (parts.find((p) => p.type === 'month')?.value ?? '').replace(/\.$/, ''),
  };
}

/** Calendar year and month (1–12) of an instant in a time zone. */
export function yearMonthIn(value: string | Date, timeZone: string): { year: number; month: number } {
  const parts = formatter('en', timeZone, { year: 'numeric', month: 'numeric' }).formatToParts(toDate(value));
  return { year: Number(parts.find((p) => p.type === 'year')?.value), month: Number(parts.find((p) => p.type === 'month')?.value) };
}
