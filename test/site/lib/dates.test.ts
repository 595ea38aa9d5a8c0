/** Dates on pages (src/lib/dates.ts): in the page language and the press room's time zone. */
import { describe, expect, it } from 'vitest';
import { dateTimeRangeText, formatDate, formatDateTime, formatDateTimeRange, yearMonthIn } from '../../../src/lib/dates.ts';

describe('dates', () => {
  const iso = '2026-10-31T07:55:00.000Z';
  it('formats in the page language and the press room time zone', () => {
    expect(formatDate(iso, 'en', 'Europe/Amsterdam')).toBe('31 October 2026');
    expect(formatDate(iso, 'nl', 'Europe/Amsterdam')).toBe('31 oktober 2026');
    expect(formatDate(iso, 'de', 'Europe/Amsterdam')).toBe('31. Oktober 2026');
    expect(formatDate(iso, 'en', 'America/New_York')).toBe('October 31, 2026');
    expect(formatDateTime(iso, 'en', 'Europe/Amsterdam')).toBe('31 October 2026 at 08:55 CET');
    expect(formatDateTimeRange('2026-11-25T10:55:00Z', '2026-11-25T18:55:00Z', 'en', 'Europe/Berlin')).toMatch(
      /^25 November 2026, 11:55\s*–\s*19:55 CET$/,
    );
  });
  it('cuts a range where its start and its end are written, for a <time datetime> each', () => {
    const join = (r: ReturnType<typeof dateTimeRangeText>) => `${r.before}[${r.start}]${r.between}[${r.end}]${r.after}`;
    expect(join(dateTimeRangeText('2026-11-25T10:55:00Z', '2026-11-25T18:55:00Z', 'en', 'Europe/Berlin'))).toMatch(
      /^25 November 2026, \[11:55\]\s*–\s*\[19:55\] CET$/,
    );
    expect(join(dateTimeRangeText('2026-11-01T07:00:00Z', '2026-11-01T13:00:00Z', 'de', 'Europe/Amsterdam'))).toBe(
      '1. November 2026, [08:00]–[14:00] Uhr MEZ',
    );
    expect(join(dateTimeRangeText('2026-11-25T10:55:00Z', '2026-11-27T18:55:00Z', 'en', 'Europe/Berlin'))).toMatch(
      /^\[25 November 2026 at 11:55 CET\]\s*–\s*\[27 November 2026 at 19:55 CET\]$/,
    );
    // No end, or none after the start: the whole text is the start.
    for (const end of [null, '2026-11-25T10:55:00Z', '2026-11-25T09:00:00Z']) {
      expect(dateTimeRangeText('2026-11-25T10:55:00Z', end, 'en', 'Europe/Berlin')).toEqual({
        before: '',
        start: '25 November 2026 at 11:55 CET',
        between: '',
        end: null,
        after: '',
      });
    }
    expect(formatDateTimeRange('2026-11-25T10:55:00Z', null, 'en', 'Europe/Berlin')).toBe('25 November 2026 at 11:55 CET');
  });
  it('files an instant under the month it has in the press room time zone', () => {
    expect(yearMonthIn('2025-12-31T23:30:00Z', 'Europe/Amsterdam')).toEqual({ year: 2026, month: 1 });
    expect(yearMonthIn('2025-12-31T23:30:00Z', 'UTC')).toEqual({ year: 2025, month: 12 });
  });
});
