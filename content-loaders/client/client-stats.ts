/**
 * A client's counters: totals, per path group and per caller tally (a
 * collection's own share, exact under concurrency), and the wall time with
 * at least one attempt in flight.
 */
import type { ClientStats, GroupStats } from './types.ts';

export function emptyGroupStats(): GroupStats {
  return { requests: 0, retries: 0, notModified: 0, bytes: 0, errors: 0, items: 0, pages: 0 };
}

export interface StatsRecorder {
  /** Adds `n` to `field` of the totals, the path group and the caller's tally. */
  bump(group: string, field: keyof GroupStats, n?: number, tally?: GroupStats): void;
  /** Around every attempt: for the busy time. */
  attemptStarted(): void;
  attemptFinished(): void;
  stats(cache: ClientStats['cache']): ClientStats;
}

export function createStatsRecorder(): StatsRecorder {
  const total = emptyGroupStats();
  const groups = new Map<string, GroupStats>();
  let inFlight = 0;
  let busySince = 0;
  let busyMs = 0;
  return {
    bump(group, field, n = 1, tally) {
      total[field] += n;
      if (tally) tally[field] += n;
      let g = groups.get(group);
      if (!g) {
        g = emptyGroupStats();
        groups.set(group, g);
      }
      g[field] += n;
    },
    attemptStarted() {
      if (inFlight++ === 0) busySince = performance.now();
    },
    attemptFinished() {
      if (--inFlight === 0) busyMs += performance.now() - busySince;
    },
    stats(cache) {
      const byGroup: Record<string, GroupStats> = {};
      for (const [name, g] of [...groups].sort(([a], [b]) => a.localeCompare(b))) byGroup[name] = { ...g };
      return {
        ...total,
        elapsedMs: Math.round(busyMs + (inFlight > 0 ? performance.now() - busySince : 0)),
        byGroup,
        cache,
      };
    },
  };
}
