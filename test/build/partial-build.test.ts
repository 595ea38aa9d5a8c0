/**
 * The partial build end to end (issue 31, item 2): a small press room built in full, then three
 * batches of changes upstream, each followed by `npm run build` again over the same folder: it
 * renders only the routes the changes touch (the files it did not render are the previous site's,
 * hard-linked: the same inode), and its output is the same, byte for byte, as a full build of the
 * same upstream state into another folder. Every kind of change the issue names is in a batch:
 *
 * 1. (management API) a retitled release, which moves its page; a release given a new tag; a
 *    release withdrawn; a release published; a media kit renamed;
 * 2. a release body edited (console edit), a tag taken off a release, a featured image replaced, a
 *    clipping retitled (console edit): changes no list's order shows, so each renders only what
 *    shows it; its full build is not forced but follows a configuration change, which must render
 *    in full;
 * 3. a release deleted for good (console delete), an embargo lifting (the upstream's clock passes a
 *    release date), an event moved to another place (console edit).
 *
 * Beside it, the warm renderer (`npm run webhooks -- --warm`: webhook-receiver/warm-builder.ts and
 * scripts/warm/) keeps a third folder: after its first full build, it makes each batch live in the
 * process it kept, and its folder too is the full build's, byte for byte.
 *
 * Then the webhook receiver (`scripts/webhooks.ts`, as the service runs it) over the same folder: a
 * delivery for one edited release renders that release's routes and the few that show it; and the
 * receiver with `--warm`, started over that folder: its child's first build is partial, the next
 * delivery is a warm change, and the site is a forced full build's. That a burst of deliveries
 * shares one build: test/webhooks/receiver.test.ts.
 *
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
import { TEST_MEDIA_CACHE, manageEmulator } from '../helpers/emulator.ts';
import { fileDigests, writtenSince, inodes } from '../helpers/file-tree.ts';
import { cleanBuildEnv } from '../site/global-setup.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import { spawnReceiver, subscribeReceiver } from '../helpers/receiver-process.ts';
import { readRouteRecord, type RouteRecord } from '../../scripts/route-record-file.ts';
import { readFingerprint, type Fingerprint } from '../../scripts/fingerprint.ts';
import type { BuildAndDeploy } from '../../webhook-receiver/build-and-deploy.ts';
import { warmReceiverBuilds } from '../helpers/warm-builds.ts';
import type { BuildOutcome } from '../../webhook-receiver/build-queue.ts';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let tmp: string;
let api: RunningEmulator;
let first: { stdout: string };
let partial: { stdout: string };
let forced: { stdout: string };
let record: RouteRecord;
let withdrawnPage: string;
let warm: BuildAndDeploy;
const warmLines: string[] = [];
/** The warm renderer's delivery after each batch. */
const warmChanges: Array<BuildOutcome & { said: string }> = [];

/**
 * The builds' clock, pinned six hours after the emulator's (frozen at DEMO_NOW until batch 3 moves
 * it): a release dated between the two is hidden by the upstream, not by the build, until the
 * upstream's clock passes its date, as an embargo lifts between two builds of a live press room.
 */
const BUILD_CLOCK = Date.parse(DEMO_NOW) + 6 * 3_600_000;
/** A configuration change that is part of the fingerprint but changes no byte of this site: an image host it never uses. */
const UNUSED_IMAGE_HOST = { PRESSROOM_IMAGE_HOSTS: 'images.unused.example' };

const buildEnv = (extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...cleanBuildEnv(),
  PRESSROOM_API_URL: api.url,
  PRESSROOM_ID: String(api.pressroom.id),
  PRESSROOM_CACHE_DIR: path.join(tmp, 'cache'),
  SOURCE_DATE_EPOCH: String(BUILD_CLOCK / 1000),
  ...extraEnv,
});

async function build(out: string, args: string[] = [], extraEnv: Record<string, string> = {}): Promise<{ stdout: string }> {
  const { stdout } = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out, ...args], {
    cwd: root,
    env: buildEnv(extraEnv),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout };
}

