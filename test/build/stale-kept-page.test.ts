/**
 * The partial build's last guard: a page kept from the previous site (linked, not rendered) that
 * still names a route the build removed (a withdrawn or deleted release) means the route record
 * missed something that page shows, and the build fails closed instead of publishing it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaleKeptPage, partialBuild, staleKeptRoute } from '../../scripts/partial-build.ts';
import { writeFiles } from '../helpers/file-tree.ts';
import { filesOf } from '../../src/lib/site-files.ts';
import { ROUTE_RECORD_FORMAT, type RouteRecord } from '../../scripts/route-record-file.ts';

const SITE = { origin: 'https://press.example.com', base: '/' };
let tmp: string;

const site = (name: string, files: Record<string, string>): Promise<string> => writeFiles(path.join(tmp, name), files);

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pressroom-stale-kept-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a kept page naming a removed route', () => {
  it('is found in a link, in an absolute URL of a feed and percent-encoded', async () => {
    const dir = await site('found', {
      'index.html': '<a href="/100-gone/">Gone</a>',
      'rss.xml': '<link>https://press.example.com/101-also-gone/</link>',
      'tags/x/index.html': '<a href="/102-caf%C3%A9/">Café</a>',
    });
    expect(await staleKeptRoute(dir, ['index.html'], ['100-gone/index.html'], SITE)).toBe('index.html names /100-gone/');
    expect(await staleKeptRoute(dir, ['rss.xml'], ['101-also-gone/index.html'], SITE)).toBe('rss.xml names /101-also-gone/');
    expect(await staleKeptRoute(dir, ['tags/x/index.html'], ['102-café/index.html'], SITE)).toBe('tags/x/index.html names /102-caf%C3%A9/');
  });

  it('is found in a file larger than any read before it, at its very end', async () => {
    const filler = '<p>Words of an archive page.</p>\n'.repeat(100_000);
    const dir = await site('large', {
      'a.html': '<a href="/100-kept/">Kept</a>',
      'feeds/archive/1.xml': `${filler}<link>https://press.example.com/100-gone/</link>`,
      'feeds/archive/2.xml': filler,
    });
    expect(
      await staleKeptRoute(dir, ['a.html', 'feeds/archive/2.xml'], ['100-gone/index.html', '100-gone/index.md'], SITE),
    ).toBeUndefined();
    expect(
      await staleKeptRoute(
        dir,
        ['a.html', 'feeds/archive/2.xml', 'feeds/archive/1.xml'],
        ['100-gone/index.md', '100-gone/index.html'],
        SITE,
      ),
    ).toBe('feeds/archive/1.xml names /100-gone/');
  });

  it('is not confused with a longer address that ends the same way, and honours the base path', async () => {
    const dir = await site('longer', {
      'de/index.html': '<a href="/de/releases/5/">5</a> <a href="/press/releases/50/">50</a>',
      'press.html': '<a href="/press/releases/5/">5</a>',
    });
    expect(await staleKeptRoute(dir, ['de/index.html'], ['releases/5/index.html'], SITE)).toBeUndefined();
    expect(await staleKeptRoute(dir, ['de/index.html'], ['releases/5/index.html'], { ...SITE, base: '/press' })).toBeUndefined();
    expect(await staleKeptRoute(dir, ['press.html'], ['releases/5/index.html'], { ...SITE, base: '/press' })).toBe(
      'press.html names /press/releases/5/',
    );
  });

  it('fails the partial build once the site is assembled', async () => {
    const previousDir = await site('previous', {
      'index.html': '<a href="/100-gone/">Gone</a>',
      '100-gone/index.html': '<h1>Gone</h1>',
    });
    const previous: RouteRecord = {
      format: ROUTE_RECORD_FORMAT,
      code: 'c',
      configuration: {},
      buildDay: null,
      // The home page's record misses the release it links: the bug this guard is for.
      routes: { 'index.html': { keys: ['frame'], files: [] }, '100-gone/index.html': { keys: ['release:100'], files: [] } },
      digests: { frame: 'f1', 'release:100': 'r1' },
    };
    const partial = partialBuild({
      previous,
      previousDir,
      previousFiles: await filesOf(previousDir),
      code: 'c',
      configuration: {},
      site: SITE,
      log: () => {},
    });
    const selected = partial.select({
      routes: ['index.html'],
      digest: (key) => previous.digests[key],
      buildDay: { day: '2026-11-28', timeZone: 'UTC' },
    });
    expect(selected && [...selected]).toEqual([]);
    const outDir = await site('staging', {});
    await partial.generated(outDir);
    await expect(partial.finish(outDir)).rejects.toThrow(StaleKeptPage);
    await expect(partial.finish(outDir)).rejects.toThrow('index.html names /100-gone/');
  });
});
