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
