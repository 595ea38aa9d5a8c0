/** Where a bench run's files go: each benchmark's part, then the run's one JSON file. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchPart, BenchRun } from './goals.ts';

export const RESULTS_DIR = path.join(import.meta.dirname, 'results');
/** Working files of a run (not committed): one part per benchmark. */
const partFile = (profile: string, bench: string) => path.join(RESULTS_DIR, 'parts', profile, `${bench}.json`);
/** The run's record, committed for the latest full run of each scale. */
export const runFile = (profile: string) => path.join(RESULTS_DIR, `${profile}.json`);

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

export const writePart = (profile: string, part: BenchPart) => writeJson(partFile(profile, part.bench), part);
export const readPart = async (profile: string, bench: string): Promise<BenchPart> =>
  JSON.parse(await readFile(partFile(profile, bench), 'utf8')) as BenchPart;
export const writeRun = (run: BenchRun) => writeJson(runFile(run.profile.name), run);
/** The run file of a scale as it stands, or undefined when there is none. */
export const readRun = async (profile: string): Promise<BenchRun | undefined> =>
  JSON.parse(await readFile(runFile(profile), 'utf8').catch(() => 'null')) ?? undefined;

/**
 * The latest result of a benchmark at a scale, to go into a run that does not run it (`--keep`),
 * saying when it ran: its own record, else the part of the committed run file (a fresh clone has
 * no parts folder). Undefined when there is none.
 */
export async function keptPart(profile: string, bench: string): Promise<BenchPart | undefined> {
  const part = await readPart(profile, bench).catch(() => undefined);
  if (part?.ran) return part;
  const run = await readRun(profile);
  if (!run || !(bench in run.parts)) return part;
  const ran = run.ran[bench] ?? {
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    loadAverageAtStart: run.machine.loadAverageAtStart,
  };
  if (part) return { ...part, ran };
  return { bench, goals: run.goals.filter((goal) => goal.bench === bench), details: run.parts[bench]!, ran };
}
