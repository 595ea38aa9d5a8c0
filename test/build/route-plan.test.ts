/**
 * What each route is made of, and the planner of the partial build (issue 31, item 1), without
 * rendering: a small press room indexed by the site's own index code (site-indexes.ts) and read
 * through the recording view (recorded-site.ts) by "routes" that read it as the pages do, with the
 * site's own helpers (related releases, the navigation, feed-like newest lists, inline images looked
 * up in the media library as release bodies do). Each kind of
 * change is applied to the data and the plan must render every route whose reads changed, and no
 * other. The same over a real build: test/build/hostile-upstream.test.ts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingSite } from '../../src/lib/recorded-site.ts';
import { mediaByRenditionUrl, type MediaInput } from '@pressroom-static/image-pipeline';
import { noteInlineImages } from '../../src/lib/inline-images.ts';
import { recordRoute, shareWork, awaitShared, withoutRecording, type RouteUse } from '../../src/lib/route-record.ts';
import { indexClippings, indexReleases } from '../../src/lib/site-indexes.ts';
import { relatedReleases } from '../../src/lib/related-releases.ts';
import { siteNav } from '../../src/lib/site-nav.ts';
import { languageLinks } from '../../src/lib/language-links.ts';
import { monthReleaseCount } from '../../src/lib/archive-counts.ts';
import type { Clipping, Release } from '../../src/lib/data-types.ts';
import { createPathClaims, placeTags } from '../../src/lib/site-paths.ts';
import type { CollectionEntry } from 'astro:content';
import type { SiteData } from '../../src/lib/data.ts';
import { planLine, planRoutes, type RoutePlan } from '../../scripts/route-plan.ts';
import {
  ROUTE_RECORD_FORMAT,
  NO_DIGEST,
  readRouteRecord,
  routeRecordOf,
  routeRecordPath,
  writeRouteRecord,
  type RouteRecord,
} from '../../scripts/route-record-file.ts';

const ZONE = 'Europe/Amsterdam';

/** Items with the fields the routes here read (the rest of a real item changes nothing here). */
type Fields = { id: number; [field: string]: unknown };
interface Data {
  releases: Array<Fields & { release_date: string; tag_ids: number[] }>;
  tags: Fields[];
  clippings: Fields[];
  images: Fields[];
}

const release = (id: number, day: number, tag_ids: number[]) => ({
  id,
  title: `Release ${id}`,
  href: `/${id}-release/`,
  language: 'en',
  release_date: `2026-03-${String(day).padStart(2, '0')}T09:00:00.000Z`,
  tag_ids,
  clipping_ids: [],
  featured_images: [{ sizes: { large: `https://cdn.example/${id}.jpg` } }],
});

/** A release of "Products" older than the others. */
const OLD_UNDER_PRODUCTS = { ...release(6, 1, [10]), release_date: '2026-02-01T09:00:00.000Z' };

/** A media library image, with one rendition URL. */
const libraryImage = (id: number) => ({
  id,
  title: `Image ${id}`,
  sizes: { large: { url: `https://cdn.example/lib-${id}.jpg`, width: 800 } },
});
/** A body showing library images by their rendition URLs, as upstream HTML does. */
const bodyShowing = (...ids: number[]) => ({ html: ids.map((id) => `<p><img src="https://cdn.example/lib-${id}.jpg"></p>`).join('') });

const START: Data = {
  releases: [
    { ...release(1, 1, [10]), body: bodyShowing(900) },
    release(2, 2, [10, 11]),
    // Names an image the library does not have (yet): the page drops it.
    { ...release(3, 3, [11]), body: bodyShowing(902) },
    release(4, 4, [12]),
    release(5, 5, [10]),
  ],
  tags: [
    { id: 10, name: 'Products', slug: 'products' },
    { id: 11, name: 'People', slug: 'people' },
    { id: 12, name: 'Awards', slug: 'awards' },
  ],
  clippings: [
    { id: 100, title: 'A review', press_release_id: 2, tag_ids: [], published_at: '2026-03-06T00:00:00.000Z' },
    { id: 101, title: 'An interview', press_release_id: null, tag_ids: [11], published_at: '2026-03-07T00:00:00.000Z' },
  ],
  images: [libraryImage(900), libraryImage(901)],
};

