/**
 * The HTTP cache's temp files: a build killed in the middle of a cache write
 * leaves `<entry>.<pid>.<hex>.tmp`; the next build that opens the cache
 * removes those whose writer is gone, and leaves a running writer's alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHttpCache, sweepInterruptedWrites } from '../../content-loaders/client/http-cache.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'http-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("removes temp files of a writer that is gone when the cache is opened, and keeps a live writer's", async () => {
  // A pid that surely ran and ended: a child that has exited.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const name = 'ab'.repeat(32);
  const dead = path.join(dir, `${name}.entry.${gone}.0a1b2c3d4e5f.tmp`);
  const live = path.join(dir, `${name}.entry.${process.pid}.0a1b2c3d4e5f.tmp`);
  const entry = path.join(dir, `${name}.entry`);
  for (const file of [dead, live, entry]) await writeFile(file, 'x');

  const cache = createHttpCache({ dir });
  await cache.lookup('https://api.example.test/v1/x'); // opening the cache starts the sweep; give it its turn
  for (let i = 0; i < 50 && existsSync(dead); i++) await new Promise((r) => setTimeout(r, 20));
  expect((await readdir(dir)).sort()).toEqual([path.basename(entry), path.basename(live)].sort());
  expect(await sweepInterruptedWrites(dir)).toBe(0);
});
