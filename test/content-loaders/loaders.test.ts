/**
 * Every content loader against the real emulator over HTTP: complete loads,
 * hidden items kept out, digests that make an unchanged rebuild write
 * nothing, removals, a flaky upstream giving identical data, a persistent
 * fault failing the load without touching the store, and schema drift.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { isPublic } from '../../emulator/model/visibility.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { dataOf, loadAll, runtimeFor } from '../helpers/loader-context.ts';

let api: RunningEmulator;
let tmp: string;
const envFor = (emu: RunningEmulator, extra: Record<string, string> = {}) => ({
  PRESSROOM_API_URL: emu.url,
  PRESSROOM_ID: String(emu.pressroom.id),
  PRESSROOM_CONCURRENCY: '4',
  ...extra,
});

async function admin(method: string, p: string, body?: unknown) {
  const res = await fetch(`${api.url}/_emulator${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json() as Promise<{ data: any }>;
}

beforeAll(async () => {
  api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE, seed: 1 });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'loaders-'));
});
afterAll(async () => {
  await api.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a complete load of the demo press room', () => {
  it('loads every collection completely, with nothing hidden', async () => {
    const run = await loadAll(await runtimeFor(envFor(api), path.join(tmp, 'http-complete')));
    const w = api.store().world;
    const now = api.store().clock.now();
    const visible = <T extends Parameters<typeof isPublic>[0]>(rows: T[]) => rows.filter((r) => isPublic(r, now));
    const counts = Object.fromEntries(Object.entries(run.stores).map(([name, store]) => [name, store.map.size]));
    expect(counts).toMatchObject({
      pressroom: 1,
      pressReleases: visible(w.pressReleases).length,
      clippings: visible(w.clippings).length,
      events: visible(w.events).length,
      liveEvents: visible(w.liveEvents).filter((l) => w.events.some((e) => e.id === l.event_id && isPublic(e, now))).length,
      pages: visible(w.pages).length,
      prContacts: w.prContacts.length,
      mediaKits: visible(w.mediaKits).length,
      mediaKitCategories: w.mediaKitCategories.filter((c) => api.store().isCategoryVisible(c, now)).length,
      tags: w.tags.length,
      images: visible(w.images).length,
      movies: visible(w.movies).length,
      videos: visible(w.videos).length,
      sounds: visible(w.sounds).length,
      documents: visible(w.documents).length,
    });
    expect(counts.liveEvents).toBeGreaterThan(0);
    expect(counts.timeline).toBeGreaterThan(counts.pressReleases!);
    expect(counts.archive).toBeGreaterThan(0);

    const text = JSON.stringify(Object.values(run.stores).map(dataOf));
    for (const marker of ['EMBARGOED', 'PRIVATE', 'DRAFT', 'LOCKED-KIT', 'PROTECTED-KIT']) expect(text).not.toContain(marker);
    expect(text).not.toContain('draft_content_as_json');
    expect(text).not.toContain('content_as_json');

    const release = Object.values(dataOf(run.stores.pressReleases))[0] as any;
    expect(release).toMatchObject({ tag_ids: expect.any(Array), featured_images: expect.any(Array), clipping_ids: expect.any(Array) });
    const withImage = Object.values(dataOf(run.stores.pressReleases)).find((r: any) => r.featured_images.length > 0) as any;
    expect(typeof withImage.featured_images[0].sizes.original.width).toBe('number');
    // Each tag carries its tagged count, as the API counts it: the public releases with that tag.
    const loadedTags = Object.values(dataOf(run.stores.tags)) as Array<{ id: number; press_release_count: number }>;
    for (const tag of loadedTags)
      expect(tag.press_release_count, `tag ${tag.id}`).toBe(visible(w.pressReleases).filter((r) => r._tagIds.includes(tag.id)).length);
    expect(loadedTags.some((tag) => tag.press_release_count > 1)).toBe(true);
    const categories = Object.values(dataOf(run.stores.mediaKitCategories)) as any[];
    expect(categories.some((c) => c.depth === 1 && c.ancestor_ids.length === 1)).toBe(true);
    for (const kit of Object.values(dataOf(run.stores.mediaKits)) as any[]) {
      if (kit.is_locked || kit.is_password_protected) expect(kit.media).toEqual([]);
    }
    const timeline = Object.values(dataOf(run.stores.timeline)) as any[];
    expect(new Set(timeline.map((t) => t.type))).toEqual(new Set(['press_release', 'clipping', 'event']));
    expect(run.logs.some((l) => /^pressReleases: \d+ entries \(\d+ new/.test(l))).toBe(true);
  });
});

describe('timeline and archive: references, not copies', () => {
  it('hold type, id and what orders them, and every reference names an entry of releases, clippings or events', async () => {
    const run = await loadAll(await runtimeFor(envFor(api), path.join(tmp, 'http-references')));
    const collectionOf = { press_release: run.stores.pressReleases, clipping: run.stores.clippings, event: run.stores.events } as const;
    for (const name of ['timeline', 'archive'] as const) {
      const entries = Object.values(dataOf(run.stores[name])) as Array<{
        type: keyof typeof collectionOf;
        item_id: number;
        date: string | null;
        position: number;
      }>;
      expect(entries.length, name).toBeGreaterThan(0);
      expect(new Set(entries.map((e) => e.type)), name).toEqual(new Set(Object.keys(collectionOf)));
      for (const entry of entries) {
        expect(Object.keys(entry).sort(), `${name} ${entry.type} ${entry.item_id}`).toEqual(['date', 'item_id', 'position', 'type']);
        expect(collectionOf[entry.type]?.map.has(String(entry.item_id)), `${name} ${entry.type} ${entry.item_id}`).toBe(true);
      }
    }
  });
});

describe('progress reports', () => {
  it("counts each collection's own requests and bytes, adding up to the client's totals though collections load at once", async () => {
    const run = await loadAll(await runtimeFor(envFor(api), path.join(tmp, 'http-reports')));
    const reports = run.runtime.reports;
    expect(reports.map((r) => r.collection).sort()).toEqual(Object.keys(run.stores).sort());
    const stats = run.runtime.client.stats();
    const sum = (field: 'requests' | 'bytes' | 'notModified' | 'retries') => reports.reduce((n, r) => n + r[field], 0);
    expect(sum('requests')).toBe(stats.requests);
    expect(sum('bytes')).toBe(stats.bytes);
    // events and liveEvents both read the events list (path group `events`): each counts only its own calls.
    const events = reports.find((r) => r.collection === 'events')!;
    const live = reports.find((r) => r.collection === 'liveEvents')!;
    expect(events.requests).toBe(1);
    expect(live.requests).toBe(1 + run.stores.liveEvents.map.size);
    for (const r of reports) expect(r.requests, r.collection).toBeGreaterThan(0);
  });
});

describe('rebuilds', () => {
  it('writes nothing and costs only 304s when nothing changed upstream; drops what was unpublished', async () => {
    const cacheDir = path.join(tmp, 'http-rebuild');
    const first = await loadAll(await runtimeFor(envFor(api), cacheDir));
    const writesAfterFirst = Object.values(first.stores).reduce((n, s) => n + s.writes, 0);
    const second = await loadAll(await runtimeFor(envFor(api), cacheDir), first.stores);
    expect(Object.values(second.stores).reduce((n, s) => n + s.writes, 0)).toBe(writesAfterFirst);
    const stats = second.runtime.client.stats();
    expect(stats.notModified).toBe(stats.requests);
    expect(stats.bytes).toBe(0);

    const kit = Object.values(dataOf(first.stores.mediaKits))[0] as { id: number };
    const res = await fetch(`${api.url}/v1/media_kits/${kit.id}/unpublish.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${api.managementKey}` },
    });
    expect(res.status).toBe(200);
    const third = await loadAll(await runtimeFor(envFor(api), cacheDir), first.stores, ['mediaKits']);
    expect(third.stores.mediaKits.map.has(String(kit.id))).toBe(false);
    expect(third.logs.join('\n')).toMatch(/mediaKits: \d+ entries \(0 new, 0 changed, \d+ unchanged, 1 removed\)/);
    await fetch(`${api.url}/v1/media_kits/${kit.id}/publish.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${api.managementKey}` },
    });
  });

  it('writes only the one release that changed upstream, and keeps the others as they were', async () => {
    const cacheDir = path.join(tmp, 'http-one-changed');
    const first = await loadAll(await runtimeFor(envFor(api), cacheDir));
    const releases = first.stores.pressReleases;
    const [id, entry] = Object.entries(dataOf(releases))[0] as [string, { id: number; title: string }];
    const others = Object.fromEntries(Object.entries(dataOf(releases)).filter(([key]) => key !== id));
    const writes = releases.writes;
    const put = await fetch(`${api.url}/v1/campaigns/${entry.id}.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${api.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ campaign: { title: `${entry.title} (updated)` } }),
    });
    expect(put.status).toBe(200);
    try {
      const second = await loadAll(await runtimeFor(envFor(api), cacheDir), first.stores, ['pressReleases']);
      expect(second.logs.join('\n')).toMatch(/pressReleases: \d+ entries \(0 new, 1 changed, \d+ unchanged, 0 removed\)/);
      expect(releases.writes).toBe(writes + 1);
      expect((dataOf(releases)[id] as { title: string }).title).toBe(`${entry.title} (updated)`);
      expect(Object.fromEntries(Object.entries(dataOf(releases)).filter(([key]) => key !== id))).toEqual(others);
    } finally {
      await fetch(`${api.url}/v1/campaigns/${entry.id}.json`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${api.managementKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaign: { title: entry.title } }),
      });
    }
  });
});

describe('a flaky upstream', () => {
  it('loads data identical to a clean run with faults on every route', async () => {
    const clean = await loadAll(await runtimeFor(envFor(api)));
    await admin('DELETE', '/faults');
    // Every route gets a fault kind (cycling through them) for its next two requests, so each
    // request fails at most twice in a row: recoverable within the client's attempts, deterministic.
    const kinds = [
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      { kind: 'reset' },
      { kind: 'truncate' },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'latency', latencyMs: 30 },
    ];
    const routes = [
      '',
      'timeline',
      'archive',
      'clippings',
      'events',
      'live_events',
      'pages',
      'pr_contacts',
      'media_kits',
      'media_kit_categories',
      'tags',
      'tagged',
      'images',
      'movies',
      'videos',
      'sounds',
      'documents',
      'press_releases',
    ];
    for (const [i, route] of routes.entries()) {
      const pattern = route === '' ? `/v1/pressrooms/${api.pressroom.id}` : `/v1/pressrooms/*/${route}*`;
      await admin('POST', '/faults', { route: pattern, count: 2, ...kinds[i % kinds.length] });
    }
    try {
      const flaky = await loadAll(await runtimeFor(envFor(api)));
      for (const name of Object.keys(clean.stores) as Array<keyof typeof clean.stores>) {
        expect(dataOf(flaky.stores[name]), name).toEqual(dataOf(clean.stores[name]));
      }
      // Failures fire twice (the request is retried); a latency fault delays one request that then succeeds.
      const rules = (await admin('GET', '/faults')).data as Array<{ route: string; kind: string; fired: number }>;
      expect(rules.map((r) => [r.route, r.fired])).toEqual(rules.map((r) => [r.route, r.kind === 'latency' ? 1 : 2]));
      const failures = rules.filter((r) => r.kind !== 'latency').length * 2;
      expect(flaky.runtime.client.stats().retries).toBe(failures);
    } finally {
      await admin('DELETE', '/faults');
    }
  });

  it('fails the load with a clear error on a persistent fault and leaves the store as it was', async () => {
    const runtime = await runtimeFor(envFor(api));
    const first = await loadAll(runtime, {}, ['clippings']);
    const store = first.stores.clippings;
    const before = { data: dataOf(store), writes: store.writes, deletes: store.deletes };
    await admin('POST', '/faults', { route: '/v1/pressrooms/*/clippings*', kind: 'status', status: 502 });
    try {
      const fast = await runtimeFor(envFor(api));
      await expect(loadAll(fast, first.stores, ['clippings'])).rejects.toThrow(/clippings.*failed after \d+ attempts: HTTP 502/);
      // The same upstream data would compare equal even if rewritten: the store must not have been touched at all.
      expect({ data: dataOf(store), writes: store.writes, deletes: store.deletes }).toEqual(before);
    } finally {
      await admin('DELETE', '/faults');
    }
  }, 60_000);
});

describe('the API key', () => {
  it('reaches the server as a bearer token and never appears in a log line', async () => {
    const key = 'sk_live_loader_SECRET_7731';
    const keyed = await startEmulator({ readKey: key, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    try {
      const run = await loadAll(await runtimeFor(envFor(keyed, { PRESSROOM_API_KEY: key })), {}, ['pressroom', 'pressReleases', 'tags']);
      expect(run.stores.pressReleases.map.size).toBeGreaterThan(0);
      expect(run.logs.join('\n')).not.toContain(key);
      const log = (await (await fetch(`${keyed.url}/_emulator/requests?path_prefix=/v1`)).json()) as {
        data: Array<{ auth: string; keyFingerprint: string }>;
      };
      expect(log.data.length).toBeGreaterThan(0);
      expect(log.data.every((e) => e.auth === 'bearer' && e.keyFingerprint)).toBe(true);
      await expect(loadAll(await runtimeFor(envFor(keyed, { PRESSROOM_API_KEY: 'wrong' })), {}, ['tags'])).rejects.toThrow(/401/);
    } finally {
      await keyed.close();
    }
  });
});

describe('schema drift', () => {
  let server: Server;
  let base: string;
  let releases: any[];
  let mode: 'tolerable' | 'broken' = 'tolerable';
  beforeAll(async () => {
    releases = (
      (await (
        await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=5&includes=tags,featured_images,clippings`)
      ).json()) as { data: any[] }
    ).data;
    const tags = ((await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/tags?limit=2`)).json()) as { data: any[] }).data;
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname.endsWith('/tagged/press_releases/count')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { count: url.searchParams.get('tags') === tags[1].slug ? 'many' : 3 } }));
        return;
      }
      if (url.pathname.endsWith('/tags')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: url.searchParams.get('page') === '1' ? tags : [], paging: { page: 1, limit: 100, total: 100 } }));
        return;
      }
      const data = releases.map((r, i) => {
        if (mode === 'broken' && i === 2)
          return {
            ...r,
            featured_images: [
              { ...r.featured_images[0], sizes: { original: { width: 'wide', height: '10', url: 'http://x.example/a.jpg' } } },
            ],
          };
        return {
          ...r,
          brand_new_field: { nested: true },
          subtitle: null,
          summary: null,
          reading_time: String(r.reading_time ?? 3),
          featured_images: r.featured_images.map((m: any) => ({ ...m, file_size: String(m.file_size), id: String(m.id) })),
        };
      });
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? '1');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: page <= 1 ? data : [], paging: { page, limit: 100, total: 100 } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('tolerates unknown fields, nulls and numbers sent as strings', async () => {
    mode = 'tolerable';
    const run = await loadAll(await runtimeFor({ PRESSROOM_API_URL: base, PRESSROOM_ID: '1' }, path.join(tmp, 'http-drift-ok')), {}, [
      'pressReleases',
    ]);
    const entries = Object.values(dataOf(run.stores.pressReleases)) as any[];
    expect(entries).toHaveLength(5);
    expect(entries.every((e) => e.subtitle === null && typeof e.reading_time === 'number' && !('brand_new_field' in e))).toBe(true);
    expect(entries.flatMap((e) => e.featured_images).every((m: any) => typeof m.file_size === 'number' && typeof m.id === 'number')).toBe(
      true,
    );
  });

  it('drops a value that breaks the schema with a warning naming the endpoint, item id, field path and value', async () => {
    mode = 'broken';
    const run = await loadAll(await runtimeFor({ PRESSROOM_API_URL: base, PRESSROOM_ID: '1' }, path.join(tmp, 'http-drift-broken')), {}, [
      'pressReleases',
    ]);
    expect(run.stores.pressReleases.map.size).toBe(5);
    const line = run.logs.find((l) => l.includes(`item ${releases[2].id}`)) ?? '';
    expect(line).toContain('/v1/pressrooms/1/press_releases');
    expect(line).toContain('featured_images.0.sizes.original.width');
    expect(line).toContain('"wide"');
  });

  it('keeps a tag whose count the API cannot give, with a warning naming the field and value', async () => {
    const run = await loadAll(await runtimeFor({ PRESSROOM_API_URL: base, PRESSROOM_ID: '1' }, path.join(tmp, 'http-drift-tags')), {}, [
      'tags',
    ]);
    expect(run.stores.tags.map.size).toBe(2);
    const line = run.logs.find((l) => l.includes('press_release_count')) ?? '';
    expect(line).toContain('/v1/pressrooms/1/tags');
    expect(line).toContain('"many"');
    expect([...run.stores.tags.map.values()].filter((t) => t.data.press_release_count === null)).toHaveLength(1);
  });
});

describe('configuration', () => {
  it('stops with one line naming the variable', async () => {
    await expect(runtimeFor({ PRESSROOM_API_URL: 'ftp://nope', PRESSROOM_ID: '1' })).rejects.toThrow(/^PRESSROOM_API_URL/);
    await expect(runtimeFor({})).rejects.toThrow(/PRESSROOM_API_URL is not set/);
    await expect(runtimeFor({ PRESSROOM_SNAPSHOT: path.join(tmp, 'nothing-here') })).rejects.toThrow(
      /^PRESSROOM_SNAPSHOT is not a readable snapshot/,
    );
  });
});
