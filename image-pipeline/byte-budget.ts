/**
 * A semaphore on bytes: raw pixels in flight are bounded by what they weigh,
 * not by how many images hold them (one 24-megapixel decode weighs as much as
 * three hundred thumbnails). A task larger than the whole budget still runs,
 * alone, so no image waits forever.
 */

export interface ByteBudget {
  /** Runs `task` once `bytes` fit in the budget beside the tasks running; frees them when it settles. */
  run<T>(bytes: number, task: () => Promise<T>): Promise<T>;
  /** Bytes held by running tasks now (tests, progress). */
  inUse(): number;
  /** The most bytes ever held at once. */
  peak(): number;
}

export function createByteBudget(limit: number): ByteBudget {
  let used = 0;
  let peak = 0;
  const waiting: Array<{ bytes: number; start: () => void }> = [];

  const fits = (bytes: number) => used === 0 || used + bytes <= limit;

  function admit(): void {
    // First come, first served: a large task at the head is not overtaken by smaller ones forever.
    while (waiting.length > 0 && fits(waiting[0]!.bytes)) {
      const next = waiting.shift()!;
      used += next.bytes;
      peak = Math.max(peak, used);
      next.start();
    }
  }

  return {
    async run(bytes, task) {
      if (waiting.length === 0 && fits(bytes)) {
        used += bytes;
        peak = Math.max(peak, used);
      } else await new Promise<void>((start) => waiting.push({ bytes, start }));
      try {
        return await task();
      } finally {
        used -= bytes;
        admit();
      }
    },
    inUse: () => used,
    peak: () => peak,
  };
}
