/**
 * Whole builds in child processes, one after another (builds share Astro's
 * cache folders, so they never run in parallel): offline press-archive
 * snapshots end to end — record the demo press room, build from the snapshot
 * twice with no API at all, byte-identical trees — and a build against an API
 * that requires a key, which must appear nowhere in the output or the logs.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const node = process.execPath;
let tmp: string;

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(await readFile(file)).digest('hex');
  }
  return out;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'snapshot-build-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('building from a snapshot', () => {
  it('records the demo press room and builds it twice offline into identical bytes', async () => {
    const snapshot = path.join(tmp, 'snapshot');
    const env = { ...process.env, PRESSROOM_API_URL: '', PRESSROOM_SNAPSHOT: '' };
    const recorded = await run(node, ['scripts/snapshot.ts', '--out', snapshot], { cwd: root, env });
    expect(recorded.stdout).toMatch(/wrote .*: \d+ API responses, \d+ media originals/);

    // A dead API URL proves the build never asks the network: the snapshot wins.
    const offline = { ...process.env, PRESSROOM_SNAPSHOT: snapshot, PRESSROOM_API_URL: 'http://127.0.0.1:9', PRESSROOM_ID: '1' };
    const first = await run(node, ['scripts/build.ts', '--out', path.join(tmp, 'a')], { cwd: root, env: offline });
    expect(first.stdout).toMatch(/entries from the snapshot/);
    await run(node, ['scripts/build.ts', '--out', path.join(tmp, 'b')], { cwd: root, env: offline });
    const [a, b] = [await tree(path.join(tmp, 'a')), await tree(path.join(tmp, 'b'))];
    expect(Object.keys(a).length).toBeGreaterThan(1);
    expect(b).toEqual(a);

    // A build that cannot finish exits with an error and leaves the previous site exactly as it was.
    const broken = { ...offline, PRESSROOM_SNAPSHOT: path.join(tmp, 'no-such-snapshot') };
    const failed = await run(node, ['scripts/build.ts', '--out', path.join(tmp, 'a')], { cwd: root, env: broken, timeout: 120_000 }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/build failed: PRESSROOM_SNAPSHOT is not a readable snapshot.*\n.*left exactly as it was/);
    expect(await tree(path.join(tmp, 'a'))).toEqual(a);
  }, 600_000);

  it('sends the API key and writes it to no output file, cache or log line', async () => {
    const key = 'sk_live_build_SECRET_4471';
    const api = await startEmulator({ readKey: key, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    try {
      const out = path.join(tmp, 'keyed');
      const env = { ...process.env, PRESSROOM_SNAPSHOT: '', PRESSROOM_API_URL: api.url, PRESSROOM_ID: String(api.pressroom.id), PRESSROOM_API_KEY: key };
      const built = await run(node, ['scripts/build.ts', '--out', out], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
      expect(built.stdout).toMatch(/entries from the API/);
      expect(`${built.stdout}${built.stderr}`).not.toContain(key);
      const files = Object.keys(await tree(out));
      expect(files.length).toBeGreaterThan(100);
      for (const file of files) expect((await readFile(path.join(out, file))).includes(key), file).toBe(false);
      const cache = path.join(root, '.cache', 'pressroom-http');
      for (const entry of await readdir(cache, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) expect((await readFile(path.join(entry.parentPath, entry.name))).includes(key), entry.name).toBe(false);
      }
      const log = (await (await fetch(`${api.url}/_emulator/requests?path_prefix=/v1`)).json()) as { data: Array<{ auth: string }> };
      expect(log.data.length).toBeGreaterThan(10);
      expect(log.data.every((e) => e.auth === 'bearer')).toBe(true);
    } finally {
      await api.close();
    }
  }, 600_000);
});
