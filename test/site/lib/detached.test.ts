/** `detached` copies a string so that what it was cut or built from can be collected. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detached } from '../../../src/lib/detached.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap bytes still used after `make()`'s result is kept and everything else collected. */
function retainedBy<T>(make: () => T): { kept: T; bytes: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = make();
  gc();
  return { kept, bytes: process.memoryUsage().heapUsed - before };
}

/** 200 bodies of 50 kB each (10 MB in all), made fresh every call. */
const bodies = () => Array.from({ length: 200 }, (_, i) => `${i} `.padEnd(50_000, `body ${i} text `));

describe('detached', () => {
  it('is the same text', () => {
    for (const text of ['', 'a', 'Grüße – 🚲 aus Amsterdam', 'x'.repeat(1000)]) expect(detached(text)).toBe(text);
    const built = ['<p>', 'one', '</p>', '<p>', 'two', '</p>'].reduce((a, b) => a + b);
    expect(detached(built)).toBe('<p>one</p><p>two</p>');
  });

  it('keeps only its own characters, not the string it was sliced from', () => {
    const views = retainedBy(() => bodies().map((body) => body.slice(0, 300)));
    const copies = retainedBy(() => bodies().map((body) => detached(body.slice(0, 300))));
    expect(views.kept.join('')).toBe(copies.kept.join(''));
    expect(views.bytes).toBeGreaterThan(5_000_000);
    expect(copies.bytes).toBeLessThan(1_000_000);
  });

  it('keeps only its own characters, not the pieces it was concatenated from', () => {
    const pieces = () =>
      bodies().map((body) => Array.from({ length: 300 }, (_, i) => body.slice(i * 10, i * 10 + 20)).reduce((a, b) => a + '<br>' + b));
    const built = retainedBy(pieces);
    const copies = retainedBy(() => pieces().map(detached));
    expect(built.kept.join('')).toBe(copies.kept.join(''));
    expect(built.bytes).toBeGreaterThan(copies.bytes * 5);
  });
});