/** The press room as getSite() gives it, indexed by the site's own code. */
function siteOf(data: Data): SiteData {
  const releases = structuredClone(data.releases).sort((a, b) => b.release_date.localeCompare(a.release_date)) as unknown as Release[];
  // Placed as the site places them, from entries as the tags loader stores them: with the API's count of each tag's releases.
  const entries = data.tags.map((tag) => ({
    id: String(tag.slug),
    collection: 'tags',
    data: { ...structuredClone(tag), press_release_count: data.releases.filter((r) => r.tag_ids.includes(tag.id)).length },
  }));
  const tags = placeTags(entries as unknown as CollectionEntry<'tags'>[], createPathClaims(), 'en');
  const tagById = new Map(tags.map((t) => [t.id, t]));
  return {
    pressroom: { name: 'Northwind', language: 'en' },
    languages: ['en', 'nl'],
    releases,
    tags,
    tagById,
    ...indexReleases(releases, tagById, ZONE),
    ...indexClippings(structuredClone(data.clippings) as unknown as Clipping[], releases),
    images: structuredClone(data.images),
    mediaKits: [],
    events: [],
    contacts: [],
    pages: [],
  } as unknown as SiteData;
}

/** Feed-like work made once and shared by every route that shows it (as src/lib/feeds.ts does). */
function newestTitles(site: SiteData, shared: Map<string, ReturnType<typeof shareWork<Promise<string[]>>>>): Promise<string[]> {
  let work = shared.get('newest');
  if (!work) shared.set('newest', (work = shareWork(async () => site.releases.slice(0, 3).map((r) => r.title))));
  return awaitShared(work);
}

/** A body's inline images as release-body.ts makes them: each `<img src>` the library item that has it (else dropped). */
function inlineImagesOf(site: SiteData, own: Release): unknown[] {
  const sources = noteInlineImages((own as unknown as { body?: { html: string } }).body?.html ?? '');
  return withoutRecording(() => {
    const library = mediaByRenditionUrl(site.images as unknown as MediaInput[]);
    return sources.map((src) => JSON.stringify(library.get(src) ?? null));
  });
}

/** Routes reading the site as the pages do: their frame, their own item, related items, lists. */
function routesOf(site: SiteData): Record<string, () => Promise<unknown>> {
  const shared = new Map();
  const frame = () => siteNav(site, 'en').map((item) => item.label);
  const routes: Record<string, () => Promise<unknown>> = {
    'index.html': async () => [frame(), await newestTitles(site, shared)],
    'feed.json': async () => newestTitles(site, shared),
    'coverage/index.html': async () => [frame(), site.clippings.map((c) => c.title)],
  };
  for (const r of site.releases)
    routes[`${r.id}-release/index.html`] = async () => {
      const own = site.releaseById.get(r.id)!;
      return [
        frame(),
        own.title,
        own.tag_ids.map((id) => site.tagById.get(id)?.name),
        relatedReleases(site, own, 2).map((x) => x.title),
        (site.clippingsByRelease.get(own.id) ?? []).map((c) => c.title),
        inlineImagesOf(site, own),
      ];
    };
  // A numbered page of the English list: its language switch links the other languages' page 1 while they have one.
  routes['en/1/index.html'] = async () => [frame(), languageLinks(site, '/en/1/', 'en').map((link) => link.href)];
  // A numbered page of the 2026 archive showing March: its heading counts the whole month.
  routes['archive/2026/page/1/index.html'] = async () => [frame(), monthReleaseCount(site, 2026, 3)];
  for (const t of site.tags)
    routes[`tags/${t.id}/index.html`] = async () => [frame(), (site.releasesByTag.get(t.id) ?? []).map((x) => x.title)];
  return routes;
}

