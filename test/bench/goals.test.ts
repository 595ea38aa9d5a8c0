/** The bench's goal arithmetic and its one JSON record: ratios, directions, what counts as met. */
import { describe, expect, it } from 'vitest';
import { atMostGoal, combine, machine, throughputGoal } from '../../bench/goals.ts';

const base = { name: 'x', what: 'x against y', against: 'ideal' };

describe('bench goals', () => {
  it('time and memory goals are measured ÷ reference, met at or under the target', () => {
    expect(atMostGoal({ ...base, measured: 1400, reference: 1000, target: 1.5 })).toMatchObject({
      ratio: 1.4,
      direction: 'at-most',
      met: true,
      unit: 'ms',
    });
    expect(atMostGoal({ ...base, measured: 1500, reference: 1000, target: 1.5 }).met).toBe(true);
    expect(atMostGoal({ ...base, measured: 1510, reference: 1000, target: 1.5 })).toMatchObject({ ratio: 1.51, met: false });
    expect(atMostGoal({ ...base, measured: 1600, reference: 1536, target: 1, unit: 'MiB', peakRssMiB: 1600 })).toMatchObject({
      ratio: 1.04,
      met: false,
      unit: 'MiB',
      peakRssMiB: 1600,
    });
  });

  it('throughput goals are reference time ÷ measured time on the same work, met at or over the target', () => {
    expect(throughputGoal({ ...base, measured: 1000, reference: 900, target: 0.85 })).toMatchObject({
      ratio: 0.9,
      direction: 'at-least',
      met: true,
    });
    expect(throughputGoal({ ...base, measured: 2000, reference: 900, target: 0.85 })).toMatchObject({ ratio: 0.45, met: false });
  });

  it('a figure that could not be measured is never met', () => {
    expect(atMostGoal({ ...base, measured: Number.NaN, reference: 10, target: 1.5 }).met).toBe(false);
    expect(throughputGoal({ ...base, measured: 0, reference: 0, target: 0.85 }).met).toBe(false);
  });

  it("a run is met only when every goal of every part is, and keeps each part's details", () => {
    const good = atMostGoal({ ...base, measured: 1, reference: 2, target: 1 });
    const bad = atMostGoal({ ...base, name: 'y', measured: 3, reference: 2, target: 1 });
    const started = new Date('2026-11-25T10:00:00Z');
    const finished = new Date('2026-11-25T10:05:00Z');
    const run = combine(
      { name: 'demo', scale: 60 },
      machine(),
      started,
      [
        { bench: 'a', goals: [good], details: { n: 1 } },
        { bench: 'b', goals: [bad], details: {} },
      ],
      finished,
    );
    expect(run).toMatchObject({
      allMet: false,
      startedAt: '2026-11-25T10:00:00.000Z',
      finishedAt: '2026-11-25T10:05:00.000Z',
      parts: { a: { n: 1 }, b: {} },
    });
    expect(run.goals.map((g) => g.name)).toEqual(['x', 'y']);
    expect(combine({ name: 'demo', scale: 60 }, machine(), started, [{ bench: 'a', goals: [good], details: {} }]).allMet).toBe(true);
    expect(run.machine.cores).toBeGreaterThan(0);
  });
});
