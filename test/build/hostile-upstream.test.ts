/**
 * One press room built twice through a proxy in front of the emulator: as the emulator sends it,
 * then with a set of hostile items among the good ones (each a value that once stopped or
 * multiplied a build: a claimed path, a name no storage can hold as a folder, case twins, a
 * 10 MB title, a 20 MB body, a body nested 100,000 elements deep, a category tree nested 100,000
 * levels deep, tags with one slug, ids past 2^53, 120 tags on one release). The second build exits
 * 0, names each hostile item in a warning, publishes every good item's own files byte for byte as
 * the first build did, drops no file of it, and stays within the bounds of requests and memory.
 * All cases in one build: if the good items are untouched with every case present, they are with
 * each alone, and one build costs a seventh of fourteen.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchTreeMemory, type TreeMemory } from '../../bench/tree-memory.ts';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { fileDigests } from '../helpers/file-tree.ts';
import { RawJson, startUpstreamProxy, type UpstreamProxy } from '../helpers/upstream-proxy.ts';
import { cleanBuildEnv } from '../site/global-setup.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import { DEFAULT_CONCURRENCY } from '@pressroom-static/content-loaders';
import { readRouteRecord, type RouteRecord } from '../../scripts/route-record-file.ts';
import { planRoutes } from '../../scripts/route-plan.ts';

const root = path.resolve(import.meta.dirname, '../..');

interface Build {
  code: number | null;
  log: string;
  files: Record<string, string>;
  memory: TreeMemory;
  requests: string[];
}

/** Ids of the hostile items, far from the emulator's. */
const ID = {
  claimsRelease: 990_001,
  claimsPage: 990_002,
  invalidReferenceNoTitle: 990_003,
  longSegment: 990_004,
  notFoundPage: 990_005,
  underRelease: 990_006,
  upperCase: 990_007,
  lowerCase: 990_008,
  languageIndex: 990_009,
  deviceName: 990_010,
  deviceFile: 990_011,
  trailingDot: 990_012,
  deepBody: 990_013,
  hugeTitle: 990_014,
  hugeBody: 990_015,
  manyTags: 990_016,
  tagAlpha: 990_501,
  tagAlphaTwin: 990_502,
  tagAlphaUpper: 990_503,
  tagIndexFile: 990_504,
  firstFloodTag: 991_000,
} as const;
const PAST_2_53 = ['9007199254740993', '9007199254740995'];
const FLOOD_TAGS = 120;
const DEEP = 100_000;

/** A release like `template`, hostile where `fields` say, dated before every good one so no newest-items list takes it. */
function hostileRelease(template: Record<string, unknown>, id: number | string, index: number, fields: Record<string, unknown>) {
  return {
    ...template,
    id,
    title: `Hostile release ${index}`,
    subtitle: null,
    summary: null,
    social_media_pitch: null,
    body_html: `<p>Hostile release ${index} body.</p>`,
    content_as_json: null,
    permalink: `/${id}-hostile-release-${index}`,
    full_url: null,
    short_link: null,
    release_date: `2001-01-${String(index + 1).padStart(2, '0')}T09:00:00.000Z`,
    tags: [],
    featured_images: [],
    clippings: [],
    ...fields,
  };
}

function tag(template: Record<string, unknown>, id: number, slug: string, name: string) {
  return { ...template, id, slug, name, description: null, image: null, hero_image: null };
}

function hostileReleases(good: Array<Record<string, unknown>>, tags: Array<Record<string, unknown>>) {
  const template = good[0]!;
  const goodPath = String(good[1]!.permalink);
  const releases: Array<[number | string, Record<string, unknown>]> = [
    [ID.claimsRelease, { permalink: String(template.permalink) }],
    [ID.claimsPage, { permalink: '/pages/about-us' }],
    [ID.invalidReferenceNoTitle, { title: '', body_html: '<p>&#x110000; opens the body of a release without a title.</p>' }],
    [ID.longSegment, { permalink: `/${'long-'.repeat(60)}` }],
    [ID.notFoundPage, { permalink: '/404.html' }],
    [ID.underRelease, { permalink: `${goodPath}/index.html` }],
    [ID.upperCase, { permalink: '/X-Case' }],
    [ID.lowerCase, { permalink: '/x-case' }],
    [ID.languageIndex, { permalink: '/EN' }],
    [ID.deviceName, { permalink: '/aux' }],
    [ID.deviceFile, { permalink: '/nul.txt' }],
    [ID.trailingDot, { permalink: '/trailing.' }],
    [ID.deepBody, { body_html: `${'<div>'.repeat(DEEP)}deep text${'</div>'.repeat(DEEP)}` }],
    [ID.hugeTitle, { title: 'Huge title '.repeat(1_000_000) }],
    [ID.hugeBody, { body_html: `<p>${'A twenty megabyte body. '.repeat(850_000)}</p>` }],
    [ID.manyTags, { tags }],
    [PAST_2_53[0]!, {}],
    [PAST_2_53[1]!, {}],
  ];
  return releases.map(([id, fields], index) => hostileRelease(template, id, index, fields));
}

