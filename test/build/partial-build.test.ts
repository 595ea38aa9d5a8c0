/**
 * The partial build end to end (issue 31, item 2): a small press room built in full, then one batch
 * of changes upstream through the emulator's management API (a retitled release, which moves its
 * page; a release given a new tag; a release withdrawn; a release published; a media kit renamed),
 * then `npm run build` again: it renders only the routes the changes touch, and its output is the
 * same, byte for byte, as a forced full build of the same upstream state into another folder.
 * The planner's cases one by one, without rendering: route-plan.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { fileDigests } from '../helpers/file-tree.ts';
import { cleanBuildEnv } from '../site/global-setup.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import { readRouteRecord, type RouteRecord } from '../../scripts/route-record-file.ts';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let tmp: string;
let api: RunningEmulator;
let first: { stdout: string };
let partial: { stdout: string };
let forced: { stdout: string };
let record: RouteRecord;

async function build(out: string, args: string[] = []): Promise<{ stdout: string }> {
  const env = {
    ...cleanBuildEnv(),
    PRESSROOM_API_URL: api.url,
    PRESSROOM_ID: String(api.pressroom.id),
    PRESSROOM_CACHE_DIR: path.join(tmp, 'cache'),
    SOURCE_DATE_EPOCH: String(Math.floor(Date.parse(DEMO_NOW) / 1000)),
  };
  const { stdout } = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out, ...args], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout };
}

async function manage(method: string, route: string, body?: unknown): Promise<void> {
  const response = await fetch(`${api.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${api.managementKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
}

async function listed<T>(what: string): Promise<T[]> {
  const response = await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/${what}?limit=50`);
  return ((await response.json()) as { data: T[] }).data;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'partial-build-'));
  api = await startEmulator({ scale: 12, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  const releases = await listed<{ id: number; title: string; tags?: Array<{ name: string }> }>('press_releases');
  const [retitled, retagged, withdrawn, published] = releases;
  // Published only after the first build: a new release for the second.
  await manage('PUT', `/v1/campaigns/${published!.id}/cancel`);
  first = await build(path.join(tmp, 'site'));
  const read = await readRouteRecord(path.join(tmp, 'site'));
  if ('missing' in read) throw new Error(read.missing);
  record = read;

  await manage('PUT', `/v1/campaigns/${retitled!.id}`, { campaign: { title: `${retitled!.title}, corrected` } });
  await manage('PUT', `/v1/campaigns/${retagged!.id}`, {
    campaign: { tags: [...(retagged!.tags ?? []).map((t) => t.name), 'A topic added after the build'] },
  });
  await manage('PUT', `/v1/campaigns/${withdrawn!.id}/cancel`);
  await manage('PUT', `/v1/campaigns/${published!.id}`, { campaign: { publish_immediately: true } });
  const [kit] = await listed<{ id: number; title: string }>('media_kits');
  await manage('PUT', `/v1/media_kits/${kit!.id}`, { media_kit: { title: `${kit!.title} (renamed)` } });

  partial = await build(path.join(tmp, 'site'));
  forced = await build(path.join(tmp, 'forced'), ['--force']);
}, 600_000);

afterAll(async () => {
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('a partial build', () => {
  it('renders fewer routes than a full build, and says so in one line', () => {
    expect(first.stdout).toMatch(/^build: rendering in full: no fingerprint beside /m);
    const line = /^build: partial: (\d+) of (\d+) routes rendered \((\d+) changed items: [^)]+\)$/m.exec(partial.stdout);
    expect(line, partial.stdout).not.toBeNull();
    const [, rendered, total] = line!.map(Number);
    expect(rendered).toBeGreaterThan(0);
    // Five changes at once in a press room of 12 releases: its lists and feeds, not the other pages.
    expect(rendered).toBeLessThan(total!);
    expect(forced.stdout).toMatch(/^build: rendering: --force was given$/m);
    expect(forced.stdout).not.toMatch(/^build: partial/m);
  });

  it('writes the same bytes as a forced full build of the same upstream state', async () => {
    const [assembled, full] = await Promise.all([fileDigests(path.join(tmp, 'site')), fileDigests(path.join(tmp, 'forced'))]);
    expect(Object.keys(assembled).length).toBeGreaterThan(200);
    expect(assembled).toEqual(full);
  });

  it('leaves a route record that a full build would write', async () => {
    const [after, full] = await Promise.all([readRouteRecord(path.join(tmp, 'site')), readRouteRecord(path.join(tmp, 'forced'))]);
    expect(after).toEqual(full);
  });

  it('recorded, in the first build, every _media/ file each page prints as that page’s: the context survives components, slots and awaits', async () => {
    // The first build's files are gone (swapped); the forced build's record describes the same kind of site.
    const full = await readRouteRecord(path.join(tmp, 'forced'));
    if ('missing' in full) throw new Error(full.missing);
    let printed = 0;
    for (const file of Object.keys(full.routes).filter((f) => f.endsWith('.html'))) {
      const html = await readFile(path.join(tmp, 'forced', file), 'utf8');
      const media = new Set([...html.matchAll(/\/(_media\/[^\s"'?#,)]+)/g)].map((m) => decodeURI(m[1]!)));
      const recorded = new Set(full.routes[file]!.files);
      expect(
        [...media].filter((f) => !recorded.has(f)),
        file,
      ).toEqual([]);
      printed += media.size;
    }
    expect(printed).toBeGreaterThan(100);
    expect(Object.keys(record.routes).length).toBeGreaterThan(100);
  });
});
