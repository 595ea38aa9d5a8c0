/**
 * `npm run bench [-- --scale demo|L|N] [--only api,images,builds]`: every
 * benchmark in turn, each in its own process (not tests), then one JSON file
 * with every goal as a ratio to its reference measured in the same run, its
 * target, and peak RSS: bench/results/<scale>.json.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { EXIT, parseCommandLine, type CommandSpec } from '../scripts/cli.ts';
import { combine, goalLine, machine } from './goals.ts';
import { PROFILES, profileOrExit } from './profiles.ts';
import { readPart, runFile, writeRun } from './results.ts';

const BENCHES = {
  api: { file: 'api-load.ts', what: 'API loading against requests × latency ÷ concurrency, the emulator in its own process' },
  images: { file: 'images.ts', what: 'image renditions against bare sharp on the same inputs and settings' },
  builds: {
    file: 'builds.ts',
    what: 'cold build (peak RSS), no-change and one-changed-release rebuilds against it, page rendering against bare Astro',
  },
} as const;
type Bench = keyof typeof BENCHES;

const BENCH_COMMAND: CommandSpec = {
  name: 'bench',
  summary: [
    'Runs the benchmarks (not tests), each reporting its figures as ratios to a reference measured in the same run,',
    `plus peak memory; the run's goals go to bench/results/<scale>.json:`,
    ...Object.entries(BENCHES).map(([name, b]) => `  ${name.padEnd(7)}${b.what} (node bench/${b.file} --help)`),
    '  node bench/image-formats.ts measures encode time per format (it decided AVIF is off).',
  ].join('\n'),
  flags: {
    scale: {
      type: 'string',
      value: 'demo|L|N',
      help: `size of the emulated press room: demo (default, minutes), L (${PROFILES.L!.scale} releases, ${PROFILES.L!.images} images, ${PROFILES.L!.kits} kits: an hour or more on 2 cores) or N releases`,
    },
    only: { type: 'string', value: 'LIST', help: `comma-separated benchmarks to run (default all: ${Object.keys(BENCHES).join(',')})` },
  },
  variables: {},
  notes: ['The benchmarks start the emulator in a process of their own; no PRESSROOM_* variable is read.'],
};

const parsed = parseCommandLine(BENCH_COMMAND);
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);
const only = typeof parsed.values.only === 'string' ? parsed.values.only.split(',').map((s) => s.trim()) : Object.keys(BENCHES);
const unknown = only.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`bench: unknown benchmark ${unknown.join(', ')} in --only (choose from ${Object.keys(BENCHES).join(', ')})`);
  process.exit(EXIT.usage);
}

const machineInfo = machine();
const startedAt = new Date();
for (const name of only as Bench[]) {
  const { status } = spawnSync(process.execPath, [path.join(import.meta.dirname, BENCHES[name].file), '--scale', profile.name], {
    stdio: 'inherit',
  });
  if (status !== 0) {
    console.error(`bench: ${name} failed (exit ${status})`);
    process.exit(EXIT.failed);
  }
}
const run = combine(profile, machineInfo, startedAt, await Promise.all((only as Bench[]).map((name) => readPart(profile.name, name))));
await writeRun(run);
console.log(`\nbench (${profile.name}, ${machineInfo.cores} cores, load ${machineInfo.loadAverageAtStart.join(' ')} at start):`);
for (const goal of run.goals) console.log(`  ${goalLine(goal)}`);
console.log(`results: ${path.relative(process.cwd(), runFile(profile.name))}`);