/** The tree answer with one more root: a chain of categories nested `DEEP` levels, as JSON text. */
function deepTree(tree: unknown[]): RawJson {
  const open = Array.from(
    { length: DEEP },
    (_, level) => `{"id":${995_000 + level},"name":"Level ${level}","parent_id":null,"children":[`,
  ).join('');
  return new RawJson(`[${tree.map((node) => JSON.stringify(node)).join(',')},${open}${']}'.repeat(DEEP)}]`);
}

let tmp: string;
let api: RunningEmulator;
let proxy: UpstreamProxy;
let clean: Build;
let hostile: Build;
let floodTags: Array<Record<string, unknown>>;

async function build(out: string): Promise<Build> {
  const env = {
    ...cleanBuildEnv(),
    PRESSROOM_API_URL: proxy.url,
    PRESSROOM_ID: String(api.pressroom.id),
    PRESSROOM_CACHE_DIR: path.join(tmp, 'cache'),
    SOURCE_DATE_EPOCH: String(Math.floor(Date.parse(DEMO_NOW) / 1000)),
  };
  const child = spawn(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const memory = watchTreeMemory(child.pid!);
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  return {
    code,
    log: output.join(''),
    memory: await memory.stop(),
    requests: proxy.takeRequests(),
    files: await fileDigests(out).catch(() => ({})),
  };
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'hostile-upstream-'));
  api = await startEmulator({ scale: 12, images: 12, kits: 4, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  proxy = await startUpstreamProxy({ url: api.url, pressroomId: api.pressroom.id });
  clean = await build(path.join(tmp, 'clean'));
  if (clean.code !== 0) throw new Error(`the clean press room did not build (exit ${clean.code}):\n${clean.log.slice(-4000)}`);

  proxy.set((at, data, page) => {
    if (at === 'press_releases' && page <= 1) {
      const tags = (data as Array<{ tags?: Array<Record<string, unknown>> }>).flatMap((r) => r.tags ?? []);
      floodTags = Array.from({ length: FLOOD_TAGS }, (_, i) => tag(tags[0]!, ID.firstFloodTag + i, `flood-${i}`, `Flood ${i}`));
      return [...data, ...hostileReleases(data, floodTags)];
    }
    if (at === 'tags' && page <= 1) {
      const template = data[0];
      return [
        ...data,
        tag(template, ID.tagAlpha, 'alpha', 'Alpha'),
        tag(template, ID.tagAlphaTwin, 'alpha', 'Alpha again'),
        tag(template, ID.tagAlphaUpper, 'Alpha', 'Alpha in capitals'),
        tag(template, ID.tagIndexFile, 'index.html', 'Index'),
        ...floodTags.map((t) => ({ ...t })),
      ];
    }
    if (at === 'media_kit_categories/tree') return deepTree(data);
    return data;
  });
  hostile = await build(path.join(tmp, 'hostile'));
}, 900_000);

