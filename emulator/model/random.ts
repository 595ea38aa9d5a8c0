/**
 * Seeded randomness for the demo data. `Math.random` is never used: every
 * value comes from an `Rng` derived from the world seed and a label, so one
 * part of the world (say, clippings) does not shift when another grows.
 */

/** 32-bit hash of any mix of strings and numbers (FNV-1a, murmur3 finaliser). */
export function hash32(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f; // part separator, so ('ab','c') != ('a','bc')
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32 generator, seeded through splitmix32. Fast, 128-bit state, good enough for demo data. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** The seed this generator was made from; `fork` derives children from it, not from the state. */
  readonly key: number;

  constructor(seed: number) {
    this.key = seed >>> 0;
    let s = this.key;
    const split = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = split();
    this.b = split();
    this.c = split();
    this.d = split();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** An independent generator for a named part of the world. Does not consume this one's state. */
  fork(...label: ReadonlyArray<string | number>): Rng {
    return new Rng(hash32(this.key, ...label));
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** Uniform real in [min, max). */
  range(min: number, max: number): number {
    return min + this.float() * (max - min);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: ReadonlyArray<T>): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.float() * items.length)] as T;
  }

  /** Picks a value by relative weight: `weighted([['en', 70], ['nl', 20]])`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.float() * total;
    for (const [value, w] of items) {
      r -= w;
      if (r < 0) return value;
    }
    const last = items[items.length - 1];
    if (!last) throw new Error('Rng.weighted: empty list');
    return last[0];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: ReadonlyArray<T>): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** `count` distinct items (fewer if the list is shorter), in random order. */
  sample<T>(items: ReadonlyArray<T>, count: number): T[] {
    const n = Math.min(count, items.length);
    if (n <= 0) return [];
    // Small samples from big lists: rejection on indexes avoids copying the list.
    if (n * 4 < items.length) {
      const seen = new Set<number>();
      const out: T[] = [];
      while (out.length < n) {
        const i = Math.floor(this.float() * items.length);
        if (seen.has(i)) continue;
        seen.add(i);
        out.push(items[i] as T);
      }
      return out;
    }
    return this.shuffle(items).slice(0, n);
  }
}

/**
 * Draws from a list without repeating until every item was used once, then
 * starts a fresh round. Keeps one release's sentences from repeating.
 */
export class Deck<T> {
  private readonly items: ReadonlyArray<T>;
  private readonly rng: Rng;
  private pile: T[] = [];

  constructor(rng: Rng, items: ReadonlyArray<T>) {
    if (items.length === 0) throw new Error('Deck: empty list');
    this.rng = rng;
    this.items = items;
  }

  draw(): T {
    if (this.pile.length === 0) this.pile = this.rng.shuffle(this.items);
    return this.pile.pop() as T;
  }
}