const manage = (method: string, route: string, body?: unknown): Promise<void> => manageEmulator(api, method, route, body);

/** The warm renderer's folder: changed by the child it keeps, as `npm run webhooks -- --warm` does (without a deploy command). */
const warmSite = (): string => path.join(tmp, 'warm');

/** One delivery to the warm renderer: what it did, and the lines it printed meanwhile. */
async function deliverWarm(): Promise<BuildOutcome & { said: string }> {
  const from = warmLines.length;
  const outcome = await warm.run();
  return { ...outcome, said: warmLines.slice(from).join('\n') };
}

const WARM_LINE = /^build: warm: (\d+) of (\d+) routes rendered \(/m;

/** The warm renderer made the change in the process it kept: some routes, not all, and no build of its own. */
function expectWarm(change: BuildOutcome & { said: string }): void {
  expect(change.ok, change.said).toBe(true);
  const line = WARM_LINE.exec(change.said);
  expect(line, change.said).not.toBeNull();
  expect(Number(line![1])).toBeGreaterThan(0);
  expect(Number(line![1])).toBeLessThan(Number(line![2]));
  expect(change.said).not.toMatch(/rendering: --force|rendering in full|building in full/);
  // Search bundles whose pages it left alone are taken from the live site (test/site/built/search.test.ts),
  // and of the pages only those it rendered are read again (src/search/searchable-pages.ts).
  const search = /search bundles: [1-9]\d* indexed \(\d+ while rendering\), \d+ kept; (\d+) pages read/.exec(change.said);
  expect(search, change.said).not.toBeNull();
  expect(Number(search![1])).toBeLessThanOrEqual(Number(line![1]));
}

/** What a build writes beside the site: the data report as is, the fingerprint but for its clock time and the files' mtimes. */
async function besideTheSite(dir: string): Promise<{ dataReport: string; fingerprint: unknown }> {
  const {
    builtAt: _,
    output,
    media,
    ...rest
  } = JSON.parse(await readFile(`${dir}.fingerprint.json`, 'utf8')) as Record<string, unknown> & {
    output: Record<string, [string, number, number]>;
    media: Array<{ url: string; as: string }>;
  };
  const hashes = Object.fromEntries(Object.entries(output).map(([file, [sha256]]) => [file, sha256]));
  return {
    dataReport: await readFile(`${dir}.data-report.json`, 'utf8'),
    fingerprint: { ...rest, hashes, media: [...media].sort((a, b) => (`${a.as} ${a.url}` < `${b.as} ${b.url}` ? -1 : 1)) },
  };
}

/** A console edit (emulator/admin/console-edits.ts): what the management API cannot change. */
async function consoleEdit(method: 'PATCH' | 'DELETE', object: string, id: number, fields?: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${api.url}/_emulator/items/${object}/${id}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: fields === undefined ? undefined : JSON.stringify(fields),
  });
  if (response.status !== 200) throw new Error(`${method} ${object} ${id}: ${response.status} ${await response.text()}`);
}

