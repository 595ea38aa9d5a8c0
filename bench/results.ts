/** Where a bench run's files go: each benchmark's part, then the run's one JSON file. */
import { isDeepStrictEqual } from 'node:util';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchPart, BenchRun, PartRun } from './goals.ts';

export const RESULTS_DIR = path.join(import.meta.dirname, 'results');
/** Working files of a run (not committed): one part per benchmark. */
const partFile = (profile: string, bench: string) => path.join(RESULTS_DIR, 'parts', profile, `${bench}.json`);
/** The run's record, committed for the latest full run of each scale. */
export const runFile = (profile: string) => path.join(RESULTS_DIR, `${profile}.json`);

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * When this process started and how loaded the machine was then: a benchmark run directly (not
 * through `npm run bench`) is stamped with it.
 */
const processRun: Omit<PartRun, 'finishedAt'> = {
  startedAt: new Date(performance.timeOrigin).toISOString(),
  loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
};

/** Writes a benchmark's part, saying when it ran: as given (`npm run bench`), else this process's run. */
export const writePart = (profile: string, part: BenchPart) =>
  writeJson(partFile(profile, part.bench), { ...part, ran: part.ran ?? { ...processRun, finishedAt: new Date().toISOString() } });
export const readPart = async (profile: string, bench: string): Promise<BenchPart> =>
  JSON.parse(await readFile(partFile(profile, bench), 'utf8')) as BenchPart;
export const writeRun = (run: BenchRun) => writeJson(runFile(run.profile.name), run);
/** The run file of a scale as it stands, or undefined when there is none. */
export const readRun = async (profile: string): Promise<BenchRun | undefined> =>
  JSON.parse(await readFile(runFile(profile), 'utf8').catch(() => 'null')) ?? undefined;

/**
 * The latest result of a benchmark at a scale, to go into a run that does not run it (`--keep`),
 * saying when it ran: its own record, else the part of the committed run file (a fresh clone has
 * no parts folder). An unstamped part (written before parts were stamped) borrows the run's date
 * only when it holds the run's figures; another one stays without a date. Undefined when there is none.
 */
export async function keptPart(profile: string, bench: string): Promise<BenchPart | undefined> {
  const part = await readPart(profile, bench).catch(() => undefined);
  if (part?.ran) return part;
  const run = await readRun(profile);
  if (!run || !(bench in run.parts)) return part;
  // A part written before parts were stamped: the run's date is its own only when it holds the run's figures.
  if (part && !isDeepStrictEqual(part.details, run.parts[bench])) return part;
  const ran = run.ran[bench] ?? {
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    loadAverageAtStart: run.machine.loadAverageAtStart,
  };
  if (part) return { ...part, ran };
  return { bench, goals: run.goals.filter((goal) => goal.bench === bench), details: run.parts[bench]!, ran };
}
