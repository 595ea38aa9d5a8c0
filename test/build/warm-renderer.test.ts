/**
 * The warm renderer (scripts/warm/) as the webhook receiver runs it (webhook-receiver/warm-builder.ts),
 * where things go wrong: a child killed in the middle of a change leaves the live site as it was,
 * and that delivery is served by a new child's first build, a partial one; a child started over the
 * site as built renders nothing before its first warm change, also when it was stopped as a change
 * it had answered wrote its record; a live site edited by hand, or rendered with another
 * configuration, is not changed warm; an Astro whose internals cannot be kept is said once, and each
 * delivery then runs the build command. A delivery that names releases loads them alone before the
 * swap and every collection after it: a full build's site, confirmed by a build after it, and when
 * the API changed beyond them, a fingerprint that claims no state and one more change. That its changes are a full build's, byte for byte, for every
 * kind of change: test/build/partial-build.test.ts.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
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
import { routeRecordPath } from '../../scripts/route-record-file.ts';
import { byPath, filesOf } from '../../src/lib/site-files.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import type { BuildAndDeploy } from '../../webhook-receiver/build-and-deploy.ts';
import { warmReceiverBuilds } from '../helpers/warm-builds.ts';
import type { BuildOutcome } from '../../webhook-receiver/build-queue.ts';
import type { ChangeScope } from '../../webhook-receiver/change-scope.ts';
import { readFingerprint } from '../../scripts/fingerprint.ts';

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

/** The emulator's log of the requests under `prefix`, after `since`, oldest first. */
async function asked(prefix: string, since = 0): Promise<Array<{ seq: number; path: string }>> {
  const response = await fetch(`${api.url}/_emulator/requests?path_prefix=${encodeURIComponent(prefix)}&since=${since}`);
  return ((await response.json()) as { data: Array<{ seq: number; path: string }> }).data;
}

/** One delivery (naming `scope`'s releases): what the builder did, and the lines it printed meanwhile. */
async function deliver(scope?: ChangeScope): Promise<BuildOutcome & { said: string[] }> {
  const from = lines.length;
  const result = await builder.run(scope);
  return { ...result, said: lines.slice(from) };
}

const site = () => path.join(tmp, 'site');
const WARM_LINE = /^build: warm: (\d+) of (\d+) routes rendered \(/;

/** One delivery the kept child made live warm. */
async function deliverWarm(scope?: ChangeScope): Promise<void> {
  const changed = await deliver(scope);
  expect(changed.ok, changed.summary).toBe(true);
  expect(
    changed.said.some((line) => WARM_LINE.test(line)),
    changed.said.join('\n'),
  ).toBe(true);
}

/** One delivery made live warm, and the bookkeeping after its answer done (the record and the data store written). */
async function deliverWarmAndRecord(scope?: ChangeScope): Promise<void> {
  const from = lines.length;
  await deliverWarm(scope);
  const recorded = () => lines.slice(from).some((line) => line.startsWith('build: warm: the previous site removed'));
  await expect.poll(recorded, { timeout: 60_000 }).toBe(true);
}

/** The files of a `--force` build of the upstream's state now into `folder`, by digest. */
async function forcedBuild(folder: string): Promise<Record<string, string>> {
  const forced = path.join(tmp, folder);
  await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', forced, '--force'], { cwd: root, env: env() });
  return fileDigests(forced);
}

let releases: Listed[];

/** Each `_media/` file of the live site with its inode. */
const mediaInodes = async (): Promise<Map<string, bigint>> => {
  const media = path.join(site(), '_media');
  return new Map((await filesOf(media)).map((file) => [file, statSync(path.join(media, file), { bigint: true }).ino]));
};
let first: BuildOutcome & { said: string[] };
/** What the child said was changed beyond a change's named releases (the receiver then queues one more build). */
const stale: string[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'warm-renderer-'));
  api = await startEmulator({ scale: 12, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  releases = await listed();
  // As `npm run webhooks -- --warm` runs its builds (without a deploy command).
  builder = warmReceiverBuilds(
    site(),
    env(),
    (line) => {
      lines.push(line);
      onLine(line);
    },
    { onStale: (why) => stale.push(why) },
  );
  first = await deliver();
}, 600_000);

