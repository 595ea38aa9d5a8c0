/**
 * `npm run emulator` as a child process: help, one-line usage errors (exit 2),
 * a busy port (exit 1), never a stack trace; and a real start with the new
 * switches, stopped by SIGTERM (exit 0).
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const CLI = 'emulator/cli.ts';

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: root, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
const NO_STACK = /^\s+at |Error:|node:internal/m;

describe('emulator CLI', () => {
  it('--help says what it does, every flag with its meaning, and which PRESSROOM_* variables it reads', async () => {
    const { code, stdout, stderr } = await run('--help');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/Newsroom Read API/);
    for (const flag of [
      '--port',
      '--host',
      '--scale',
      '--seed',
      '--now',
      '--frozen-clock',
      '--true-totals',
      '--shapes',
      '--leak-hidden',
      '--flaws',
      '--management-key',
      '--read-key',
      '--help',
    ]) {
      const line = stdout.split('\n').find((l) => l.trimStart().startsWith(flag) || l.includes(`, ${flag}`));
      expect(line, flag).toBeDefined();
      expect(line!.replace(/^\s*(-h, )?--\S+( \S+)?\s+/, '').length, flag).toBeGreaterThan(10);
    }
    expect(stdout).toMatch(/reads no PRESSROOM_\* variable/);
    expect(stdout).toMatch(/Exit codes/);
  });

  it('answers an unknown flag, a flag without its value, a value on a switch and a stray argument with one line and the usage (exit 2)', async () => {
    for (const [args, message] of [
      [['--bogus'], "unknown flag '--bogus'"],
      [['--port'], '--port needs a value'],
      [['--port', '--flaws'], '--port needs a value'],
      [['--flaws=yes'], '--flaws takes no value'],
      [['--shapes', 'old'], "--shapes must be current or legacy, got 'old'"],
      [['--now', 'yesterday'], '--now must be an ISO-8601 instant'],
      [['extra'], 'unexpected argument extra'],
    ] as const) {
      const { code, stdout, stderr } = await run(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      const [first, ...rest] = lines(stderr);
      expect(first, args.join(' ')).toContain(`emulator: ${message}`);
      expect(rest, args.join(' ')).toEqual([expect.stringMatching(/^usage: npm run emulator -- /)]);
      expect(stderr).not.toMatch(NO_STACK);
    }
  });

  it('refuses a port out of range with one line (exit 2)', async () => {
    for (const port of ['99999', '-1', '80.5', 'http']) {
      const { code, stderr } = await run(`--port=${port}`);
      expect(code, port).toBe(2);
      expect(lines(stderr)[0], port).toMatch(/^emulator: --port must be an integer from 0 to 65535/);
      expect(stderr).not.toMatch(NO_STACK);
    }
  });

  it('says which port is busy and what to do, in one line, when the port is taken (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stdout, stderr } = await run('--port', String(port));
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(lines(stderr)).toHaveLength(1);
      expect(stderr).toContain(`port ${port}`);
      expect(stderr).toMatch(/already in use/);
      expect(stderr).toMatch(/--port/);
      expect(stderr).not.toMatch(NO_STACK);
    } finally {
      blocker.close();
    }
  });

  it('starts with --shapes legacy --leak-hidden --flaws on a free port, answers in those modes, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--frozen-clock', '--shapes', 'legacy', '--leak-hidden', '--flaws'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          const match = /listening on (http:\/\/\S+)[^]*\n {2}management .*\n/.exec(stdout);
          if (match) resolve(match[1]!);
        });
        child.once('exit', () => reject(new Error(`emulator exited before listening: ${stderr}`)));
      });
      expect(stdout).toMatch(/legacy shapes, hidden items leaked, flawed items added/);
      const settings = (await (await fetch(`${url}/_emulator/settings`)).json()) as { data: Record<string, unknown> };
      expect(settings.data).toMatchObject({ shapes: 'legacy', leakHidden: true, flaws: true });
      const kits = (await (await fetch(`${url}/v1/pressrooms/4201/presskits`)).json()) as { data: Array<Record<string, unknown>> };
      // Bare /presskits kits, plus what a leaky key says about why an item is hidden.
      expect(Object.keys(kits.data[0]!).sort()).toEqual(['id', 'media', 'private', 'publish_date', 'state', 'title']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });
});
