/** Time arithmetic for the demo world. Everything is relative to `options.now`; nothing reads the system clock. */
import type { IsoDate } from '../model/types.ts';
import type { Rng } from '../model/random.ts';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const YEAR = 365 * DAY;

/** ISO-8601 UTC with milliseconds, as the live API sends. */
export function iso(ms: number): IsoDate {
  return new Date(ms).toISOString();
}

export function floorTo(ms: number, unit: number): number {
  return Math.floor(ms / unit) * unit;
}

/** Moves an instant to a plausible office time (06:00–15:55 UTC, 5-minute steps) on the same UTC day. */
export function officeTime(rng: Rng, ms: number): number {
  return floorTo(ms, DAY) + rng.int(6, 15) * HOUR + rng.int(0, 11) * 5 * MINUTE;
}

/** A random instant in [from, to). */
export function between(rng: Rng, from: number, to: number): number {
  return Math.floor(from + rng.float() * Math.max(0, to - from));
}

/** `count` random instants in [from, to), oldest first. */
export function sortedInstants(rng: Rng, count: number, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(between(rng, from, to));
  return out.sort((a, b) => a - b);
}

export function utcParts(ms: number): { year: number; month: number; day: number } {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
}
