/**
 * The emulator's own clock. It starts at a chosen instant and runs in real
 * time unless frozen; tests set or advance it to lift an embargo on demand.
 */
export interface Clock {
  now(): Date;
  set(instant: Date): void;
  advance(ms: number): void;
  freeze(frozen: boolean): void;
  readonly frozen: boolean;
}

export function createClock(start: Date, { frozen = false } = {}): Clock {
  let base = start.getTime();
  let startedAt = performance.now();
  let isFrozen = frozen;
  const current = () => (isFrozen ? base : base + Math.floor(performance.now() - startedAt));
  const rebase = (ms: number) => {
    base = ms;
    startedAt = performance.now();
  };
  return {
    now: () => new Date(current()),
    set: (instant) => rebase(instant.getTime()),
    advance: (ms) => rebase(current() + ms),
    freeze(next) {
      rebase(current());
      isFrozen = next;
    },
    get frozen() {
      return isFrozen;
    },
  };
}