async function listed<T>(what: string): Promise<T[]> {
  const response = await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/${what}?limit=50`);
  return ((await response.json()) as { data: T[] }).data;
}

interface Listed {
  id: number;
  title: string;
  permalink: string;
}

/** A release's or event's page in the site, from its permalink (`/100028-…` → `100028-…/index.html`). */
const pageOf = (item: Pick<Listed, 'permalink'>): string => `${item.permalink.replace(/^\//, '')}/index.html`;

const PARTIAL_LINE = /^build: partial: (\d+) of (\d+) routes rendered \((\d+) changed items(?:: [^)]+)?\)$/m;

/** The partial build said it rendered some but not all routes. */
function expectPartial(stdout: string): void {
  const line = PARTIAL_LINE.exec(stdout);
  expect(line, stdout).not.toBeNull();
  const [, rendered, total] = line!.map(Number);
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(total!);
}

/** The route record beside a site, but for the configuration (batches 2 and 3 build the full site with another one). */
async function routesOf(dir: string): Promise<Omit<RouteRecord, 'configuration'>> {
  const read = await readRouteRecord(dir);
  if ('missing' in read) throw new Error(read.missing);
  const { configuration: _, ...rest } = read;
  return rest;
}

/** Both folders hold the same files, byte for byte, and the same route record beside them. */
async function expectSameSites(partialDir: string, fullDir: string): Promise<void> {
  const [assembled, full] = await Promise.all([fileDigests(partialDir), fileDigests(fullDir)]);
  expect(Object.keys(assembled).length).toBeGreaterThan(200);
  expect(assembled).toEqual(full);
  expect(await routesOf(partialDir)).toEqual(await routesOf(fullDir));
}

const readSite = (file: string): Promise<string> => readFile(path.join(tmp, 'site', file), 'utf8');

/** The releases batches 2 and 3 change, picked before the first build (the embargo is set before it). */
let later: { embargoed: Listed; bodyEdited: Listed; untagged: Listed; reimaged: Listed; deleted: Listed };

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'partial-build-'));
  api = await startEmulator({ scale: 12, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  const releases = await listed<Listed & { tags?: Array<{ name: string }> }>('press_releases');
  const [retitled, retagged, withdrawn, published] = releases;
  // Published only after the first build: a new release for the second.
  await manage('PUT', `/v1/campaigns/${published!.id}/cancel`);
  const world = api.store().world;
  const rest = releases.slice(4);
  const take = (test: (id: number) => boolean): Listed => {
    const found = rest.findIndex((r) => test(r.id));
    if (found < 0) throw new Error('the demo press room at scale 12 has no release left for a batch');
    return rest.splice(found, 1)[0]!;
  };
  const stored = (id: number) => world.pressReleases.find((r) => r.id === id)!;
  // Batch 2's releases are none the coverage page links to, so only its clipping change renders that page.
  const linked = new Set(world.clippings.map((c) => c.press_release_id));
  later = {
    untagged: take((id) => !linked.has(id) && stored(id)._tagIds.length > 0),
    reimaged: take((id) => !linked.has(id) && stored(id)._featuredImageIds.length > 0),
    bodyEdited: take((id) => !linked.has(id)),
    embargoed: take(() => true),
    // Changed by batch 1 (a tag added), deleted by batch 3: the scale-12 press room has only eight public releases.
    deleted: retagged!,
  };
  // Under embargo upstream until the emulator's clock passes it (batch 3), before the build's clock.
  await manage('PUT', `/v1/campaigns/${later.embargoed.id}`, {
    campaign: { release_date: new Date(Date.parse(DEMO_NOW) + 3_600_000).toISOString() },
  });
  first = await build(path.join(tmp, 'site'));
  const read = await readRouteRecord(path.join(tmp, 'site'));
  if ('missing' in read) throw new Error(read.missing);
  record = read;
  warm = warmReceiverBuilds(warmSite(), buildEnv(), (line) => warmLines.push(line));
  // Its first delivery builds in full in the child it then keeps.
  const warmFirst = await deliverWarm();
  if (!warmFirst.ok) throw new Error(`the warm renderer's first build failed: ${warmFirst.said}`);

  await manage('PUT', `/v1/campaigns/${retitled!.id}`, { campaign: { title: `${retitled!.title}, corrected` } });
  await manage('PUT', `/v1/campaigns/${retagged!.id}`, {
    campaign: { tags: [...(retagged!.tags ?? []).map((t) => t.name), 'A topic added after the build'] },
  });
  await manage('PUT', `/v1/campaigns/${withdrawn!.id}/cancel`);
  withdrawnPage = pageOf(withdrawn!);
  await manage('PUT', `/v1/campaigns/${published!.id}`, { campaign: { publish_immediately: true } });
  const [kit] = await listed<{ id: number; title: string }>('media_kits');
  await manage('PUT', `/v1/media_kits/${kit!.id}`, { media_kit: { title: `${kit!.title} (renamed)` } });

  partial = await build(path.join(tmp, 'site'));
  warmChanges.push(await deliverWarm());
  forced = await build(path.join(tmp, 'forced'), ['--force']);
}, 600_000);

