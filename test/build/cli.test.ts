/**
 * Every command run as a user would, as a child process: `--help`, an unknown
 * or valueless flag, bad values, and the configuration mistakes of a cron job
 * (a misspelt PRESSROOM_API_URL, a site URL without scheme) — each one line,
 * never a stack, exit 2, and the output folder untouched. One exit-code rule:
 * 0 done, 1 failed run, 2 usage or configuration. No site is built here (the
 * demo build and a cold build's progress lines are in builds.test.ts).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const SECRET = `whsec_${Buffer.from('cli test key').toString('base64')}`;
let tmp: string;
let site: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'cli-'));
  // An earlier build's output (what a build may replace), to prove it is left alone.
  site = path.join(tmp, 'site');
  await mkdir(path.join(site, '_astro'), { recursive: true });
  await writeFile(path.join(site, 'index.html'), '<h1>the real press room</h1>');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs `node <script> ...args` with only the given PRESSROOM_* variables set. */
function command(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of Object.keys(clean)) if (name.startsWith('PRESSROOM_') && !(name in env)) delete clean[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOURCE_CONDITION_FLAG, script, ...args], {
      cwd: root,
      env: clean,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const NO_STACK = /\n\s+at |Error: |node:internal/;
const COMMANDS = [
  {
    name: 'build',
    script: 'scripts/build.ts',
    flags: ['--out DIR', '--wait SECONDS', '--demo', '--strict', '--force', '--no-notify'],
    variables: [
      'PRESSROOM_API_URL',
      'PRESSROOM_SNAPSHOT',
      'PRESSROOM_STRICT',
      'PRESSROOM_CACHE_DIR',
      'PRESSROOM_WEBSUB_HUB',
      'PRESSROOM_INDEXNOW_KEY',
      'PRESSROOM_INDEXNOW_ENDPOINT',
    ],
  },
  {
    name: 'snapshot',
    script: 'scripts/snapshot.ts',
    flags: ['--out DIR', '--demo'],
    required: ['--out DIR'],
    variables: ['PRESSROOM_API_URL', 'PRESSROOM_API_KEY'],
  },
  {
    name: 'archive',
    script: 'scripts/archive.ts',
    flags: ['--out DIR', '--snapshot SNAPSHOT', '--wait SECONDS', '--demo'],
    required: ['--out DIR'],
    variables: ['PRESSROOM_SNAPSHOT'],
  },
  {
    name: 'webhooks',
    script: 'scripts/webhooks.ts',
    flags: ['--port PORT', '--host HOST', '--out DIR', '--debounce-ms MS', '--warm'],
    variables: ['PRESSROOM_WEBHOOK_SECRET', 'PRESSROOM_DEPLOY_COMMAND', 'PRESSROOM_WEBSUB_HUB', 'PRESSROOM_INDEXNOW_KEY', 'PRESSROOM_WARM'],
  },
  {
    name: 'bench',
    script: 'bench/run.ts',
    flags: ['--scale demo|L|N', '--only LIST', '--keep LIST', '--workers LIST', '--sample N'],
    variables: [],
  },
];

// Each command in its own processes, touching no file: two run at a time (2 cores) and no test waits on another.
describe.concurrent.each(COMMANDS)('npm run $name', ({ name, script, flags, variables, required = [] as string[] }) => {
  it('--help says what it does, its flags, the variables it reads and the exit codes; exit 0', async ({ expect }) => {
    const { code, stdout } = await command(script, ['--help']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(`usage: npm run ${name} -- ${flags.map((f) => (required.includes(f) ? f : `[${f}]`)).join(' ')}`);
    for (const flag of flags) expect(stdout).toContain(`  ${flag}`);
    for (const variable of variables) expect(stdout).toMatch(new RegExp(`^  ${variable} `, 'm'));
    expect(stdout).toContain('exit status: 0 done, 1 the run failed, 2 usage or configuration error');
  }, 90_000);

  it('an unknown flag or a flag without its value: one line and the usage, exit 2', async ({ expect }) => {
    const unknown = await command(script, ['--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n').slice(0, 2)).toEqual([`${name}: unknown flag --bogus`, expect.stringMatching(/^usage: npm run /)]);
    expect(unknown.stderr).not.toMatch(NO_STACK);
    const [firstValueFlag] = flags.filter((f) => f.includes(' '));
    const valueless = await command(script, [firstValueFlag!.split(' ')[0]!]);
    expect(valueless.code).toBe(2);
    expect(valueless.stderr.split('\n')[0]).toBe(`${name}: ${firstValueFlag!.split(' ')[0]} needs a value`);
    // Two processes that each load a whole command (~2.4 s apiece for build on an idle machine), ten such tests at once.
  }, 90_000);
});

it.concurrent.for(['build', 'archive'])(
  'npm run %s started as a bare `node scripts/…` (no source condition): one line naming the npm script, exit 2',
  async (name, { expect }) => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [`scripts/${name}.ts`, '--help'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stderr: err }));
    });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      `${name}: started without ${SOURCE_CONDITION_FLAG}: run it as \`npm run ${name}\` (or node ${SOURCE_CONDITION_FLAG} …)`,
    ]);
  },
);