/** Records every route of `data` as a build does. */
async function record(data: Data): Promise<RouteRecord> {
  const { view, digests } = recordingSite(siteOf(data));
  const routes = new Map<string, RouteUse>();
  for (const [file, render] of Object.entries(routesOf(view))) {
    const use: RouteUse = { keys: new Set(), files: new Set([`_media/${file.split('/')[0]}.webp`, '_media/logo.webp']) };
    routes.set(file, use);
    await recordRoute(use, render);
  }
  const keys = new Set([...routes.values()].flatMap((use) => [...use.keys]));
  return routeRecordOf(
    { routes, digests: digests.keys(keys) },
    { code: 'c1', configuration: { A: '1' }, buildDay: { day: '2026-03-10', timeZone: ZONE } },
  );
}

/** The plan for going from `before` to `after`. */
async function planFor(before: Data, after: Data): Promise<Extract<RoutePlan, { render: string[] }>> {
  const previous = await record(before);
  const site = siteOf(after);
  const { digests } = recordingSite(site);
  const plan = planRoutes({
    previous,
    code: 'c1',
    configuration: { A: '1' },
    buildDay: { day: '2026-03-10', timeZone: ZONE },
    routes: Object.keys(routesOf(site)),
    digest: (key) => digests.keys([key]).get(key),
  });
  if ('full' in plan) throw new Error(plan.full);
  return plan;
}

/** What a full build would change: the routes whose output differs, by rendering both sides. */
async function changedOutputs(before: Data, after: Data): Promise<string[]> {
  const render = async (data: Data) => {
    const out = new Map<string, string>();
    for (const [file, route] of Object.entries(routesOf(siteOf(data)))) out.set(file, JSON.stringify(await route()));
    return out;
  };
  const [a, b] = await Promise.all([render(before), render(after)]);
  return [...new Set([...a.keys(), ...b.keys()])].filter((file) => a.get(file) !== b.get(file)).sort();
}

const edit = (change: (data: Data) => void): Data => {
  const data = structuredClone(START);
  change(data);
  return data;
};

