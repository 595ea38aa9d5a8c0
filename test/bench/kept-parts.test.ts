/** A bench run can keep the latest results of benchmarks it does not run (`--keep`), each saying when it ran. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { atMostGoal, combine, machine, type BenchPart } from '../../bench/goals.ts';
import { RESULTS_DIR, keptPart, runFile, writePart, writeRun } from '../../bench/results.ts';

// A scale of its own, so the test never touches a real run's files.
const scale = `test-kept-${process.pid}`;
afterAll(async () => {
  await rm(path.join(RESULTS_DIR, 'parts', scale), { recursive: true, force: true });
  await rm(runFile(scale), { force: true });
});

/** A part file as `writePart` wrote it before it stamped parts. */
async function writeUnstamped(part: BenchPart): Promise<void> {
  const file = path.join(RESULTS_DIR, 'parts', scale, `${part.bench}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(part, null, 2)}\n`);
}

const goal = (name: string) => atMostGoal({ name, what: name, measured: 1, reference: 2, against: 'ideal', target: 1 });

describe('kept parts', () => {
  it('say when they ran: their own record, else the run they were part of; none when never run', async () => {
    expect(await keptPart(scale, 'images')).toBeUndefined();
    const earlierStart = new Date('2026-11-26T16:40:00Z');
    const earlierEnd = new Date('2026-11-26T19:40:00Z');
    const images = { bench: 'images', goals: [goal('images')], details: { files: 3 } };
    const builds = { bench: 'builds', goals: [goal('cold-rss')], details: {} };
    // Parts as they were written before parts were stamped.
    await writeUnstamped(images);
    await writeUnstamped(builds);
    await writeRun(
      combine({ name: scale, scale: 1 }, { ...machine(), loadAverageAtStart: [0.5, 0.4, 0.3] }, earlierStart, [images, builds], earlierEnd),
    );

    expect(await keptPart(scale, 'images')).toEqual({
      ...images,
      ran: { startedAt: earlierStart.toISOString(), finishedAt: earlierEnd.toISOString(), loadAverageAtStart: [0.5, 0.4, 0.3] },
    });
    const own = { startedAt: '2026-11-26T20:00:00.000Z', finishedAt: '2026-11-26T20:01:00.000Z', loadAverageAtStart: [1, 1, 1] };
    await writePart(scale, { ...builds, ran: own });
    expect((await keptPart(scale, 'builds'))?.ran).toEqual(own);

    const api = { bench: 'api', goals: [goal('api')], details: {}, ran: own };
    const run = combine({ name: scale, scale: 1 }, machine(), new Date(), [api, (await keptPart(scale, 'images'))!]);
    expect(run.goals.map((g) => g.name)).toEqual(['api', 'images']);
    expect(run.ran).toEqual({ api: own, images: expect.objectContaining({ startedAt: earlierStart.toISOString() }) });
  });

  it('of a benchmark run directly are stamped with its own run, and an unstamped one never borrows the date of other figures', async () => {
    const before = Date.now();
    await writePart(scale, { bench: 'workers', goals: [goal('workers-overhead')], details: { files: 7 } });
    const stamped = await keptPart(scale, 'workers');
    expect(Date.parse(stamped!.ran!.startedAt)).toBeLessThanOrEqual(before);
    expect(Date.parse(stamped!.ran!.finishedAt)).toBeGreaterThanOrEqual(before);
    expect(stamped!.ran!.loadAverageAtStart).toHaveLength(3);

    // The run file holds other figures of images than the unstamped part left from a later direct run.
    const later = { bench: 'images', goals: [goal('images')], details: { files: 4 } };
    await writeUnstamped(later);
    expect(await keptPart(scale, 'images')).toEqual(later);
  });
});
