/**
 * The warm renderer (scripts/warm/) as the webhook receiver runs it (webhook-receiver/warm-builder.ts):
 * a child process that builds a small press room in full, then makes two chained changes live
 * without a new build process (a retitled release, then a withdrawn one); the site and route record
 * are then the same, byte for byte, as a forced full build of the same upstream state. A child
 * killed in the middle of a change leaves the live site as it was, and that delivery is served by a
 * full build in a new child; a site rendered with another configuration is not changed warm.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE, manageEmulator } from '../helpers/emulator.ts';
import { fileDigests } from '../helpers/file-tree.ts';
import { cleanBuildEnv } from '../site/global-setup.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import { readRouteRecord, routeRecordPath } from '../../scripts/route-record-file.ts';
import { buildAndDeploy, type BuildAndDeploy } from '../../webhook-receiver/build-and-deploy.ts';
import type { BuildOutcome } from '../../webhook-receiver/build-queue.ts';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let tmp: string;
let api: RunningEmulator;
let builder: BuildAndDeploy;
const lines: string[] = [];
let onLine: (line: string) => void = () => undefined;

interface Listed {
  id: number;
  title: string;
  permalink: string;
}

const env = (): NodeJS.ProcessEnv => ({
  ...cleanBuildEnv(),
  PRESSROOM_API_URL: api.url,
  PRESSROOM_ID: String(api.pressroom.id),
  PRESSROOM_CACHE_DIR: path.join(tmp, 'cache'),
  SOURCE_DATE_EPOCH: String(Date.parse(DEMO_NOW) / 1000),
});

const manage = (method: string, route: string, body?: unknown): Promise<void> => manageEmulator(api, method, route, body);

async function listed(): Promise<Listed[]> {
  const response = await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=50`);
  return ((await response.json()) as { data: Listed[] }).data;
}

/** One delivery: what the builder did, and the lines it printed meanwhile. */
async function deliver(): Promise<BuildOutcome & { said: string[] }> {
  const from = lines.length;
  const result = await builder.run();
  return { ...result, said: lines.slice(from) };
}

const site = () => path.join(tmp, 'site');
const WARM_LINE = /^build: warm: (\d+) of (\d+) routes rendered \(/;

let releases: Listed[];
let first: BuildOutcome & { said: string[] };
let changes: Array<BuildOutcome & { said: string[] }>;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'warm-renderer-'));
  api = await startEmulator({ scale: 12, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  releases = await listed();
  // As `npm run webhooks -- --warm` runs its builds (without a deploy command).
  builder = buildAndDeploy({
    root,
    out: site(),
    buildScript: path.join(root, 'scripts', 'build.ts'),
    nodeFlags: [SOURCE_CONDITION_FLAG],
    changesFile: `${site()}.changes.json`,
    env: env(),
    log: (line) => {
      lines.push(line);
      onLine(line);
    },
    warmRenderer: path.join(root, 'scripts', 'warm', 'renderer.ts'),
  });
  first = await deliver();
  await manage('PUT', `/v1/campaigns/${releases[1]!.id}`, { campaign: { title: `${releases[1]!.title}, corrected` } });
  const retitled = await deliver();
  await manage('PUT', `/v1/campaigns/${releases[2]!.id}/cancel`);
  const withdrawn = await deliver();
  changes = [retitled, withdrawn];
  await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', path.join(tmp, 'forced'), '--force'], {
    cwd: root,
    env: env(),
    maxBuffer: 64 * 1024 * 1024,
  });
}, 600_000);

