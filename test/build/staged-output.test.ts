/**
 * The pieces that keep a published site safe, on real file systems: the
 * build locks (a second build waits or gives up with one line; a killed
 * holder's lock goes stale), publishing across file systems (a copy beside the
 * output, then two renames), a full disk during that copy (the previous site
 * untouched, nothing left beside it), and an interrupted swap put back.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockBusyError, acquireLocks } from '../../scripts/build-lock.ts';
import { publish, sweepBeside } from '../../src/output/staged-output.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'staged-output-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function fakeSite(dir: string, marker: string, bytes = 0): Promise<void> {
  await mkdir(path.join(dir, '_astro'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), `<h1>${marker}</h1>`);
  await writeFile(path.join(dir, '_astro', 'big.bin'), Buffer.alloc(bytes, 1));
}

describe('build locks', () => {
  it('makes a second build wait for the first, with a progress line, or give up with one line naming the folder', async () => {
    const target = path.join(tmp, 'site');
    const lines: string[] = [];
    const first = await acquireLocks([{ target, label: target }], { waitMs: 0, command: 'build', log: () => {} });
    const refused = await acquireLocks([{ target, label: target }], { waitMs: 0, command: 'build', log: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(LockBusyError);
    expect((refused as Error).message).toBe(
      `another build is running on ${target} (lock ${target}.lock); try again when it has finished (--wait SECONDS waits for it)`,
    );

    const waiting = acquireLocks([{ target, label: target }], { waitMs: 60_000, command: 'build', log: (l) => lines.push(l) });
    await new Promise((r) => setTimeout(r, 5_600));
    await first.release();
    const second = await waiting;
    expect(lines[0]).toMatch(
      new RegExp(
        `^build: waiting for another build on ${target.replaceAll('/', '\\/')} to finish: \\d+ s of at most 60 s \\(the lock of one that crashed is taken over 60 s after its last sign of life\\)$`,
      ),
    );
    await second.release();
  }, 20_000);

  it('takes over the lock of a build that was killed once it goes stale', async () => {
    const target = path.join(tmp, 'killed');
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { acquireLocks } from ${JSON.stringify(path.resolve('scripts/build-lock.ts'))}; await acquireLocks([{ target: ${JSON.stringify(target)}, label: 'x' }], { waitMs: 0, command: 'build', log: () => {}, staleMs: 2000 }); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    expect(existsSync(`${target}.lock`)).toBe(true);
    const taken = await acquireLocks([{ target, label: target }], { waitMs: 10_000, command: 'build', log: () => {}, staleMs: 2000 });
    await taken.release();
    expect(existsSync(`${target}.lock`)).toBe(false);
  }, 20_000);
});

describe('publishing', () => {
  it('swaps a staged site in, and puts back a previous one whose swap was cut between its two renames', async () => {
    const out = path.join(tmp, 'out');
    await fakeSite(path.join(tmp, 'stage-1'), 'one');
    await publish(path.join(tmp, 'stage-1'), out, 'a');
    await fakeSite(path.join(tmp, 'stage-2'), 'two');
    await publish(path.join(tmp, 'stage-2'), out, 'b');
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe('<h1>two</h1>');
    expect((await readdir(tmp)).filter((n) => n.startsWith('out.'))).toEqual([]);

    // Killed after `out` → `out.previous-<id>` and before the new site took its place.
    await import('node:fs/promises').then((fs) => fs.rename(out, `${out}.previous-c`));
    await fakeSite(`${out}.incoming-c`, 'half');
    expect(await sweepBeside(out)).toEqual([
      `put back ${out} from an interrupted swap`,
      `removed ${out}.incoming-c left by an interrupted run`,
    ]);
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe('<h1>two</h1>');
  });

  const shm = '/dev/shm';
  const otherDevice = existsSync(shm) && statSync(shm).dev !== statSync(os.tmpdir()).dev;
  it.skipIf(!otherDevice)('publishes onto another file system by copying beside the output first', async () => {
    const out = await mkdtemp(path.join(shm, 'staged-output-'));
    try {
      await fakeSite(out, 'old');
      await fakeSite(path.join(tmp, 'stage-x'), 'new', 1000);
      await publish(path.join(tmp, 'stage-x'), out, 'x');
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe('<h1>new</h1>');
      expect((await readdir(shm)).filter((n) => n.startsWith(`${path.basename(out)}.`))).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('leaves the previous site untouched and nothing beside it when the disk fills up during the copy', async (context) => {
    const mount = path.join(tmp, 'small-disk');
    await mkdir(mount);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      context.skip('cannot mount a small tmpfs here (needs root): the ENOSPC case is not exercised');
    }
    try {
      const out = path.join(mount, 'site');
      await fakeSite(out, 'previous', 1024 * 1024);
      await fakeSite(path.join(tmp, 'stage-big'), 'too big', 1536 * 1024);
      const error = await publish(path.join(tmp, 'stage-big'), out, 'full').catch((e: NodeJS.ErrnoException) => e);
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe('<h1>previous</h1>');
      expect(statSync(path.join(out, '_astro', 'big.bin')).size).toBe(1024 * 1024);
      expect(await readdir(mount)).toEqual(['site']);
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});