afterAll(async () => {
  warm?.stop();
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('a partial build', () => {
  it('renders fewer routes than a full build, and says so in one line', () => {
    expect(first.stdout).toMatch(/^build: rendering in full: no fingerprint beside /m);
    // Five changes at once in a press room of 12 releases: its lists and feeds, not the other pages.
    expectPartial(partial.stdout);
    expect(forced.stdout).toMatch(/^build: rendering: --force was given$/m);
    expect(forced.stdout).not.toMatch(/^build: partial/m);
  });

  it('writes the same bytes, and the same route record, as a forced full build of the same upstream state', async () => {
    await expectSameSites(path.join(tmp, 'site'), path.join(tmp, 'forced'));
    expect(await readRouteRecord(path.join(tmp, 'site'))).toEqual(await readRouteRecord(path.join(tmp, 'forced')));
    // Its fingerprint still lists the originals of the pages it kept (the next no-change check asks them all).
    const mediaOf = async (dir: string) =>
      ((await readFingerprint(dir)) as Fingerprint).media.map((outcome) => `${outcome.as} ${outcome.url}`);
    expect(await mediaOf(path.join(tmp, 'site'))).toEqual(expect.arrayContaining(await mediaOf(path.join(tmp, 'forced'))));
  });

  it('made live by the warm renderer in the process it kept, it is the forced full build too', async () => {
    expectWarm(warmChanges[0]!);
    await expectSameSites(warmSite(), path.join(tmp, 'forced'));
    expect(await readRouteRecord(warmSite())).toEqual(await readRouteRecord(path.join(tmp, 'forced')));
    expect(await besideTheSite(warmSite())).toEqual(await besideTheSite(path.join(tmp, 'forced')));
    const changes = JSON.parse(await readFile(`${warmSite()}.changes.json`, 'utf8')) as { removed: Array<{ path: string }> };
    expect(changes.removed.map((r) => r.path)).toContain(withdrawnPage);
    // Both went from the same site to the same site: the partial build's report (from the tree its check read) is the warm one's.
    expect(JSON.parse(await readFile(path.join(tmp, 'site.changes.json'), 'utf8'))).toEqual(changes);
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

describe('a second batch: a body edited, a tag taken off, an image replaced, a clipping retitled', () => {
  const CLIPPING_TITLE = 'A clipping retitled after the build';
  const BODY_MARK = 'A sentence added to the body after the build';
  let before: Map<string, number>;
  let written: Set<string>;
  let previousRecord: RouteRecord;
  let removedTag: string;
  let clipping: Listed;
  let second: { stdout: string };
  let configured: { stdout: string };

  beforeAll(async () => {
    before = await inodes(path.join(tmp, 'site'));
    const read = await readRouteRecord(path.join(tmp, 'site'));
    if ('missing' in read) throw new Error(read.missing);
    previousRecord = read;
    const world = api.store().world;
    const stored = (id: number) => world.pressReleases.find((r) => r.id === id)!;

    const body = stored(later.bodyEdited.id).body_html;
    await consoleEdit('PATCH', 'press_release', later.bodyEdited.id, { body_html: `${body}<p>${BODY_MARK}.</p>` });
    const tagIds = stored(later.untagged.id)._tagIds;
    const tagName = (id: number) => world.tags.find((t) => t.id === id)!.name;
    removedTag = world.tags.find((t) => t.id === tagIds[0])!.slug;
    await manage('PUT', `/v1/campaigns/${later.untagged.id}`, { campaign: { tags: tagIds.slice(1).map(tagName) } });
    const oldImage = stored(later.reimaged.id)._featuredImageIds[0];
    const [other] = (await listed<{ id: number }>('images')).filter((i) => i.id !== oldImage);
    await manage('PUT', `/v1/campaigns/${later.reimaged.id}`, { campaign: { featured_image_id: other!.id } });
    // The coverage page renders for this change alone: a planner blind to clipping keys fails the byte comparison.
    clipping = (await listed<Listed>('clippings'))[0]!;
    await consoleEdit('PATCH', 'clipping', clipping.id, { title: CLIPPING_TITLE });

    second = await build(path.join(tmp, 'site'));
    written = await writtenSince(path.join(tmp, 'site'), before);
    warmChanges.push(await deliverWarm());
    // Not forced: the configuration changed since the folder was built, which must render in full.
    configured = await build(path.join(tmp, 'forced'), [], UNUSED_IMAGE_HOST);
  }, 600_000);

  it('renders part of the routes, and a configuration change renders in full', () => {
    expectPartial(second.stdout);
    expect(configured.stdout).toMatch(/^build: rendering in full: the configuration changed since the site was rendered$/m);
    expect(configured.stdout).not.toMatch(/^build: partial/m);
  });

  it('writes the same bytes, and the same route record, as a full build of the same upstream state', async () => {
    await expectSameSites(path.join(tmp, 'site'), path.join(tmp, 'forced'));
  });

  it('made live by the warm renderer in the process it kept, it is that full build too', async () => {
    expectWarm(warmChanges[1]!);
    await expectSameSites(warmSite(), path.join(tmp, 'forced'));
  });

  it('rendered the changed pages, with the change in them, and kept pages the batch does not touch', async () => {
    expect(await readSite(pageOf(later.bodyEdited))).toContain(BODY_MARK);
    expect(written).toContain(pageOf(later.bodyEdited));
    expect(written).toContain(`${later.bodyEdited.permalink.slice(1)}/index.md`);

    expect(written).toContain(pageOf(later.untagged));
    expect(await readSite(pageOf(later.untagged))).not.toContain(`/tags/${removedTag}/`);

    const now = await readRouteRecord(path.join(tmp, 'site'));
    if ('missing' in now) throw new Error(now.missing);
    const page = pageOf(later.reimaged);
    const newMedia = now.routes[page]!.files.filter((f) => !previousRecord.routes[page]!.files.includes(f));
    expect(newMedia.length).toBeGreaterThan(0);
    expect(written).toContain(page);
    const html = await readSite(page);
    expect(newMedia.filter((file) => html.includes(file) || html.includes(encodeURI(file))).length, newMedia.join(' ')).toBeGreaterThan(0);

    expect(written).toContain('coverage/index.html');
    expect(await readSite('coverage/index.html')).toContain(CLIPPING_TITLE);
    expect(written).toContain(pageOf(clipping));
    expect(await readSite(pageOf(clipping))).toContain(CLIPPING_TITLE);
    const otherClippings = Object.keys(now.routes).filter((r) => r.startsWith('clippings/') && r !== pageOf(clipping));
    expect(otherClippings.length).toBeGreaterThan(0);
    for (const route of otherClippings) expect(written, route).not.toContain(route);

    // Pages no change of the batch reaches are the previous site's files.
    const untouched = Object.keys(now.routes).filter((r) => r.startsWith('events/') && r.endsWith('.ics'));
    expect(untouched.length).toBeGreaterThan(0);
    for (const route of untouched) expect(written, route).not.toContain(route);
  });
});

describe('a third batch: a release deleted for good, an embargo lifting, an event moved', () => {
  const LOCATION = 'A hall named after the build';
  let before: Map<string, number>;
  let written: Set<string>;
  let event: Listed;
  let third: { stdout: string };
  let forcedAgain: { stdout: string };

  beforeAll(async () => {
    before = await inodes(path.join(tmp, 'site'));
    await consoleEdit('DELETE', 'press_release', later.deleted.id);
    event = (await listed<Listed>('events'))[0]!;
    await consoleEdit('PATCH', 'event', event.id, { location: LOCATION });
    // The upstream's clock passes the embargoed release's date: the API lists it from now on.
    const clock = await fetch(`${api.url}/_emulator/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: '2h' }),
    });
    if (clock.status !== 200) throw new Error(`clock: ${clock.status}`);
    third = await build(path.join(tmp, 'site'));
    written = await writtenSince(path.join(tmp, 'site'), before);
    warmChanges.push(await deliverWarm());
    forcedAgain = await build(path.join(tmp, 'forced'), ['--force'], UNUSED_IMAGE_HOST);
  }, 600_000);

  it('renders part of the routes', () => {
    expectPartial(third.stdout);
    expect(forcedAgain.stdout).toMatch(/^build: rendering: --force was given$/m);
  });

  it('writes the same bytes, and the same route record, as a forced full build of the same upstream state', async () => {
    await expectSameSites(path.join(tmp, 'site'), path.join(tmp, 'forced'));
  });

  it('made live by the warm renderer in the process it kept, it is the forced full build too', async () => {
    expectWarm(warmChanges[2]!);
    await expectSameSites(warmSite(), path.join(tmp, 'forced'));
  });

  it('removed the deleted release everywhere, published the lifted one, and rendered the event page and its calendar file with the new place', async () => {
    const now = await readRouteRecord(path.join(tmp, 'site'));
    if ('missing' in now) throw new Error(now.missing);
    expect(now.routes[pageOf(later.deleted)]).toBeUndefined();
    expect(before.has(pageOf(later.deleted))).toBe(true);
    expect((await inodes(path.join(tmp, 'site'))).has(pageOf(later.deleted))).toBe(false);
    const gone = `${later.deleted.permalink}/`;
    for (const file of Object.keys(await fileDigests(path.join(tmp, 'site'))).filter((f) => /\.(?:html|xml|json|txt|md|ics)$/.test(f)))
      expect(await readSite(file), file).not.toContain(gone);

    for (const file of [pageOf(event), `${event.permalink.slice(1)}.ics`]) {
      expect(written, file).toContain(file);
      expect(await readSite(file), file).toContain(LOCATION);
    }

    const lifted = pageOf(later.embargoed);
    expect(before.has(lifted)).toBe(false);
    expect(now.routes[lifted]).toBeDefined();
    expect(written).toContain(lifted);
    expect(await readSite('index.html')).toContain(later.embargoed.permalink);
  });
});

describe('the webhook receiver, when one release is edited upstream', () => {
  const SECRET = `whsec_${Buffer.from('pressroom-static partial build receiver').toString('base64')}`;
  const BODY_MARK = 'A sentence a webhook delivery brought in';
  let before: Map<string, number>;
  let written: Set<string>;
  let output = '';

  beforeAll(async () => {
    before = await inodes(path.join(tmp, 'site'));
    const receiver = spawnReceiver(process.execPath, path.join(tmp, 'site'), buildEnv({ PRESSROOM_WEBHOOK_SECRET: SECRET }));
    try {
      await subscribeReceiver(receiver, api.url, SECRET);
      const body = api.store().world.pressReleases.find((r) => r.id === later.reimaged.id)!.body_html;
      await consoleEdit('PATCH', 'press_release', later.reimaged.id, { body_html: `${body}<p>${BODY_MARK}.</p>` });
      await receiver.waitFor(/^webhooks: (?:done|FAILED): .*$/m, 300_000);
    } finally {
      output = receiver.output();
      receiver.process.kill('SIGTERM');
      if (receiver.process.exitCode === null) await new Promise((resolve) => receiver.process.once('exit', resolve));
    }
    written = await writtenSince(path.join(tmp, 'site'), before);
  }, 600_000);

  it('renders, for a verified delivery, the routes that show that release and no other', async () => {
    expect(output).toMatch(/press_release\.updated \S+ → build scheduled/);
    expect(output).toMatch(/^webhooks: done: built .*\(1 delivery\)$/m);
    const key = `release:${later.reimaged.id}`;
    const line = new RegExp(`^build: partial: (\\d+) of (\\d+) routes rendered \\(1 changed items: ${key}\\)$`, 'm').exec(output);
    expect(line, output).not.toBeNull();
    const [, rendered, total] = line!.map(Number);
    expect(rendered).toBeLessThan(total!);
    expect(await readSite(pageOf(later.reimaged))).toContain(BODY_MARK);

    // Exactly the routes that read the release (its page and twin, lists, feeds, related releases), the rest kept as they were.
    const record = await routesOf(path.join(tmp, 'site'));
    const showing = Object.keys(record.routes).filter((route) => record.routes[route]!.keys.includes(key));
    expect(showing).toContain(pageOf(later.reimaged));
    expect(showing).toHaveLength(rendered!);
    expect(Object.keys(record.routes).filter((route) => written.has(route))).toEqual(showing);
  });
});

describe('the webhook receiver with --warm, started over the site', () => {
  const SECRET = `whsec_${Buffer.from('pressroom-static warm receiver').toString('base64')}`;
  const MARKS = ['A sentence the warm child’s first build brought in', 'A sentence a warm change brought in'];
  const DONE = /^webhooks: (?:done|FAILED): .*$/gm;
  let output = '';
  let forcedAfter: { stdout: string };

  beforeAll(async () => {
    const receiver = spawnReceiver(process.execPath, path.join(tmp, 'site'), buildEnv({ PRESSROOM_WEBHOOK_SECRET: SECRET }), ['--warm']);
    const delivered = async (count: number): Promise<void> => {
      const deadline = Date.now() + 300_000;
      while ((receiver.output().match(DONE) ?? []).length < count) {
        if (Date.now() > deadline || receiver.process.exitCode !== null)
          throw new Error(`no delivery ${count} done:\n${receiver.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      await subscribeReceiver(receiver, api.url, SECRET);
      for (const [i, release] of [later.bodyEdited, later.untagged].entries()) {
        const body = api.store().world.pressReleases.find((r) => r.id === release.id)!.body_html;
        await consoleEdit('PATCH', 'press_release', release.id, { body_html: `${body}<p>${MARKS[i]}.</p>` });
        await delivered(i + 1);
      }
    } finally {
      output = receiver.output();
      receiver.process.kill('SIGTERM');
      if (receiver.process.exitCode === null) await new Promise((resolve) => receiver.process.once('exit', resolve));
    }
    forcedAfter = await build(path.join(tmp, 'forced-after-warm'), ['--force']);
  }, 600_000);

  it('builds first in its child as the build command decides (partial), then makes the next delivery live warm: the full build, byte for byte', async () => {
    expect(output).toMatch(/builds go to .* through a warm renderer/);
    expect(output.match(DONE), output).toEqual([expect.stringMatching(/^webhooks: done: /), expect.stringMatching(/^webhooks: done: /)]);
    expect(output).toMatch(
      new RegExp(`^build: partial: [1-9]\\d* of \\d+ routes rendered \\(1 changed items: release:${later.bodyEdited.id}\\)$`, 'm'),
    );
    expect(output).toMatch(/^build: warm: [1-9]\d* of \d+ routes rendered \(1 changed items\)/m);
    // The bundle of the edited page was indexed while the other routes rendered (scripts/warm/search-ahead.ts).
    expect(output).toMatch(/^build: warm: .*; search bundles: 1 indexed \(1 while rendering\), \d+ kept;/m);
    expect(output).not.toMatch(/rendering in full|--force/);
    expect(await readSite(pageOf(later.bodyEdited))).toContain(MARKS[0]);
    expect(await readSite(pageOf(later.untagged))).toContain(MARKS[1]);
    expect(forcedAfter.stdout).toMatch(/^build: rendering: --force was given$/m);
    await expectSameSites(path.join(tmp, 'site'), path.join(tmp, 'forced-after-warm'));
  });
});
