/** The raw-pixel budget: bytes in flight never over the limit, an oversized task runs alone, first come first served. */
import { describe, expect, it } from 'vitest';
import { createByteBudget } from '../../image-pipeline/byte-budget.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('byte budget', () => {
  it('holds the bytes of running tasks within the limit, whatever their count', async () => {
    const budget = createByteBudget(100);
    let peak = 0;
    let running = 0;
    let peakRunning = 0;
    const task = (bytes: number) =>
      budget.run(bytes, async () => {
        running++;
        peakRunning = Math.max(peakRunning, running);
        peak = Math.max(peak, budget.inUse());
        await tick();
        running--;
      });
    // Ten small tasks fit at once; the 60-byte ones only one by one beside a few small ones.
    await Promise.all([...Array.from({ length: 10 }, () => task(10)), task(60), task(60), ...Array.from({ length: 10 }, () => task(10))]);
    expect(peak).toBeLessThanOrEqual(100);
    expect(peakRunning).toBe(10);
    expect(budget.inUse()).toBe(0);
  });

  it('runs a task larger than the whole budget alone, and does not let later ones overtake it', async () => {
    const budget = createByteBudget(100);
    const order: string[] = [];
    const task = (name: string, bytes: number) =>
      budget.run(bytes, async () => {
        order.push(`${name} start ${budget.inUse()}`);
        await tick();
        order.push(`${name} end`);
      });
    await Promise.all([task('a', 50), task('huge', 500), task('b', 10)]);
    expect(order).toEqual(['a start 50', 'a end', 'huge start 500', 'huge end', 'b start 10', 'b end']);
  });

  it('frees the bytes of a task that fails', async () => {
    const budget = createByteBudget(100);
    await expect(budget.run(80, () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(budget.inUse()).toBe(0);
    expect(await budget.run(80, async () => budget.inUse())).toBe(80);
  });
});