afterAll(async () => {
  await proxy?.close();
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/**
 * Files that list items, and so list the hostile ones too: the top-level pages, feeds, sitemaps and
 * llms files, listings, language indexes, the search index, and the kit pages, whose category
 * breadcrumbs come from the one category tree (a tree that cannot be read places every category at
 * the top level). Every other file is one good item's own: release pages and twins, events,
 * clippings, contacts, custom pages, media pages, calendars, cards, assets.
 */
const listsItems = (file: string) =>
  /^(?:[^/]+\.(?:html|xml|json|txt)$|(?:tags|archive|releases|search|feeds|pagefind|media-kits|en|nl|de)\/)/.test(file);

describe('a press room with hostile items among the good ones', () => {
  it('builds, exit 0, and names every hostile item in one warning of its own', () => {
    expect(hostile.code, hostile.log.slice(-3000)).toBe(0);
    // Of the case twins, the one whose path is its own by the ordering rule is published without a warning.
    const warned = [...Object.values(ID).filter((id) => id < ID.tagAlpha && id !== ID.lowerCase), ...PAST_2_53];
    for (const id of warned) expect(hostile.log, `release ${id}`).toContain(`pressReleases: item ${id} from `);
    for (const id of [ID.tagAlphaTwin, ID.tagAlphaUpper, ID.tagIndexFile])
      expect(hostile.log, `tag ${id}`).toContain(`tags: item ${id} from `);
    expect(hostile.log).toMatch(/mediaKitCategories: .*nested more than \d+ levels/);
    // Skipped: the two ids past 2^53, and the second tag under one slug (tags are keyed by slug).
    expect(hostile.log).toMatch(/data policy: \d+ fields? dropped, 3 items skipped, \d+ fields? replaced/);
  });

  it('publishes every file of the clean build, and every good item’s own files byte for byte', () => {
    // Pagefind names its files by their content.
    const missing = Object.keys(clean.files).filter((f) => !(f in hostile.files) && !f.startsWith('pagefind/'));
    expect(missing).toEqual([]);
    const own = Object.keys(clean.files).filter((f) => !listsItems(f));
    expect(own.length).toBeGreaterThan(60);
    expect(own.filter((f) => hostile.files[f] !== clean.files[f])).toEqual([]);
  });

  it('gives each claimed path to its owner and the claimant its safe /<id>/ path', () => {
    for (const id of [
      ID.claimsRelease,
      ID.claimsPage,
      ID.longSegment,
      ID.notFoundPage,
      ID.underRelease,
      ID.languageIndex,
      ID.deviceName,
      ID.deviceFile,
      ID.trailingDot,
    ])
      expect(hostile.files, `release ${id}`).toHaveProperty(`${id}/index.html`);
    // Of two case twins, one keeps the path and one moves: neither is dropped.
    const twins = [ID.upperCase, ID.lowerCase].filter((id) => `${id}/index.html` in hostile.files);
    expect(twins).toHaveLength(1);
    expect(Object.keys(hostile.files).filter((f) => /^x-case\/index\.html$/i.test(f))).toHaveLength(1);
    expect(hostile.files).toHaveProperty('tags/alpha/index.html');
    expect(Object.keys(hostile.files).some((f) => f.includes(`tag-${ID.tagAlphaTwin}`))).toBe(false);
    expect(hostile.files).toHaveProperty(`tags/tag-${ID.tagAlphaUpper}/index.html`);
    expect(hostile.files).toHaveProperty(`tags/tag-${ID.tagIndexFile}/index.html`);
  });

  it('writes no two paths that case-insensitive storage would take for one, and no name it cannot hold', () => {
    const folded = new Map<string, string>();
    for (const file of Object.keys(hostile.files)) {
      const key = file.normalize('NFC').toLowerCase();
      expect(folded.get(key), file).toBeUndefined();
      folded.set(key, file);
      for (const segment of file.split('/')) {
        expect(Buffer.byteLength(segment), file).toBeLessThanOrEqual(255);
        expect(segment, file).not.toMatch(/^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i);
        expect(segment, file).not.toMatch(/[. ]$/);
      }
    }
  });

  it('bounds what one item brings in: title, body, nesting and tags', async () => {
    // Each of these keeps the permalink it was given, `/<id>-hostile-release-<n>`.
    const pageOf = (id: number) =>
      path.join(
        tmp,
        'hostile',
        Object.keys(hostile.files).find((f) => f.startsWith(`${id}-`) && f.endsWith('index.html'))!,
      );
    expect((await stat(pageOf(ID.hugeTitle))).size).toBeLessThan(64 * 1024);
    expect((await stat(pageOf(ID.hugeBody))).size).toBeLessThan(1_200_000);
    expect((await stat(path.join(tmp, 'hostile', 'rss.xml'))).size).toBeLessThanOrEqual(512 * 1024);
    expect(await readFile(pageOf(ID.deepBody), 'utf8')).toContain('deep text');
    const manyTags = await readFile(pageOf(ID.manyTags), 'utf8');
    expect(manyTags).toContain('/tags/flood-99/');
    expect(manyTags).not.toContain('/tags/flood-100/');
  });

  it('asks the API for one count per tag it publishes, and for nothing else more than a longer tag list', () => {
    const isCount = (r: string) => r === 'tagged/press_releases/count';
    const publishedTags = Object.keys(hostile.files).filter((f) => /^tags\/[^/]+\/index\.html$/.test(f)).length;
    expect(hostile.requests.filter(isCount).length).toBeLessThanOrEqual(publishedTags);
    const others = (requests: string[]) => requests.filter((r) => !isCount(r) && r !== 'tags').length;
    expect(others(hostile.requests)).toBeLessThanOrEqual(others(clean.requests));
    // 124 more tags: one more page of 100, and the pages asked for ahead into free request slots
    // (at most concurrency − 1 past the list's end; how many depends on what else is in flight).
    const tagPages = (requests: string[]) => requests.filter((r) => r === 'tags').length;
    expect(tagPages(hostile.requests)).toBeLessThanOrEqual(tagPages(clean.requests) + DEFAULT_CONCURRENCY);
  });

  it('holds its memory: the hostile build’s process tree peaks within 512 MiB of the clean build’s', () => {
    expect(clean.memory.peakMiB).not.toBeNull();
    expect(hostile.memory.peakMiB! - clean.memory.peakMiB!).toBeLessThan(512);
  });
});

describe('the route record of each build (what every route read and asked for, beside the site)', () => {
  let record: RouteRecord;
  beforeAll(async () => {
    const read = await readRouteRecord(path.join(tmp, 'clean'));
    if ('missing' in read) throw new Error(read.missing);
    record = read;
  });

  it('names every page it recorded as a file of the site, and every release page its own release', () => {
    const routes = Object.keys(record.routes);
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((file) => !(file in clean.files))).toEqual([]);
    const releasePages = routes.filter((file) => /^\d+-[^/]+\/index\.html$/.test(file));
    expect(releasePages.length).toBeGreaterThan(5);
    for (const file of releasePages) expect(record.routes[file]!.keys, file).toContain(`release:${file.split('-')[0]}`);
    // Feeds are made once and shared by their three formats: each format depends on the releases all the same.
    for (const feed of ['rss.xml', 'atom.xml', 'feed.json'])
      expect(record.routes[feed]!.keys.filter((k) => k.startsWith('release:')).length).toBeGreaterThan(5);
  });

  it('records what a release depends on narrowly: its inline images by URL, not the library; no twin or tag feed on every release', () => {
    const routes = Object.keys(record.routes);
    const keysOf = (file: string) => record.routes[file]!.keys;
    const releaseRoutes = routes.filter((file) => /^\d+-[^/]+\/index\.(?:html|md)$/.test(file));
    expect(releaseRoutes.filter((file) => file.endsWith('.md')).length).toBeGreaterThan(5);
    expect(releaseRoutes.filter((file) => keysOf(file).includes('list:images'))).toEqual([]);
    expect(releaseRoutes.some((file) => keysOf(file).some((key) => key.startsWith('lookup:libraryImageByUrl/')))).toBe(true);
    const tagFeeds = routes.filter((file) => file.startsWith('feeds/tags/'));
    expect(tagFeeds.length).toBeGreaterThan(0);
    expect(
      [...releaseRoutes, ...tagFeeds]
        .filter((file) => file.endsWith('.md') || file.startsWith('feeds/'))
        .filter((file) => keysOf(file).includes('list:releases')),
    ).toEqual([]);
  });

  // With pictures (this press room's come from a host the policy refuses): test/build/partial-build.test.ts.
  it('records every _media/ file a page prints as that page’s: the context survives components, slots and awaits', async () => {
    const pages = Object.keys(record.routes).filter((file) => file.endsWith('.html'));
    for (const file of pages) {
      const html = await readFile(path.join(tmp, 'clean', file), 'utf8');
      const printed = new Set([...html.matchAll(/\/(_media\/[^\s"'?#,)]+)/g)].map((m) => decodeURI(m[1]!)));
      const recorded = new Set(record.routes[file]!.files);
      expect(
        [...printed].filter((f) => !recorded.has(f)),
        file,
      ).toEqual([]);
    }
  });

  it('plans, for the hostile items added, every route whose bytes changed, and leaves the good items’ pages alone', async () => {
    const next = await readRouteRecord(path.join(tmp, 'hostile'));
    if ('missing' in next) throw new Error(next.missing);
    const plan = planRoutes({
      previous: record,
      code: next.code,
      configuration: next.configuration,
      buildDay: next.buildDay,
      routes: Object.keys(next.routes),
      // A key the hostile build's routes did not read (or could not digest) counts as changed: the plan may only grow.
      digest: (key) => next.digests[key] || 'not read',
    });
    if ('full' in plan) throw new Error(plan.full);
    const planned = new Set([...plan.render, ...plan.remove]);
    const changed = Object.keys(record.routes).filter((file) => hostile.files[file] !== clean.files[file]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((file) => !planned.has(file))).toEqual([]);
    // The hostile items are dated before every good one and share no tag with them: the good
    // releases' pages are not rendered again (their lists, feeds and twins may be).
    const releasePages = Object.keys(record.routes).filter((file) => /^\d+-[^/]+\/index\.html$/.test(file));
    expect(releasePages.length).toBeGreaterThan(5);
    expect(plan.render.filter((file) => releasePages.includes(file))).toEqual([]);
  });
});
