/**
 * Feed documents in the route record (issue 31): each document of a feed (the subscription
 * document and its RFC 5005 archives, src/lib/feed-archives.ts) notes the releases it holds and no
 * other, so a release edited upstream renders again the documents that hold it and leaves the
 * others as they were. The demo press room's all-releases feed has an archive; the build is the
 * build command's, as in partial-build.test.ts, and the partial build after one edit is the forced
 * full build, byte for byte.
 *
 * Noting every release of the scope in every document made a full L build's record 274 MB and ran
 * its build out of heap, and made any edit render every feed document of the release's scopes.
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
import { fileDigests, inodes, writtenSince } from '../helpers/file-tree.ts';
import { cleanBuildEnv } from '../site/global-setup.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';
import { readRouteRecord, type RouteRecord } from '../../scripts/route-record-file.ts';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const BODY_MARK = 'A sentence only the oldest release gained';
const FORMATS = ['rss.xml', 'atom.xml', 'feed.json'];

let tmp: string;
let api: RunningEmulator;
let record: RouteRecord;
/** The all-releases feed's documents before the edit: the subscription document's items and archive 1's, by page URL. */
let listed: { current: string[]; archive: string[] };
let partial: string;
let written: Set<string>;

async function build(out: string, args: string[] = []): Promise<string> {
  const { stdout } = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out, ...args], {
    cwd: root,
    env: {
      ...cleanBuildEnv(),
      PRESSROOM_API_URL: api.url,
      PRESSROOM_ID: String(api.pressroom.id),
      PRESSROOM_CACHE_DIR: path.join(tmp, 'cache'),
      SOURCE_DATE_EPOCH: String(Date.parse(DEMO_NOW) / 1000),
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The page URLs a JSON Feed document lists, in order. */
async function itemUrls(site: string, file: string): Promise<string[]> {
  const feed = JSON.parse(await readFile(path.join(site, file), 'utf8')) as { items: Array<{ url: string }> };
  return feed.items.map((item) => item.url);
}

/** The release keys (`release:<id>`) a route's record notes. */
const releaseKeys = (route: string): string[] => record.routes[route]!.keys.filter((key) => key.startsWith('release:'));

/** A release's id in the emulator, from its page URL in the site. */
const releaseIdOf = (url: string): number => {
  const permalink = new URL(url).pathname.replace(/\/$/, '');
  const release = api.store().world.pressReleases.find((r) => r.permalink === permalink);
  if (!release) throw new Error(`no release of the emulator has the page ${url}`);
  return release.id;
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'feed-documents-'));
  api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  const site = path.join(tmp, 'site');
  await build(site);
  const read = await readRouteRecord(site);
  if ('missing' in read) throw new Error(read.missing);
  record = read;
  listed = { current: await itemUrls(site, 'feed.json'), archive: await itemUrls(site, 'feeds/archive/1/feed.json') };

  // The oldest release: in archive 1 of the all-releases feed, not in its subscription document.
  const oldest = releaseIdOf(listed.archive.at(-1)!);
  const body = api.store().world.pressReleases.find((r) => r.id === oldest)!.body_html;
  const edited = await fetch(`${api.url}/_emulator/items/press_release/${oldest}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ body_html: `${body}<p>${BODY_MARK}.</p>` }),
  });
  if (edited.status !== 200) throw new Error(`editing release ${oldest}: ${edited.status} ${await edited.text()}`);
  const before = await inodes(site);
  partial = await build(site);
  written = await writtenSince(site, before);
  await build(path.join(tmp, 'forced'), ['--force']);
}, 600_000);

afterAll(async () => {
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('a feed document', () => {
  it('notes the releases it lists and no other, and which releases those are (its lookup entry)', () => {
    expect(listed.current).toHaveLength(50);
    expect(listed.archive.length).toBeGreaterThan(0);
    for (const file of FORMATS) {
      const current = releaseKeys(file);
      const archive = releaseKeys(`feeds/archive/1/${file}`);
      expect(current.sort(), file).toEqual(listed.current.map((url) => `release:${releaseIdOf(url)}`).sort());
      expect(archive.sort(), file).toEqual(listed.archive.map((url) => `release:${releaseIdOf(url)}`).sort());
      expect(record.routes[file]!.keys).toContain('lookup:feedDocument/all%7Ccurrent');
      expect(record.routes[`feeds/archive/1/${file}`]!.keys).toContain('lookup:feedDocument/all%7C1');
    }
    // Every feed document of every scope: no more releases than it lists.
    for (const route of Object.keys(record.routes).filter((r) => r.endsWith('feed.json') && r !== 'feed.json'))
      expect(releaseKeys(route).length, route).toBeLessThanOrEqual(50);
  });

  it('renders again, after an edit to an archived release, the archive that holds it and not the subscription document', async () => {
    expect(partial).toMatch(/^build: partial: \d+ of \d+ routes rendered/m);
    for (const file of FORMATS) {
      expect(written, file).toContain(`feeds/archive/1/${file}`);
      expect(written, file).not.toContain(file);
    }
    expect(await readFile(path.join(tmp, 'site', 'feeds/archive/1/feed.json'), 'utf8')).toContain(BODY_MARK);
  });

  it('leaves the site a forced full build would write, byte for byte', async () => {
    const [assembled, full] = await Promise.all([fileDigests(path.join(tmp, 'site')), fileDigests(path.join(tmp, 'forced'))]);
    expect(assembled).toEqual(full);
  });
});
