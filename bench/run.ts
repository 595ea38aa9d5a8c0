/**
 * `npm run bench [-- --scale demo|L|N] [--only api,images,builds] [--keep …] [--workers 1,2,4] [--sample N]`:
 * every benchmark in turn, each in its own process (not tests), then one JSON
 * file with every goal as a ratio to its reference measured in the same run, its
 * target, and peak RSS: bench/results/<scale>.json. `--keep` puts the latest
 * results of benchmarks not run now into that file too, each with when it ran.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { conditionFlags } from '../src/config/source-condition.ts';
import { EXIT, parseCommandLine, type CommandSpec } from '../scripts/cli.ts';
import { combine, goalLine, machine, type BenchPart } from './goals.ts';
import { PROFILES, profileOrExit } from './profiles.ts';
import { keptPart, readPart, runFile, writePart, writeRun } from './results.ts';
import { parseSample } from './sample.ts';
import { DEFAULT_WORKER_COUNTS, parseWorkerCounts } from './worker-counts.ts';

const BENCHES = {
  api: { file: 'api-load.ts', what: 'API loading against requests × latency ÷ concurrency, the emulator in its own process' },
  images: { file: 'images.ts', what: 'image renditions against bare sharp on the same inputs and settings' },
  builds: {
    file: 'builds.ts',
    what: "cold build (peak RSS), no-change and one-changed-release rebuilds against it, partial builds of an edited, unpublished, new release against --force, the same changes through the receiver's warm renderer against the issue 31 budgets, each checked against --force, page rendering against bare Astro",
  },
  deploy: {
    file: 'deploy.ts',
    what: 'npm run deploy into s3rver: one changed release against uploading its files alone, requests of an unchanged deploy',
  },
  workers: {
    file: 'workers.ts',
    what: 'renditions through the BullMQ queue by 1, 2, 4 `npm run worker` processes against in-process, and a warm round',
  },
} as const;
type Bench = keyof typeof BENCHES;

const BENCH_COMMAND: CommandSpec = {
  name: 'bench',
  summary: [
    'Runs the benchmarks (not tests), each reporting its figures as ratios to a reference measured in the same run,',
    `plus peak memory; the run's goals go to bench/results/<scale>.json:`,
    ...Object.entries(BENCHES).map(([name, b]) => `  ${name.padEnd(8)}${b.what} (node --conditions=source bench/${b.file} --help)`),
    '  node --conditions=source bench/image-formats.ts measures encode time per format (it decided AVIF is off).',
  ].join('\n'),
  flags: {
    scale: {
      type: 'string',
      value: 'demo|L|N',
      help: `size of the emulated press room: demo (default, minutes), L (${PROFILES.L!.scale} releases, ${PROFILES.L!.images} images, ${PROFILES.L!.kits} kits: an hour or more on 2 cores) or N releases`,
    },
    only: { type: 'string', value: 'LIST', help: `comma-separated benchmarks to run (default all: ${Object.keys(BENCHES).join(',')})` },
    keep: {
      type: 'string',
      value: 'LIST',
      help: 'benchmarks not run now whose latest results of this scale go into the results file as they are, each with when it ran (an L run takes hours; one part can be run again)',
    },
    workers: {
      type: 'string',
      value: 'LIST',
      help: `worker process counts of the workers benchmark, one queue run each (default ${DEFAULT_WORKER_COUNTS.join(',')})`,
    },
    sample: {
      type: 'string',
      value: 'N',
      help: 'the images benchmark on one original in N (by a hash of its URL), said in its goal and results (L in a fraction of its hours)',
    },
  },
  variables: {},
  notes: ['The benchmarks start the emulator in a process of their own; no PRESSROOM_* variable is read.'],
};

const parsed = parseCommandLine(BENCH_COMMAND);
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);
const only = typeof parsed.values.only === 'string' ? parsed.values.only.split(',').map((s) => s.trim()) : Object.keys(BENCHES);
const keep = typeof parsed.values.keep === 'string' ? parsed.values.keep.split(',').map((s) => s.trim()) : [];
for (const [flag, names] of [
  ['--only', only],
  ['--keep', keep],
] as const) {
  const unknown = names.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    console.error(`bench: unknown benchmark ${unknown.join(', ')} in ${flag} (choose from ${Object.keys(BENCHES).join(', ')})`);
    process.exit(EXIT.usage);
  }
}
if (parsed.values.workers !== undefined && !parseWorkerCounts(parsed.values.workers)) {
  console.error(`bench: --workers must be whole numbers from 1 to 16 separated by commas, got '${String(parsed.values.workers)}'`);
  process.exit(EXIT.usage);
}
if (parsed.values.workers !== undefined && !only.includes('workers')) {
  console.error('bench: --workers is for the workers benchmark: add workers to --only');
  process.exit(EXIT.usage);
}
if (parsed.values.sample !== undefined && !parseSample(parsed.values.sample)) {
  console.error(`bench: --sample must be a whole number from 1 to 1000, got '${String(parsed.values.sample)}'`);
  process.exit(EXIT.usage);
}
if (parsed.values.sample !== undefined && !only.includes('images')) {
  console.error('bench: --sample is for the images benchmark: add images to --only');
  process.exit(EXIT.usage);
}
const both = keep.filter((name) => only.includes(name));
if (both.length > 0) {
  console.error(`bench: ${both.join(', ')} cannot be both run (--only) and kept (--keep)`);
  process.exit(EXIT.usage);
}
const kept: BenchPart[] = [];
for (const name of keep) {
  const part = await keptPart(profile.name, name);
  if (!part) {
    console.error(`bench: --keep ${name}: no earlier result of ${name} at scale ${profile.name} (run it with --only ${name})`);
    process.exit(EXIT.usage);
  }
  kept.push(part);
}

const machineInfo = machine();
const startedAt = new Date();
const ranNow: BenchPart[] = [];
for (const name of only as Bench[]) {
  const ran = { startedAt: new Date().toISOString(), loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))) };
  const { status } = spawnSync(
    process.execPath,
    [
      ...conditionFlags(),
      path.join(import.meta.dirname, BENCHES[name].file),
      '--scale',
      profile.name,
      ...(name === 'workers' && typeof parsed.values.workers === 'string' ? ['--workers', parsed.values.workers] : []),
      ...(name === 'images' && typeof parsed.values.sample === 'string' ? ['--sample', parsed.values.sample] : []),
    ],
    {
      stdio: 'inherit',
    },
  );
  if (status !== 0) {
    console.error(`bench: ${name} failed (exit ${status})`);
    process.exit(EXIT.failed);
  }
  const part = { ...(await readPart(profile.name, name)), ran: { ...ran, finishedAt: new Date().toISOString() } };
  await writePart(profile.name, part);
  ranNow.push(part);
}
const order = Object.keys(BENCHES);
const parts = [...ranNow, ...kept].sort((a, b) => order.indexOf(a.bench) - order.indexOf(b.bench));
const run = combine(profile, machineInfo, startedAt, parts);
await writeRun(run);
console.log(`\nbench (${profile.name}, ${machineInfo.cores} cores, load ${machineInfo.loadAverageAtStart.join(' ')} at start):`);
for (const goal of run.goals) console.log(`  ${goalLine(goal)}`);
for (const part of kept) console.log(`  (${part.bench}: kept from the run of ${part.ran?.startedAt ?? 'an unknown time'})`);
console.log(`results: ${path.relative(process.cwd(), runFile(profile.name))}`);