afterAll(async () => {
  builder?.stop();
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the warm renderer', () => {
  it('builds in full first, then renders only what each change touches, in its own process', () => {
    expect(first.ok, first.summary).toBe(true);
    expect(first.said.join('\n')).toMatch(/^build: rendering: --force was given$/m);
    for (const change of changes) {
      expect(change.ok, change.summary).toBe(true);
      const line = change.said.map((l) => WARM_LINE.exec(l)).find(Boolean);
      expect(line, change.said.join('\n')).toBeTruthy();
      expect(Number(line![1])).toBeGreaterThan(0);
      expect(Number(line![1])).toBeLessThan(Number(line![2]));
      // No new build: the kept App rendered it.
      expect(change.said.join('\n')).not.toMatch(/rendering: --force|rendering in full|building in full/);
      // Search bundles whose pages it left alone are taken from the live site (test/site/built/search.test.ts).
      expect(change.said.join('\n')).toMatch(/search bundles: [1-9]\d* indexed, \d+ kept/);
    }
  });

  it('after two chained changes, the site and its route record are a forced full build’s, byte for byte', async () => {
    const [warm, forced] = await Promise.all([fileDigests(site()), fileDigests(path.join(tmp, 'forced'))]);
    expect(Object.keys(warm).length).toBeGreaterThan(200);
    expect(warm).toEqual(forced);
    expect(await readRouteRecord(site())).toEqual(await readRouteRecord(path.join(tmp, 'forced')));
    // What else a build writes beside the site: the data report as is, the fingerprint but for its clock time and mtimes.
    const beside = (dir: string, suffix: string) => readFile(`${dir}.${suffix}`, 'utf8');
    expect(await beside(site(), 'data-report.json')).toBe(await beside(path.join(tmp, 'forced'), 'data-report.json'));
    const fingerprint = async (dir: string) => {
      const {
        builtAt: _,
        output,
        media,
        ...rest
      } = JSON.parse(await beside(dir, 'fingerprint.json')) as Record<string, unknown> & {
        output: Record<string, [string, number, number]>;
        media: Array<{ url: string; as: string }>;
      };
      const hashes = Object.fromEntries(Object.entries(output).map(([file, [sha256]]) => [file, sha256]));
      return { ...rest, hashes, media: [...media].sort((a, b) => (`${a.as} ${a.url}` < `${b.as} ${b.url}` ? -1 : 1)) };
    };
    expect(await fingerprint(site())).toEqual(await fingerprint(path.join(tmp, 'forced')));
    const changes = JSON.parse(await readFile(`${site()}.changes.json`, 'utf8')) as { removed: Array<{ path: string }> };
    expect(changes.removed.map((r) => r.path)).toContain(`${releases[2]!.permalink.replace(/^\//, '')}/index.html`);
  });

  it('killed in the middle of a change, it leaves the live site as it was; a full build in a new child serves the delivery', async () => {
    const before = await fileDigests(site());
    await manage('PUT', `/v1/campaigns/${releases[3]!.id}`, { campaign: { title: `${releases[3]!.title}, killed mid-change` } });
    let intact: Promise<Record<string, string>> | undefined;
    onLine = (line) => {
      // The change has started and not yet swapped: end the child there.
      if (!intact && line === 'build: warm: loading the change') {
        builder.stop();
        intact = new Promise((resolve) => setTimeout(resolve, 300)).then(() => fileDigests(site()));
      }
    };
    const served = await deliver();
    onLine = () => undefined;
    expect(intact, served.said.join('\n')).toBeDefined();
    expect(await intact).toEqual(before);
    expect(served.ok, served.summary).toBe(true);
    expect(served.said.join('\n')).toMatch(/building in full/);
    expect(served.said.join('\n')).toMatch(/^build: rendering: --force was given$/m);
    expect(await readFile(path.join(site(), `${releases[3]!.permalink.replace(/^\//, '')}/index.html`), 'utf8')).toContain(
      'killed mid-change',
    );
  });

  it('a site rendered with another configuration is not changed warm: a new child builds it in full', async () => {
    const record = JSON.parse(await readFile(routeRecordPath(site()), 'utf8')) as { configuration: Record<string, string | null> };
    record.configuration.PRESSROOM_IMAGE_HOSTS = 'images.other.example';
    await writeFile(routeRecordPath(site()), JSON.stringify(record));
    // The full build that follows is the one the kill above already showed: ended once it starts, to spare the CPU.
    let started = false;
    onLine = (line) => {
      if (!started && line === 'build: rendering: --force was given') {
        started = true;
        builder.stop();
      }
    };
    const served = await deliver();
    onLine = () => undefined;
    const said = served.said.join('\n');
    expect(said).toMatch(/^build: warm: rendering in full: the site in --out was rendered with another configuration$/m);
    expect(started, said).toBe(true);
    expect(served.said.some((l) => WARM_LINE.test(l) || l === 'build: warm: loading the change')).toBe(false);
  });
});
