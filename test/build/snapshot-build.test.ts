/**
 * Offline press-archive snapshots end to end: record the demo press room,
 * then build the site from the snapshot twice with no API at all; the two
 * `dist/` trees are byte-identical.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
});