describe('the route record', () => {
  it('notes the items, lists and index entries each route read, shared work for every route using it, and the same bytes twice', async () => {
    const first = await record(START);
    expect(first.format).toBe(ROUTE_RECORD_FORMAT);
    expect(first.routes['2-release/index.html']!.keys).toEqual(
      expect.arrayContaining([
        'release:2',
        'map:releaseById/2',
        'tag:10',
        'tag:11',
        `lookup:relatedReleases/${encodeURIComponent('2:2')}`,
        'map:clippingsByRelease/2',
        'clipping:100',
      ]),
    );
    // Its related releases are the ones picked, not the lists of its tags they are picked from.
    expect(first.routes['2-release/index.html']!.keys.filter((k) => k.startsWith('map:releasesByTag/'))).toEqual([]);
    // The related releases it shows are items it read; the others are not.
    const related = first.routes['2-release/index.html']!.keys.filter((k) => k.startsWith('release:'));
    expect(related.length).toBeLessThan(5);
    // The shared "newest" work was made while the home page rendered; the feed depends on it all the same.
    expect(first.routes['feed.json']!.keys).toEqual(expect.arrayContaining(['list:releases', 'release:5', 'release:4', 'release:3']));
    // The navigation depends on which sections exist, not on every clipping.
    expect(first.routes['2-release/index.html']!.keys).toContain('derived:sectionsShown');
    expect(first.routes['2-release/index.html']!.keys).not.toContain('list:clippings');
    expect(JSON.stringify(await record(START))).toBe(JSON.stringify(first));
  });

  it('is written with each key and file named once and read back as it was', async () => {
    const first = await record(START);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-route-record-'));
    try {
      const out = path.join(dir, 'site');
      await writeRouteRecord(out, first);
      expect(await readRouteRecord(out)).toEqual(first);
      // Several routes read release 2: on disk it is one name (and the key of its digest).
      expect(Object.values(first.routes).filter((use) => use.keys.includes('release:2')).length).toBeGreaterThan(1);
      expect((await readFile(routeRecordPath(out), 'utf8')).split('"release:2"').length - 1).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives a key no digest could be made for a digest of none, written or read back: its routes render once it can be made', async () => {
    const full = await record(START);
    const missing = 'release:2';
    const { [missing]: _, ...others } = full.digests;
    const readers = Object.keys(full.routes).filter((route) => full.routes[route]!.keys.includes(missing));
    const routes = new Map(Object.entries(full.routes).map(([route, use]) => [route, { keys: use.keys, files: use.files }]));
    const recorded = routeRecordOf({ routes, digests: new Map(Object.entries(others)) }, full);
    expect(recorded.digests[missing]).toBe(NO_DIGEST);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-route-record-'));
    try {
      // As a record written before every key had a digest: the key is left out on disk.
      const out = path.join(dir, 'site');
      await writeRouteRecord(out, { ...recorded, digests: others });
      const read = await readRouteRecord(out);
      expect(read).toEqual(recorded);
      const plan = (digest: (key: string) => string | undefined) =>
        planRoutes({ ...full, previous: read, routes: Object.keys(full.routes), digest });
      expect(plan((key) => full.digests[key])).toMatchObject({ render: readers.sort(), changed: [missing] });
      expect(plan((key) => (key === missing ? undefined : full.digests[key]))).toEqual({
        full: `the key ${missing} cannot be computed from the new data`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('notes, for a body with inline images, the library entry each `<img src>` names, not the whole library', async () => {
    const first = await record(START);
    const keys = first.routes['1-release/index.html']!.keys;
    expect(keys).toContain(`lookup:libraryImageByUrl/${encodeURIComponent('https://cdn.example/lib-900.jpg')}`);
    expect(keys).not.toContain('list:images');
    expect(keys.filter((k) => k.startsWith('image:'))).toEqual([]);
    // An image the library does not have is an entry too: it appears when the library gains it.
    expect(first.digests[`lookup:libraryImageByUrl/${encodeURIComponent('https://cdn.example/lib-902.jpg')}`]).toBe('absent');
    expect(Object.values(first.routes).some((use) => use.keys.includes('list:images'))).toBe(false);
  });
});

describe('the plan of each kind of change', () => {
  const kinds: Array<[string, Data, string[]]> = [
    [
      'an edited title',
      edit((d) => (d.releases[3]!.title = 'Release 4, corrected')),
      ['4-release/index.html', 'tags/12/index.html', 'index.html', 'feed.json'],
    ],
    ['an edited body', edit((d) => (d.releases[0]!.body = { html: '<p>new</p>' })), ['1-release/index.html']],
    ['a tag added', edit((d) => d.releases[0]!.tag_ids.push(12)), ['1-release/index.html', '4-release/index.html', 'tags/12/index.html']],
    [
      'a replaced image',
      edit((d) => (d.releases[1]!.featured_images = [{ sizes: { large: 'https://cdn.example/new.jpg' } }])),
      ['2-release/index.html'],
    ],
    [
      'a new release',
      edit((d) => d.releases.push(release(6, 9, [11]))),
      ['6-release/index.html', 'tags/11/index.html', 'index.html', 'feed.json'],
    ],
    ['a deleted release', edit((d) => d.releases.splice(1, 1)), ['tags/10/index.html', 'tags/11/index.html']],
    [
      'an old release published under a tag',
      edit((d) => d.releases.push(OLD_UNDER_PRODUCTS)),
      ['6-release/index.html', 'tags/10/index.html'],
    ],
    ['a clipping changed', edit((d) => (d.clippings[0]!.title = 'A better review')), ['2-release/index.html', 'coverage/index.html']],
    ['a library image a body shows, edited', edit((d) => (d.images[0]!.title = 'Image 900, recaptioned')), ['1-release/index.html']],
    ['a library image a body names but the library lacked, added', edit((d) => d.images.push(libraryImage(902))), ['3-release/index.html']],
  ];

  for (const [kind, after, shown] of kinds)
    it(`${kind}: renders every route whose output changes (${shown.length} named by what the routes show)`, async () => {
      const plan = await planFor(START, after);
      const changed = await changedOutputs(START, after);
      // Every route a full build changes is planned (or removed when it is gone)...
      for (const file of changed) expect([...plan.render, ...plan.remove]).toContain(file);
      // ...and the ones this change shows on, named here by reading what the routes show.
      for (const file of shown) expect([...plan.render, ...plan.remove]).toContain(file);
      // Untouched routes stay: a change never renders the whole site.
      expect(plan.render.length + plan.remove.length).toBeLessThan(Object.keys(routesOf(siteOf(after))).length);
    });

  it('a deleted release: its route is removed, and its own files go, the shared ones stay', async () => {
    const plan = await planFor(
      START,
      edit((d) => d.releases.splice(1, 1)),
    );
    expect(plan.remove).toEqual(['2-release/index.html']);
    expect(plan.deleteFiles).toContain('_media/2-release.webp');
    expect(plan.deleteFiles).not.toContain('_media/logo.webp');
  });

  it('a release published under a tag renders the pages whose related releases it changes, not every page of the tag', async () => {
    // Older than every release of "Products": no page of the tag picks it over the ones it shows.
    const plan = await planFor(
      START,
      edit((d) => d.releases.push(OLD_UNDER_PRODUCTS)),
    );
    expect(plan.render).toContain('tags/10/index.html');
    expect(plan.render.filter((file) => file.endsWith('-release/index.html'))).toEqual(['6-release/index.html']);
    // The newest one is picked by every page of the tag, which render again.
    const newest = await planFor(
      START,
      edit((d) => d.releases.push(release(6, 9, [10]))),
    );
    expect(newest.render).toEqual(expect.arrayContaining(['1-release/index.html', '2-release/index.html', '5-release/index.html']));
  });

  it('a release coming or going leaves the numbered listing pages alone: they depend on page counts and the months they show', async () => {
    // February: the archive page shows March only, and the English list keeps its number of pages.
    const february = await planFor(
      START,
      edit((d) => d.releases.push(OLD_UNDER_PRODUCTS)),
    );
    expect(february.render).not.toContain('en/1/index.html');
    expect(february.render).not.toContain('archive/2026/page/1/index.html');
    // March: the month's count on the archive page changes.
    const march = await planFor(
      START,
      edit((d) => d.releases.push(release(6, 9, [11]))),
    );
    expect(march.render).toContain('archive/2026/page/1/index.html');
    expect(march.render).not.toContain('en/1/index.html');
  });

  it('a library image only, one that no body shows: renders nothing (release pages depend on the images they name)', async () => {
    const plan = await planFor(
      START,
      edit((d) => d.images.push(libraryImage(903))),
    );
    expect(plan.render).toEqual([]);
    const named = await planFor(
      START,
      edit((d) => d.images.push(libraryImage(902))),
    );
    expect(named.render).toEqual(['3-release/index.html']);
  });

  it('an unchanged press room renders nothing', async () => {
    const plan = await planFor(START, START);
    expect(plan).toEqual({ render: [], remove: [], deleteFiles: [], changed: [] });
    expect(planLine(plan, 12)).toBe('build: partial: 0 of 12 routes rendered (0 changed items)');
  });

  it('renders in full, with the reason in one line, whatever it cannot prove', async () => {
    const previous = await record(START);
    const base = {
      previous,
      code: 'c1',
      configuration: { A: '1' },
      buildDay: previous.buildDay,
      routes: Object.keys(previous.routes),
      digest: () => 'x',
    };
    const line = (plan: RoutePlan) => planLine(plan, 1);
    expect(line(planRoutes({ ...base, previous: { missing: 'no route record beside dist' } }))).toBe(
      'build: rendering in full: no route record beside dist',
    );
    expect(line(planRoutes({ ...base, code: 'c2' }))).toMatch(/^build: rendering in full: the code changed/);
    expect(line(planRoutes({ ...base, configuration: { A: '2' } }))).toMatch(/the configuration changed/);
    expect(line(planRoutes({ ...base, buildDay: { day: '2026-03-11', timeZone: ZONE } }))).toMatch(/the build day is 2026-03-11/);
    expect(line(planRoutes({ ...base, digest: () => undefined }))).toMatch(/cannot be computed from the new data/);
  });
});
