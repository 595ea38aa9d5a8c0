/**
 * `npm run bench`: every benchmark in turn (not tests; results in bench/results/):
 * API loading, the image pipeline, page rendering, each against its ideal.
 * Each one is also a command of its own (`node bench/<name>.ts --help`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { EXIT, parseCommandLine, type CommandSpec } from '../scripts/cli.ts';

const BENCHES = {
  api: { file: 'api-load.ts', what: 'API loading against requests × latency ÷ concurrency' },
  images: { file: 'images.ts', what: 'the image pipeline cold and warm against bare sharp on the same inputs' },
  pages: { file: 'pages.ts', what: 'page rendering against bare Astro writing the same number of pages' },
} as const;
type Bench = keyof typeof BENCHES;

const BENCH_COMMAND: CommandSpec = {
  name: 'bench',
  summary: [
    'Runs the benchmarks (not tests), each reporting its time as a ratio to its ideal, measured in the same run,',
    'plus peak memory; results go to bench/results/:',
    ...Object.entries(BENCHES).map(([name, b]) => `  ${name.padEnd(7)}${b.what} (node bench/${b.file} --help)`),
    '  node bench/image-formats.ts measures encode time per format (it decided AVIF is off).',
  ].join('\n'),
  flags: {
    only: { type: 'string', value: 'LIST', help: `comma-separated benchmarks to run (default all: ${Object.keys(BENCHES).join(',')})` },
    scale: { type: 'string', value: 'N', help: 'press releases in the emulated press room, for api and images (their defaults: 2000, 60)' },
  },
  variables: {},
  notes: ['The benchmarks use the bundled emulator; no PRESSROOM_* variable is read.'],
};

const parsed = parseCommandLine(BENCH_COMMAND);
if ('exit' in parsed) process.exit(parsed.exit);
const only = typeof parsed.values.only === 'string' ? parsed.values.only.split(',').map((s) => s.trim()) : Object.keys(BENCHES);
const unknown = only.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`bench: unknown benchmark ${unknown.join(', ')} in --only (choose from ${Object.keys(BENCHES).join(', ')})`);
  process.exit(EXIT.usage);
}
for (const name of only as Bench[]) {
  const args = [path.join(import.meta.dirname, BENCHES[name].file)];
  if (typeof parsed.values.scale === 'string' && name !== 'pages') args.push('--scale', parsed.values.scale);
  const { status } = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`bench: ${name} failed (exit ${status})`);
    process.exit(EXIT.failed);
  }
}
