/**
 * Id ranges. Each collection has its own range so ids look real (not 1, 2, 3)
 * and a stray id in a log says what it is. Media items (images, movies,
 * documents, sounds, videos) and release PDFs share one id space, because
 * media kits reference them by id alone.
 */
import type { Rng } from '../model/random.ts';

export const ID_BASE = {
  pressRelease: 100_000,
  clipping: 500_000,
  event: 700_000,
  liveEvent: 760_000,
  liveUpdate: 770_000,
  page: 800_000,
  prContact: 820_000,
  mediaKit: 840_000,
  mediaKitCategory: 860_000,
  tag: 880_000,
  media: 1_000_000,
  /** `created_by` of media kit categories: user ids of the newsroom's editors. */
  user: 52_000,
} as const;

/** Increasing ids with small random gaps, as deleted records leave behind. */
export class IdSequence {
  private last: number;
  private readonly rng: Rng;
  private readonly maxGap: number;

  constructor(rng: Rng, start: number, maxGap: number) {
    this.rng = rng;
    this.last = start + rng.int(0, 40);
    this.maxGap = maxGap;
  }

  next(): number {
    this.last += this.rng.int(1, this.maxGap);
    return this.last;
  }
}
