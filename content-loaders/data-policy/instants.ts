/**
 * Reading an instant the way the live API is known to send one: ISO 8601 in
 * its extended (`2026-12-01T12:00:00.000Z`) and basic (`20261201T120000Z`)
 * forms, offsets with or without minutes (`+02`, `+0200`, `+02:00`), a date
 * alone, or epoch seconds or milliseconds as a number or a string. Nothing
 * else is guessed at: `Date.parse` reads `"1"` as the year 2001, so a value in
 * another form is unreadable, and the caller decides what that means (an
 * embargo that cannot be read hides its item).
 */
import { tz } from '@date-fns/tz';
import { parseISO } from 'date-fns/parseISO';

export type InstantReading =
  /** No instant given: missing, null or blank. */
  | { kind: 'absent' }
  /** A value in no known form. */
  | { kind: 'unreadable' }
  /**
   * `at`: the instant in UTC (a time without offset read as UTC); `latest`: the latest instant the
   * value can mean — later than `at` when it names no offset (a wall-clock time somewhere between
   * UTC−12 and UTC+14) or when its digits also read as a later date of another form.
   */
  | { kind: 'instant'; at: number; latest: number };

/** The westmost offset a wall-clock time can be in: UTC−12 reaches the instant latest. */
const WESTMOST_OFFSET_MS = 12 * 60 * 60 * 1000;
/** Epoch values from this magnitude up are milliseconds (as seconds they would lie past the year 5000). */
const EPOCH_MS_FROM = 1e11;
const UTC = tz('UTC');
/** Years JavaScript dates hold (±275,760); beyond them a value is unreadable. */
const MAX_DATE_MS = 8.64e15;

const ISO_OFFSET = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/;

function fromEpoch(n: number): number | undefined {
  if (!Number.isFinite(n)) return undefined;
  const ms = Math.abs(n) >= EPOCH_MS_FROM ? n : n * 1000;
  return Math.abs(ms) <= MAX_DATE_MS ? Math.trunc(ms) : undefined;
}

function fromIso(text: string): { at: number; zoned: boolean } | undefined {
  const value = text.toUpperCase();
  const at = +parseISO(value, { in: UTC });
  if (Number.isNaN(at)) return undefined;
  // A date alone names a day, not an instant: it starts at that day's midnight wherever the reader is.
  const hasTime = /\d[T ]\d/.test(value);
  return { at, zoned: hasTime && ISO_OFFSET.test(value) };
}

function instant(at: number, latest = at): InstantReading {
  return { kind: 'instant', at, latest: Math.max(at, latest) };
}

export function readInstant(value: unknown): InstantReading {
  if (value === undefined || value === null) return { kind: 'absent' };
  if (typeof value !== 'string' && typeof value !== 'number') return { kind: 'unreadable' };
  // A number is read as its digits are: epoch seconds or milliseconds, or a date in basic form.
  const text = String(value).trim();
  if (text === '') return { kind: 'absent' };
  const iso = fromIso(text);
  const latestIso = iso && (iso.zoned ? iso.at : iso.at + WESTMOST_OFFSET_MS);
  if (/^-?\d+(?:\.\d+)?$/.test(text)) {
    // Digits alone: epoch seconds or milliseconds, or a basic-form date up to eight digits (`20261201`),
    // read as that date; an embargo holds until the later of the two readings.
    const epoch = fromEpoch(Number(text));
    const asDate = iso && text.length <= 8 ? iso.at : undefined;
    const at = asDate ?? epoch;
    if (at === undefined) return { kind: 'unreadable' };
    return instant(at, Math.max(epoch ?? at, latestIso ?? at));
  }
  if (!iso || latestIso === undefined || Math.abs(iso.at) > MAX_DATE_MS) return { kind: 'unreadable' };
  return instant(iso.at, latestIso);
}
