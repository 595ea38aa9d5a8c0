/**
 * `--sample N` of the images benchmark: one original in N, chosen by a hash of its URL, so the
 * choice does not depend on the order the API lists media in, and every `sizes` object of one
 * original (an image also shown as a tag's picture) is in or out together. The cold run, the
 * naive baseline and the quality check all run on the same sample.
 */
import { createHash } from 'node:crypto';

/** `10` → 10; 1 when the flag is absent; undefined when it is not a whole number from 1 to 1000. */
export function parseSample(value: unknown): number | undefined {
  if (value === undefined) return 1;
  if (typeof value !== 'string' || !/^\s*[1-9]\d*\s*$/.test(value)) return undefined;
  const n = Number(value);
  return n <= 1000 ? n : undefined;
}

/** Whether the original at `url` is in a 1-in-`n` sample. */
export function inSample(url: string, n: number): boolean {
  if (n === 1) return true;
  return createHash('sha256').update(url).digest().readUInt32BE(0) % n === 0;
}