afterAll(async () => {
  builder?.stop();
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// Several tests start a new child, whose first build takes 16-22 s of the default 30 s on a quiet machine.
describe('the warm renderer', { timeout: 120_000 }, () => {
  it('builds first as the build command decides (in full: --out is empty), in the child it then keeps', () => {
    expect(first.ok, first.summary).toBe(true);
    expect(first.said.join('\n')).toMatch(/^build: rendering in full: no fingerprint beside /m);
  });

  it('killed in the middle of a change, it leaves the live site as it was; a new child serves the delivery with a partial build', async () => {
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
    expect(served.said.join('\n')).toMatch(/^build: warm: the renderer ended \(exit .*\); a new one builds$/m);
    expect(served.said.join('\n')).toMatch(/^build: partial: [1-9]\d* of \d+ routes rendered \(1 changed items: release:/m);
    expect(await readFile(path.join(site(), `${releases[3]!.permalink.replace(/^\//, '')}/index.html`), 'utf8')).toContain(
      'killed mid-change',
    );
  });

  it('restarted over the site as built, its first build renders nothing; its next change is warm, in that child', async () => {
    builder.stop();
    const restarted = await deliver();
    expect(restarted.ok, restarted.summary).toBe(true);
    expect(restarted.said.join('\n')).toMatch(/^build: partial: 0 of \d+ routes rendered \(0 changed items\)$/m);
    await manage('PUT', `/v1/campaigns/${releases[4]!.id}`, { campaign: { title: `${releases[4]!.title}, after a restart` } });
    await deliverWarm();
    const moved = (await listed()).find((release) => release.id === releases[4]!.id)!;
    expect(await readFile(path.join(site(), `${moved.permalink.replace(/^\//, '')}/index.html`), 'utf8')).toContain('after a restart');
    // What the child kept of a build that rendered nothing makes the site a full build makes.
    expect(await fileDigests(site())).toEqual(await forcedBuild('forced'));
  });

  it('makes the icons anew in a warm change when the header colour they are made on changed, as a full build makes them', async () => {
    const before = await fileDigests(site());
    // No console edit reaches the press room's design: set in the emulator's store, whose answers then change.
    api.store().world.pressroom.design.header_color = '#7a1f3d';
    api.store().touch();
    await deliverWarm();
    const after = await fileDigests(site());
    // The apple-touch icon is the logo on that colour.
    expect(after['apple-touch-icon.png']).not.toBe(before['apple-touch-icon.png']);
    expect(after).toEqual(await forcedBuild('forced-colour'));
  });

  it('stopped as soon as a change is live, the child first writes its record and data store: a new child renders nothing', async () => {
    await manage('PUT', `/v1/campaigns/${releases[5]!.id}`, { campaign: { title: `${releases[5]!.title}, then stopped` } });
    // Answered at the swap: the child still removes the previous site and writes the fingerprint, route record and data store.
    await deliverWarmAndRecord();
    // The pages took the synced store from memory; its file is written once the change is live.
    const store = await readFile(path.join(root, 'node_modules', '.astro', 'data-store.json'), 'utf8');
    expect(store.includes(', then stopped'), 'the data store file has the change').toBe(true);
    builder.stop();
    const restarted = await deliver();
    expect(restarted.ok, restarted.summary).toBe(true);
    expect(restarted.said.join('\n')).toMatch(/^build: partial: 0 of \d+ routes rendered \(0 changed items\)$/m);
  });

  it('syncs the collections pages are made from first, the others once the change is live: a build after it confirms the site', async () => {
    await manage('PUT', `/v1/campaigns/${releases[6]!.id}`, { campaign: { title: `${releases[6]!.title}, warm` } });
    const since = (await asked('/v1/')).at(-1)?.seq ?? 0;
    const mediaBefore = await mediaInodes();
    await deliverWarmAndRecord();
    // The media outputs of the pages it rendered again that the live site had (their names are digests) are its files, linked:
    // not copied from the cache and hashed again.
    const mediaAfter = await mediaInodes();
    const copied = [...mediaAfter].filter(([file, inode]) => mediaBefore.has(file) && mediaBefore.get(file) !== inode);
    expect(copied).toEqual([]);
    // The pages it rendered took their media originals as the live site's fingerprint recorded them: not one request.
    expect(await asked('/media/', since)).toEqual([]);
    const requests = await asked('/v1/', since);
    const synced = requests.filter((entry) => !/\/(?:timeline|archive)\b/.test(entry.path));
    const unsynced = requests.filter((entry) => /\/(?:timeline|archive)\b/.test(entry.path));
    expect(synced.some((entry) => entry.path.endsWith('/press_releases'))).toBe(true);
    // The timeline and the archive (references no page reads) are synced once the change is live.
    expect(unsynced.length).toBeGreaterThan(0);
    expect(Math.min(...unsynced.map((entry) => entry.seq))).toBeGreaterThan(Math.max(...synced.map((entry) => entry.seq)));
    // Its fingerprint then holds their answers, so the no-change check, which asks every collection, finds the site as built.
    const checked = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', site()], { cwd: root, env: env() });
    expect(checked.stdout).toMatch(/^build: nothing changed since /m);
  });

  /** A release's page at its address now in the live site, or undefined when there is none (a retitle moves it). */
  const pageOf = async (id: number): Promise<string | undefined> => {
    const now = (await listed()).find((release) => release.id === id);
    const page = now && path.join(site(), now.permalink.replace(/^\//, ''), 'index.html');
    return page && readFile(page, 'utf8').catch(() => undefined);
  };

  it('a delivery naming a release loads it alone before the swap and everything after: the site a full build makes, confirmed by a build', async () => {
    const named = releases[0]!;
    await manage('PUT', `/v1/campaigns/${named.id}`, { campaign: { title: `${named.title}, named in the delivery` } });
    const since = (await asked('/v1/')).at(-1)?.seq ?? 0;
    const from = lines.length;
    await deliverWarmAndRecord({ pressReleases: [String(named.id)] });
    const said = lines.slice(from).join('\n');
    expect(said).not.toMatch(/one more change follows/);
    expect(stale).toEqual([]);
    expect(await pageOf(named.id)).toContain('named in the delivery');
    // Before the swap the release alone (its tags are the site's: what pages show of them has not moved); every list once the change was live.
    const loaded = async (from: number, since: number) => {
      const said = lines.slice(from).join('\n');
      const before = Number(new RegExp(`; release ${named.id} loaded alone, (\\d+) API requests?; `).exec(said)?.[1]);
      const requests = (await asked('/v1/', since)).map((entry) => entry.path.replace(/^.*\/pressrooms\/\d+\/?/, ''));
      return { alone: requests.slice(0, before), after: requests.slice(before) };
    };
    const retitled = await loaded(from, since);
    expect(retitled.alone).toEqual([`press_releases/${named.id}`]);
    expect(retitled.after).toContain('press_releases');
    // Tagged with a tag the site does not have: the tags are loaded before the swap too, and its page is live at once.
    await manage('PUT', `/v1/campaigns/${named.id}`, { campaign: { tags: ['Named in a delivery'] } });
    const [sinceTagged, fromTagged] = [(await asked('/v1/')).at(-1)?.seq ?? 0, lines.length];
    await deliverWarmAndRecord({ pressReleases: [String(named.id)] });
    const tagged = await loaded(fromTagged, sinceTagged);
    expect(tagged.alone).toContain(`press_releases/${named.id}`);
    expect(tagged.alone).toContain('tags');
    expect(stale).toEqual([]);
    await expect(readFile(path.join(site(), 'tags', 'named-in-a-delivery', 'index.html'), 'utf8')).resolves.toContain(named.title);
    expect(await fileDigests(site())).toEqual(await forcedBuild('forced-named'));
    // Its fingerprint holds the full sync's answers, not the single release's: a build after it finds nothing to do.
    const checked = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', site()], { cwd: root, env: env() });
    expect(checked.stdout).toMatch(/^build: nothing changed since /m);
  });

  it('a delivery naming a withdrawn release removes it, as a full build does', async () => {
    const withdrawn = releases[1]!;
    expect(await pageOf(withdrawn.id)).toBeDefined();
    await manage('PUT', `/v1/campaigns/${withdrawn.id}/cancel`);
    await deliverWarmAndRecord({ pressReleases: [String(withdrawn.id)] });
    expect(stale).toEqual([]);
    expect(await pageOf(withdrawn.id)).toBeUndefined();
    const file = path.join(site(), withdrawn.permalink.replace(/^\//, ''), 'index.html');
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
    expect(await fileDigests(site())).toEqual(await forcedBuild('forced-withdrawn'));
  });

  it('when the API changed beyond the named release, that release is live, the fingerprint claims nothing, and one more change follows', async () => {
    const [named, other] = [releases[2]!, releases[7]!];
    await manage('PUT', `/v1/campaigns/${named.id}`, { campaign: { title: `${named.title}, the named one` } });
    await manage('PUT', `/v1/campaigns/${other.id}`, { campaign: { title: `${other.title}, not named` } });
    await deliverWarmAndRecord({ pressReleases: [String(named.id)] });
    expect(await pageOf(named.id)).toContain('the named one');
    // The other one's retitle is not live (a long title keeps its address: the slug is cut).
    expect((await pageOf(other.id)) ?? '').not.toContain('not named');
    await expect.poll(() => stale.length).toBe(1);
    expect(stale[0]).toBe('the API changed beyond the named releases (pressReleases 0 new, 1 changed, 0 removed)');
    // No answer recorded: no check may find this site unchanged, though the route record lets the next change render only the rest.
    const fingerprint = await readFingerprint(site());
    expect('api' in fingerprint && fingerprint.api).toEqual({});
    // The receiver's one more build.
    await deliverWarmAndRecord();
    expect(await pageOf(other.id)).toContain('not named');
    expect(await fileDigests(site())).toEqual(await forcedBuild('forced-stale'));
    stale.length = 0;
  });

  it('a live site edited since it was built is not changed warm: a new child builds it in full and mends it', async () => {
    const robots = path.join(site(), 'robots.txt');
    const built = await readFile(robots, 'utf8');
    await writeFile(robots, `${built}# edited by hand\n`);
    // And a page removed (named after robots.txt, which the check names first): linking the live site's route files
    // while the content loads then fails before the check has said why, and must not end the renderer.
    const removed = (await filesOf(site())).filter((file) => file.endsWith('.html')).at(-1)!;
    expect(byPath(removed, 'robots.txt')).toBeGreaterThan(0);
    const removedPage = await readFile(path.join(site(), removed));
    await rm(path.join(site(), removed));
    await manage('PUT', `/v1/campaigns/${releases[7]!.id}`, { campaign: { title: `${releases[7]!.title}, over an edited site` } });
    const served = await deliver();
    const said = served.said.join('\n');
    // Found while the content loaded (the live site is listed on a thread of its own meanwhile), before anything renders.
    expect(said).toMatch(
      new RegExp(`^build: warm: rendering in full: the site in ${site()} is not as built: robots.txt was modified$`, 'm'),
    );
    expect(served.said.some((l) => WARM_LINE.test(l))).toBe(false);
    expect(served.ok, served.summary).toBe(true);
    expect(await readFile(robots, 'utf8')).toBe(built);
    expect(await readFile(path.join(site(), removed))).toEqual(removedPage);
  });

  it('a site rendered with another configuration is not changed warm: a new child builds it in full', async () => {
    // A warm change first: the child keeps the record it wrote, and must see that the file is no longer that record.
    await manage('PUT', `/v1/campaigns/${releases[6]!.id}`, { campaign: { title: `${releases[6]!.title}, before the record was edited` } });
    await deliverWarmAndRecord();
    const record = JSON.parse(await readFile(routeRecordPath(site()), 'utf8')) as { configuration: Record<string, string | null> };
    record.configuration.PRESSROOM_IMAGE_HOSTS = 'images.other.example';
    await writeFile(routeRecordPath(site()), JSON.stringify(record));
    // The full build that follows is the one the kill above already showed: ended once it starts, to spare the CPU.
    let started = false;
    onLine = (line) => {
      if (!started && line === 'build: rendering in full: the configuration changed since the site was rendered') {
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

describe('an Astro whose internals cannot be kept warm', { timeout: 120_000 }, () => {
  it('says so once after the first build, then runs the build command for each delivery, as without --warm', async () => {
    const out = path.join(tmp, 'plain');
    const said: string[] = [];
    const plain = warmReceiverBuilds(out, env(), (line) => said.push(line), {
      nodeFlags: ['--import', path.join(root, 'test', 'helpers', 'unkept-content-layer.ts')],
    });
    try {
      const first = await plain.run();
      expect(first.ok, said.join('\n')).toBe(true);
      expect(said.join('\n')).toMatch(
        /^build: warm: WARNING: no warm renderer \(Astro's content layer was not kept.*\); each delivery runs the build command$/m,
      );
      const from = said.length;
      // Nothing changed upstream: only the build command has a no-change check (a renderer renders, if nothing).
      const second = await plain.run();
      expect(second.ok, said.join('\n')).toBe(true);
      expect(second.summary).toMatch(/nothing changed/);
      expect(said.slice(from).join('\n')).not.toMatch(/^build: (?:warm|rendering)/m);
    } finally {
      plain.stop();
    }
  });
});
