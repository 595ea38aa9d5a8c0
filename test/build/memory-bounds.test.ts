/**
 * The build runs with its memory bounded (scripts/memory-bounds.ts): it replaces itself with the
 * same command, MALLOC_ARENA_MAX and mimalloc's options set and V8's old space sized, keeping its Node flags, arguments
 * and process id, and leaves an operator's own values alone.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  MALLOC_ARENA_MAX,
  HEAP_FLAGS,
  MAX_OLD_SPACE_MIB,
  MIMALLOC_BOUNDS,
  missingHeapFlags,
  needsArenaBound,
  missingMimallocBounds,
} from '../../scripts/memory-bounds.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const glibc = !!(process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;

// Preloaded into every process the command becomes: what each one saw, printed as it exits.
const REPORT =
  "data:text/javascript,import v8 from 'node:v8';process.on('exit',()=>console.log('process '+process.pid+' arenas='+process.env.MALLOC_ARENA_MAX+' purge='+process.env.MIMALLOC_PURGE_DELAY+' thp='+process.env.MIMALLOC_ALLOW_THP+' heapMiB='+Math.round(v8.getHeapStatistics().heap_size_limit/1048576)+' flags='+process.execArgv.filter(f=>!f.startsWith('data:')&&f!=='--import').join(',')))";

/** `node --import REPORT scripts/build.ts --help` with the given environment additions; its report lines. */
async function reports(extra: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('PRESSROOM_') || ['MALLOC_ARENA_MAX', 'MIMALLOC_PURGE_DELAY', 'MIMALLOC_ALLOW_THP', 'NODE_OPTIONS'].includes(name))
      delete env[name];
  Object.assign(env, extra);
  const { stdout } = await run(process.execPath, [SOURCE_CONDITION_FLAG, '--import', REPORT, 'scripts/build.ts', '--help'], {
    cwd: root,
    env,
  });
  expect(stdout).toMatch(/^usage: npm run build/m);
  return stdout.split('\n').filter((line) => line.startsWith('process '));
}

/** V8's whole heap limit (MiB) a report line names: the old space, and the young generation (a few hundred MiB at most) on top. */
const heapLimitOf = (line: string | undefined) => Number(/ heapMiB=(\d+) /.exec(line ?? '')?.[1]);
const sizedFor = (line: string | undefined, oldSpaceMiB: number) => {
  const limit = heapLimitOf(line);
  return limit >= oldSpaceMiB && limit < oldSpaceMiB + 256;
};

describe('memory bounds of the build', () => {
  it.runIf(process.platform === 'linux' && glibc)(
    'restarts the build once, in the same process, with MALLOC_ARENA_MAX=2, mimalloc purging at once, V8 old space sized and its Node flags kept',
    async () => {
      const seen = await reports();
      // One exit report: the first image was replaced, not left as a parent; the preload (a Node flag) ran again.
      expect(seen).toHaveLength(1);
      expect(seen[0]).toContain(` arenas=${MALLOC_ARENA_MAX} `);
      expect(seen[0]).toContain(` purge=${MIMALLOC_BOUNDS.MIMALLOC_PURGE_DELAY} `);
      expect(seen[0]).toContain(` thp=${MIMALLOC_BOUNDS.MIMALLOC_ALLOW_THP} `);
      expect(sizedFor(seen[0], MAX_OLD_SPACE_MIB), seen[0]).toBe(true);
      expect(seen[0]).toMatch(
        new RegExp(` flags=${[...HEAP_FLAGS.map(([name, value]) => `--${name}=${value}`), SOURCE_CONDITION_FLAG].join(',')}$`),
      );
    },
  );

  it.runIf(process.platform === 'linux' && glibc)("leaves the caller's pipes blocking, as it found them", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('PRESSROOM_') || name === 'MALLOC_ARENA_MAX') delete env[name];
    // After the build, the shell reads the flags of its stdout and stderr: the same pipes (open file descriptions) the build wrote to.
    const { stdout } = await run(
      'sh',
      [
        '-c',
        `"${process.execPath}" ${SOURCE_CONDITION_FLAG} scripts/build.ts --help >&2; grep '^flags' /proc/self/fdinfo/1 /proc/self/fdinfo/2`,
      ],
      { cwd: root, env },
    );
    const flags = [...stdout.matchAll(/flags:\s+([0-7]+)/g)].map((m) => parseInt(m[1]!, 8));
    expect(flags).toHaveLength(2);
    for (const value of flags) expect(value & 0o4000, 'O_NONBLOCK left on a pipe the build shared').toBe(0);
  });

  it("keeps an operator's own MALLOC_ARENA_MAX", async () => {
    const seen = await reports({ MALLOC_ARENA_MAX: '4' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(' arenas=4 ');
  });

  it("keeps an operator's own MIMALLOC_PURGE_DELAY and MIMALLOC_ALLOW_THP", async () => {
    const seen = await reports({ MIMALLOC_PURGE_DELAY: '10', MIMALLOC_ALLOW_THP: '1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(' purge=10 thp=1 ');
    expect(missingMimallocBounds({ MIMALLOC_PURGE_DELAY: '10' })).toEqual({ MIMALLOC_ALLOW_THP: '0' });
    expect(missingMimallocBounds({ MIMALLOC_PURGE_DELAY: '10', MIMALLOC_ALLOW_THP: '1' })).toEqual({});
    expect(missingMimallocBounds({})).toEqual(MIMALLOC_BOUNDS);
  });

  it("keeps an operator's own old space size from NODE_OPTIONS", async () => {
    const seen = await reports({ NODE_OPTIONS: '--max-old-space-size=3072', MALLOC_ARENA_MAX: '2', MIMALLOC_PURGE_DELAY: '0' });
    expect(seen).toHaveLength(1);
    expect(sizedFor(seen[0], 3072), seen[0]).toBe(true);
    expect(seen[0]).toMatch(new RegExp(` flags=--max-semi-space-size=\\d+,--heap-growing-percent=\\d+,${SOURCE_CONDITION_FLAG}$`));
  });

  it('asks for the arena bound only on glibc Linux without a value of its own', () => {
    expect(needsArenaBound({}, 'darwin')).toBe(false);
    expect(needsArenaBound({ MALLOC_ARENA_MAX: '8' }, 'linux')).toBe(false);
    expect(needsArenaBound({}, 'linux')).toBe(process.platform === 'linux' && glibc);
  });

  it('adds each heap flag unless a Node flag or NODE_OPTIONS gives it', () => {
    const all = HEAP_FLAGS.map(([name, value]) => `--${name}=${value}`);
    expect(missingHeapFlags([], {})).toEqual(all);
    expect(missingHeapFlags(['--cpu-prof'], { NODE_OPTIONS: '--import x' })).toEqual(all);
    expect(missingHeapFlags(['--max-old-space-size=900'], {})).toEqual(all.slice(1));
    expect(missingHeapFlags([], { NODE_OPTIONS: '--import x --max_old_space_size=4096' })).toEqual(all.slice(1));
    expect(missingHeapFlags(['--heap-growing-percent=100', '--max-semi-space-size=64'], {})).toEqual(all.slice(0, 1));
  });
});
