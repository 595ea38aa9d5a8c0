/**
 * The build runs with glibc's malloc arenas bounded (scripts/malloc-arenas.ts): it replaces itself
 * with the same command and MALLOC_ARENA_MAX set, keeping its Node flags, arguments and process id,
 * and leaves an operator's own value alone.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MALLOC_ARENA_MAX, needsArenaBound } from '../../scripts/malloc-arenas.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const glibc = !!(process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;

// Preloaded into every process the command becomes: what each one saw, printed as it exits.
const REPORT = `data:text/javascript,process.on('exit',()=>console.log('process '+process.pid+' arenas='+process.env.MALLOC_ARENA_MAX))`;

/** `node --import REPORT scripts/build.ts --help` with the given MALLOC_ARENA_MAX (undefined: unset); its report lines. */
async function reports(arenaMax: string | undefined): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('PRESSROOM_') || name === 'MALLOC_ARENA_MAX') delete env[name];
  if (arenaMax !== undefined) env.MALLOC_ARENA_MAX = arenaMax;
  const { stdout } = await run(process.execPath, ['--import', REPORT, 'scripts/build.ts', '--help'], { cwd: root, env });
  expect(stdout).toMatch(/^usage: npm run build/m);
  return stdout.split('\n').filter((line) => line.startsWith('process '));
}

describe('malloc arenas of the build', () => {
  it.runIf(process.platform === 'linux' && glibc)(
    'restarts the build once, in the same process, with MALLOC_ARENA_MAX=2 and its Node flags kept',
    async () => {
      const seen = await reports(undefined);
      // One exit report: the first image was replaced, not left as a parent; the preload (a Node flag) ran again.
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(new RegExp(` arenas=${MALLOC_ARENA_MAX}$`));
    },
  );

  it.runIf(process.platform === 'linux' && glibc)("leaves the caller's pipes blocking, as it found them", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('PRESSROOM_') || name === 'MALLOC_ARENA_MAX') delete env[name];
    // After the build, the shell reads the flags of its stdout and stderr: the same pipes (open file descriptions) the build wrote to.
    const { stdout } = await run(
      'sh',
      ['-c', `"${process.execPath}" scripts/build.ts --help >&2; grep '^flags' /proc/self/fdinfo/1 /proc/self/fdinfo/2`],
      { cwd: root, env },
    );
    const flags = [...stdout.matchAll(/flags:\s+([0-7]+)/g)].map((m) => parseInt(m[1]!, 8));
    expect(flags).toHaveLength(2);
    for (const value of flags) expect(value & 0o4000, 'O_NONBLOCK left on a pipe the build shared').toBe(0);
  });

  it("keeps an operator's own MALLOC_ARENA_MAX", async () => {
    const seen = await reports('4');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/ arenas=4$/);
  });

  it('asks for the bound only on glibc Linux without a value of its own', () => {
    expect(needsArenaBound({}, 'darwin')).toBe(false);
    expect(needsArenaBound({ MALLOC_ARENA_MAX: '8' }, 'linux')).toBe(false);
    expect(needsArenaBound({}, 'linux')).toBe(process.platform === 'linux' && glibc);
  });
});