describe('configuration mistakes stop a build before anything runs: one line, exit 2, the site untouched', () => {
  const untouched = async () => {
    expect(await readdir(site)).toEqual(['_astro', 'index.html']);
    expect(await readFile(path.join(site, 'index.html'), 'utf8')).toBe('<h1>the real press room</h1>');
    expect((await readdir(tmp)).sort()).toEqual(['site']);
  };

  it('a misspelt PRESSROOM_API_URL (cron builds the demo company into production otherwise)', async () => {
    const typo = await command('scripts/build.ts', ['--out', site], { PRESSROOM_API_UR: 'https://api.example.com', PRESSROOM_ID: '1234' });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^build: PRESSROOM_API_UR is not a pressroom-static setting; did you mean PRESSROOM_API_URL\? \(settings: [^\n]*\)\n$/,
    );
    expect(typo.stdout).not.toMatch(/DEMO/);
    await untouched();
  });

  it('a PRESSROOM_* variable without PRESSROOM_API_URL or PRESSROOM_SNAPSHOT', async () => {
    const alone = await command('scripts/build.ts', ['--out', site], { PRESSROOM_ID: '1234' });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(
      'build: PRESSROOM_API_URL is not set, but PRESSROOM_ID is: set PRESSROOM_API_URL and PRESSROOM_ID (or PRESSROOM_SNAPSHOT) to build your press room, or use --demo for the demo press room\n',
    );
    await untouched();
  });

  it('a real press room without PRESSROOM_SITE_URL (it would publish http://localhost:4321 in every canonical link)', async () => {
    const missing = await command('scripts/build.ts', ['--out', site], {
      PRESSROOM_API_URL: 'https://api.example.com',
      PRESSROOM_ID: '1234',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'build: PRESSROOM_SITE_URL is not set: give the public address the site is published at (e.g. https://press.example.com); without it canonical links, sitemaps and feeds would point at http://localhost:4321\n',
    );
    await untouched();
  });

  it('PRESSROOM_SITE_URL without a scheme, named before Astro sees it', async () => {
    const noScheme = await command('scripts/build.ts', ['--out', site], {
      PRESSROOM_API_URL: 'https://api.example.com',
      PRESSROOM_ID: '1234',
      PRESSROOM_SITE_URL: 'press.example.com',
    });
    expect(noScheme.code).toBe(2);
    expect(noScheme.stderr).toBe(
      'build: PRESSROOM_SITE_URL must be an http:// or https:// URL (the public site, e.g. https://press.example.com or https://example.com/press/), got "press.example.com"\n',
    );
    await untouched();
  });

  it('PRESSROOM_SITE_URL with a dot segment or a query in its path, named before Astro sees it', async () => {
    const base = { PRESSROOM_API_URL: 'https://api.example.com', PRESSROOM_ID: '1234' };
    const dots = await command('scripts/build.ts', ['--out', site], { ...base, PRESSROOM_SITE_URL: 'https://example.com/a/../press/' });
    expect(dots.code).toBe(2);
    expect(dots.stderr).toBe(
      'build: PRESSROOM_SITE_URL must be an http:// or https:// URL whose path, if any, is plain folder names (letters, digits, -, _, ., ~; no "..", no empty or encoded parts), e.g. https://example.com/press/, got "https://example.com/a/../press/"\n',
    );
    const query = await command('scripts/build.ts', ['--out', site], { ...base, PRESSROOM_SITE_URL: 'https://example.com/press/?v=1' });
    expect(query.code).toBe(2);
    expect(query.stderr).toMatch(
      /^build: PRESSROOM_SITE_URL must be .* without a query or fragment, got "https:\/\/example.com\/press\/\?v=1"\n$/,
    );
    await untouched();
  });

  it('nothing configured: the demo, said in the first line (here refused: the folder is not a site)', async () => {
    const notASite = path.join(tmp, 'notes');
    await mkdir(notASite);
    await writeFile(path.join(notASite, 'keep.txt'), 'keep');
    try {
      const demo = await command('scripts/build.ts', ['--out', notASite]);
      expect(demo.stdout.split('\n')[0]).toMatch(
        /^build: DEMO: building the bundled demo press room of a fictional company \(no PRESSROOM_\* variable is set\); every page is marked noindex and "demo"/,
      );
      expect(demo.code).toBe(2);
      expect(demo.stderr).toMatch(/already holds files this tool did not write/);
    } finally {
      await rm(notASite, { recursive: true });
    }
  });

  it('a snapshot folder that is not there', async () => {
    const missing = await command('scripts/build.ts', ['--out', site], { PRESSROOM_SNAPSHOT: path.join(tmp, 'no-snapshot') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^build: PRESSROOM_SNAPSHOT is not a readable snapshot: cannot read \S+no-snapshot\/manifest\.json \(ENOENT\)\n$/,
    );
    await untouched();
  });
});

describe("the receiver's port", () => {
  it('a port out of range is a usage error; a busy one is one line, exit 1', async () => {
    const upstream = { PRESSROOM_API_URL: 'https://api.example.com', PRESSROOM_ID: '1', PRESSROOM_SITE_URL: 'https://press.example.com' };
    const bad = await command('scripts/webhooks.ts', ['--port', '99999', '--out', site], { PRESSROOM_WEBHOOK_SECRET: SECRET, ...upstream });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('webhooks: --port must be an integer from 0 to 65535, got "99999"\n');

    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const busy = await command('scripts/webhooks.ts', ['--port', String(port), '--out', site], {
        PRESSROOM_WEBHOOK_SECRET: SECRET,
        ...upstream,
      });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toBe(
        `webhooks: port ${port} on 127.0.0.1 is already in use (another receiver still running?); choose another with --port\n`,
      );
    } finally {
      holder.close();
    }
  });

  it('a receiver without an upstream refuses to start rather than fail every build', async () => {
    const none = await command('scripts/webhooks.ts', ['--port', '0', '--out', site], { PRESSROOM_WEBHOOK_SECRET: SECRET });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^webhooks: PRESSROOM_API_URL is not set, but PRESSROOM_WEBHOOK_SECRET is/);
  });
});
