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

/** "31 October 2026, 08:55 CET". */
export function formatDateTime(value: string | Date, lang: string, timeZone: string): string {
  return formatter(lang, timeZone, {
    day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  }).format(toDate(value));
}

/** "25 November 2026, 11:55–19:55 CET" (or the two full dates when the range spans days). */
export function formatDateTimeRange(start: string | Date, end: string | Date | null, lang: string, timeZone: string): string {
  const f = formatter(lang, timeZone, { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  if (!end) return f.format(toDate(start));
  const [a, b] = [toDate(start), toDate(end)];
  return b > a ? f.formatRange(a, b) : f.format(a);
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
