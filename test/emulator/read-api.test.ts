/**
 * Contract tests of the emulator's Read API over real HTTP: every route,
 * every parameter, every error, visibility, ETags and media bytes.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isPublic } from '../../emulator/model/visibility.ts';
import { useEmulator } from '../helpers/emulator.ts';

const emu = useEmulator({ seed: 1, frozenClock: true });

function world() {
  return emu().store().world;
}
function now() {
  return emu().store().clock.now();
}
const firstPublic = <T extends { _state: string; _private: boolean; _visibleFrom: string | null }>(rows: T[]) =>
  rows.find((r) => isPublic(r as never, now()))!;

function everyRoute(): string[] {
  const w = world();
  const release = firstPublic(w.pressReleases);
  const category = w.mediaKitCategories.find((c) => emu().store().isCategoryVisible(c, now()))!;
  const kit = firstPublic(w.mediaKits);
  const tag = w.tags[0]!;
  const live = firstPublic(w.liveEvents);
  return [
    '',
    'timeline',
    'search',
    'search_releases',
    'clippings',
    `clippings/${firstPublic(w.clippings).id}`,
    'documents',
    `documents/${firstPublic(w.documents).id}`,
    'events',
    `events/${firstPublic(w.events).id}`,
    'images',
    `images/${firstPublic(w.images).id}`,
    `live_events/${live.id}`,
    'movies',
    `movies/${firstPublic(w.movies).id}`,
    'pages',
    `pages/${firstPublic(w.pages).id}`,
    'pr_contacts',
    `pr_contacts/${w.prContacts[0]!.id}`,
    'press_releases',
    `press_releases/${release.id}`,
    'archive/clippings',
    'archive/events',
    'archive/press_releases',
    'media_kit_categories',
    'media_kit_categories/tree',
    `media_kit_categories/${category.id}`,
    `media_kit_categories/${category.id}/media_kits`,
    'media_kits',
    `media_kits/${kit.id}`,
    'search/all',
    'search/clippings',
    'search/media_kits',
    'search/press_releases',
    `tagged/clippings?tags=${tag.slug}`,
    `tagged/events?tags=${tag.slug}`,
    `tagged/media_kits?tags=${tag.slug}`,
    `tagged/pages?tags=${tag.slug}`,
    `tagged/press_releases?tags=${tag.slug}`,
    `tagged/press_releases/count?tags=${tag.slug}`,
    'sounds',
    `sounds/${firstPublic(w.sounds).id}`,
    'tags',
    'videos',
    `videos/${firstPublic(w.videos).id}`,
  ];
}

function withSuffix(route: string): string {
  const [p, q] = route.split('?');
  return `${p === '' ? '' : p}.json${q ? `?${q}` : ''}`;
}

describe('routes', () => {
  it('answers all 45 GET routes with JSON data, with and without .json, by id and by domain', async () => {
    const routes = everyRoute();
    expect(routes).toHaveLength(45);
    const e = emu();
    for (const route of routes) {
      for (const prefix of [`${e.url}/v1/pressrooms/${e.pressroom.id}`, `${e.url}/v1/pressrooms/${e.pressroom.domain}`]) {
        for (const url of [`${prefix}${route ? `/${route}` : ''}`, route ? `${prefix}/${withSuffix(route)}` : `${prefix}.json`]) {
          const res = await fetch(url);
          expect(res.status, url).toBe(200);
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          const body = (await res.json()) as { data: unknown };
          expect(body.data, url).toBeDefined();
        }
      }
    }
  });

  it('serves /presskits as an alias of /media_kits', async () => {
    const a = await emu().json('media_kits');
    const b = await emu().json('presskits.json');
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const kit = a.body.data[0];
    expect((await emu().json(`presskits/${kit.id}`)).body).toEqual((await emu().json(`media_kits/${kit.id}`)).body);
  });

  it('shows the press room with its design, languages and PR contacts', async () => {
    const { body } = await emu().json('');
    const p = body.data;
    expect(p.id).toBe(emu().pressroom.id);
    expect(p.languages).toEqual(expect.arrayContaining(['en', 'nl', 'de']));
    expect(p.design.link_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(p.logo.original_url).toMatch(new RegExp(`^${emu().url}/media/`));
    expect(p.pr_contacts.length).toBe(4);
    expect(Object.keys(p).some((k) => k.startsWith('_'))).toBe(false);
  });
});

describe('errors', () => {
  it('answers 404 Missing as JSON for an unknown press room, resource or id', async () => {
    for (const url of [
      `${emu().url}/v1/pressrooms/999999/press_releases.json`,
      `${emu().url}/v1/pressrooms/unknown.example/press_releases`,
      `${emu().base}/press_releases/1`,
      `${emu().base}/press_releases/abc`,
      `${emu().base}/media_kits/1`,
      `${emu().base}/no_such_collection`,
      `${emu().url}/v2/anything`,
    ]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual({ error: { status: 404, message: 'Missing' } });
    }
  });

  it('answers 422 for a tag that does not exist and 400 for malformed parameters', async () => {
    const unknownTag = await emu().json('search.json?tags=no-such-tag');
    expect(unknownTag.status).toBe(422);
    expect(unknownTag.body.error.message).toContain('no-such-tag');
    expect((await emu().json('tagged/press_releases?tags=no-such-tag')).status).toBe(422);
    for (const query of [
      'limit=abc',
      'limit=0',
      'limit=10001',
      'page=-1',
      'order=title sideways',
      'order=secret_field asc',
      'includes=everything',
      'match=some',
    ]) {
      const res = await emu().json(`press_releases?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.status).toBe(400);
      expect(typeof res.body.error.message).toBe('string');
    }
    expect((await emu().json('tagged/press_releases')).status).toBe(400);
  });

  it('answers 405 JSON to a write on the Read API', async () => {
    const res = await emu().api('press_releases', { method: 'POST' });
    expect(res.status).toBe(405);
    expect((await res.json()).error.status).toBe(405);
  });
});

describe('paging', () => {
  it('defaults to 30 per page, treats page 0 and 1 alike, and reports total = limit like the live service', async () => {
    const first = await emu().json('press_releases');
    expect(first.body.data).toHaveLength(30);
    expect(first.body.paging).toEqual({ page: 0, limit: 30, total: 30 });
    const one = await emu().json('press_releases?page=1');
    expect(one.body.data).toEqual(first.body.data);
    expect(one.body.paging.page).toBe(1);
    const two = await emu().json('press_releases?page=2');
    expect(two.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('pages through everything with limit, ending on a short page, and allows limit=9999', async () => {
    const all = (await emu().json('press_releases?limit=9999')).body.data as Array<{ id: number }>;
    const expected = world().pressReleases.filter((r) => isPublic(r, now())).length;
    expect(all).toHaveLength(expected);
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const { data } = (await emu().json(`press_releases?limit=7&page=${page}`)).body;
      seen.push(...data.map((r: { id: number }) => r.id));
      if (data.length < 7) break;
    }
    expect(seen).toEqual(all.map((r) => r.id));
    const beyond = await emu().json('press_releases?limit=7&page=999');
    expect(beyond.body.data).toEqual([]);
  });

  it('reports true totals when switched on through the admin path', async () => {
    const expected = world().pressReleases.filter((r) => isPublic(r, now())).length;
    await emu().admin('POST', '/settings', { trueTotals: true });
    try {
      expect((await emu().json('press_releases?limit=5')).body.paging.total).toBe(expected);
    } finally {
      await emu().admin('POST', '/settings', { trueTotals: false });
    }
  });
});

describe('order, includes, language, tags, q', () => {
  it('orders by a comma list of attribute directions; newest release first by default', async () => {
    const byDefault = (await emu().json('press_releases?limit=9999')).body.data as Array<{ release_date: string; id: number }>;
    const dates = byDefault.map((r) => r.release_date);
    expect(dates).toEqual([...dates].sort().reverse());
    const asc = (await emu().json('press_releases?limit=9999&order=release_date%20asc')).body.data as typeof byDefault;
    expect(asc.map((r) => r.release_date)).toEqual([...dates].sort());
    const two = (await emu().json(`press_releases?limit=9999&order=${encodeURIComponent('language asc, id desc')}`)).body.data as Array<{
      language: string;
      id: number;
    }>;
    for (let i = 1; i < two.length; i++) {
      const [a, b] = [two[i - 1]!, two[i]!];
      expect(a.language < b.language || (a.language === b.language && a.id > b.id)).toBe(true);
    }
  });

  it('adds tags, featured_images and clippings only when asked', async () => {
    const plain = (await emu().json('press_releases?limit=9999')).body.data as Array<Record<string, unknown>>;
    for (const r of plain) {
      expect(r).not.toHaveProperty('tags');
      expect(r).not.toHaveProperty('featured_images');
      expect(r).not.toHaveProperty('clippings');
      expect(Object.keys(r).some((k) => k.startsWith('_'))).toBe(false);
    }
    const full = (await emu().json('press_releases?limit=9999&includes=tags,featured_images,clippings')).body.data as Array<any>;
    expect(full.every((r) => Array.isArray(r.tags) && Array.isArray(r.featured_images) && Array.isArray(r.clippings))).toBe(true);
    expect(full.some((r) => r.tags.length > 0 && r.featured_images.length > 0)).toBe(true);
    expect(full.some((r) => r.clippings.length > 0)).toBe(true);
    const image = full.flatMap((r) => r.featured_images)[0];
    for (const name of ['original', 'large', 'medium', 'square']) {
      expect(image.sizes[name].width).toMatch(/^\d+$/);
      expect(image.sizes[name].url).toMatch(new RegExp(`^${emu().url}/media/`));
    }
    const one = (await emu().json(`press_releases/${full[0].id}?includes=tags`)).body.data;
    expect(one.tags).toEqual(full[0].tags);
  });

  it('filters by language', async () => {
    for (const language of ['en', 'nl', 'de']) {
      const { data } = (await emu().json(`press_releases?limit=9999&language=${language}`)).body;
      expect(data.length, language).toBeGreaterThan(0);
      expect(data.every((r: { language: string }) => r.language === language)).toBe(true);
    }
  });

  it('finds releases by tags with match=any and match=all, and counts them', async () => {
    const releases = (await emu().json('press_releases?limit=9999&includes=tags')).body.data as Array<{
      id: number;
      tags: Array<{ slug: string }>;
    }>;
    const pair = releases.find((r) => r.tags.length >= 2)!;
    const [a, b] = [pair.tags[0]!.slug, pair.tags[1]!.slug];
    const has = (r: (typeof releases)[number], s: string) => r.tags.some((t) => t.slug === s);
    const anyIds = releases
      .filter((r) => has(r, a) || has(r, b))
      .map((r) => r.id)
      .sort();
    const allIds = releases
      .filter((r) => has(r, a) && has(r, b))
      .map((r) => r.id)
      .sort();
    const ids = async (q: string) => ((await emu().json(q)).body.data as Array<{ id: number }>).map((r) => r.id).sort();
    expect(await ids(`tagged/press_releases?limit=9999&tags=${a},${b}`)).toEqual(anyIds);
    expect(await ids(`tagged/press_releases?limit=9999&tags=${a},${b}&match=all`)).toEqual(allIds);
    expect(await ids(`search.json?limit=9999&tags=${a},${b}&match=all`)).toEqual(allIds);
    expect(allIds.length).toBeLessThanOrEqual(anyIds.length);
    expect((await emu().json(`tagged/press_releases/count?tags=${a},${b}`)).body).toEqual({ data: { count: anyIds.length } });
    expect((await emu().json(`tagged/press_releases/count?tags=${a},${b}&match=all`)).body).toEqual({ data: { count: allIds.length } });
  });

  it('searches with q on the search and tagged routes', async () => {
    const release = firstPublic(world().pressReleases);
    const word = release.title
      .split(/\s+/)
      .find((w) => w.length > 5)!
      .replace(/[^\p{L}\p{N}-]/gu, '');
    const hits = (await emu().json(`search/press_releases?limit=9999&q=${encodeURIComponent(word)}`)).body.data as Array<{
      id: number;
      title: string;
    }>;
    expect(hits.map((r) => r.id)).toContain(release.id);
    expect((await emu().json('search/press_releases?q=zzzqqqxxyy')).body.data).toEqual([]);
    const everything = (await emu().json(`search/all?limit=9999&q=${encodeURIComponent(word)}`)).body.data as Array<{
      type: string;
      id: number;
    }>;
    expect(everything.some((i) => i.type === 'press_release' && i.id === release.id)).toBe(true);
    const tag = world().tags.find((t) => release._tagIds.includes(t.id))!;
    const tagged = (await emu().json(`tagged/press_releases?limit=9999&tags=${tag.slug}&q=${encodeURIComponent(word)}`)).body
      .data as Array<{ id: number }>;
    expect(tagged.map((r) => r.id)).toContain(release.id);
    const count = (await emu().json(`tagged/press_releases/count?tags=${tag.slug}&q=${encodeURIComponent(word)}`)).body.data.count;
    expect(count).toBe(tagged.length);
  });
});

describe('timeline, archive, categories, media kits', () => {
  it('mixes releases, clippings and events in the timeline, newest first', async () => {
    const { data } = (await emu().json('timeline?limit=9999')).body as {
      data: Array<{ type: string; id: number; release_date?: string; starts_at?: string }>;
    };
    const dates = data.map((i) => (i.type === 'event' ? i.starts_at : i.release_date) ?? '');
    expect(dates.every(Boolean)).toBe(true);
    expect(dates).toEqual([...dates].sort().reverse());
    const types = new Set(data.map((i) => i.type));
    expect(types).toEqual(new Set(['press_release', 'clipping', 'event']));
    const hiddenFromTimeline = world().pressReleases.filter((r) => !r.show_in_timeline && isPublic(r, now()));
    for (const r of hiddenFromTimeline) expect(data.some((i) => i.type === 'press_release' && i.id === r.id)).toBe(false);
  });

  it('archives items from before the current year', async () => {
    const startOfYear = `${now().getUTCFullYear()}-01-01`;
    const archived = (await emu().json('archive/press_releases?limit=9999')).body.data as Array<{ release_date: string }>;
    expect(archived.length).toBeGreaterThan(0);
    expect(archived.every((r) => r.release_date < startOfYear)).toBe(true);
    const all = (await emu().json('press_releases?limit=9999')).body.data as Array<{ release_date: string }>;
    expect(archived.length).toBe(all.filter((r) => r.release_date < startOfYear).length);
    expect((await emu().json('archive/clippings')).status).toBe(200);
    expect((await emu().json('archive/events')).status).toBe(200);
  });

  it('lists categories, a two-level tree in position order, and the kits of a category', async () => {
    const tree = (await emu().json('media_kit_categories/tree')).body.data as Array<any>;
    expect(tree.length).toBeGreaterThanOrEqual(2);
    expect(tree.some((c) => c.children.length > 0)).toBe(true);
    const positions = tree.map((c) => c.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const child = tree.flatMap((c) => c.children)[0];
    expect(child.parent_id).toBe(tree.find((c) => c.children.includes(child)).id);
    const kits = (await emu().json(`media_kit_categories/${child.id}/media_kits`)).body.data as Array<{ category_id: number }>;
    expect(kits.every((k) => k.category_id === child.id)).toBe(true);
    expect(kits.length).toBe(child.media_kits_count);
    const flat = (await emu().json('media_kit_categories')).body.data as Array<{ id: number }>;
    const treeIds = [...tree, ...tree.flatMap((c) => c.children)].map((c) => c.id).sort();
    expect(flat.map((c) => c.id).sort()).toEqual(treeIds);
  });

  it('lists no media for locked or password-protected kits, and media with sizes for the others', async () => {
    const kits = (await emu().json('media_kits?limit=9999')).body.data as Array<any>;
    const closed = kits.filter((k) => k.is_locked || k.is_password_protected);
    expect(closed.length).toBeGreaterThanOrEqual(2);
    for (const kit of closed) {
      expect(kit.media).toEqual([]);
      expect((await emu().json(`media_kits/${kit.id}`)).body.data.media).toEqual([]);
    }
    const open = kits.filter((k) => !k.is_locked && !k.is_password_protected);
    expect(open.every((k) => k.media.length > 0)).toBe(true);
  });
});

describe('visibility', () => {
  it('never shows embargoed, private, draft or unpublished items in lists or by id', async () => {
    const w = world();
    const hidden = {
      press_releases: w.pressReleases.filter((r) => !isPublic(r, now())),
      clippings: w.clippings.filter((r) => !isPublic(r, now())),
      events: w.events.filter((r) => !isPublic(r, now())),
      pages: w.pages.filter((r) => !isPublic(r, now())),
      media_kits: w.mediaKits.filter((r) => !isPublic(r, now())),
    };
    expect(hidden.press_releases.some((r) => r._visibleFrom && r._visibleFrom > now().toISOString())).toBe(true);
    expect(hidden.press_releases.some((r) => r._private)).toBe(true);
    expect(hidden.press_releases.some((r) => r._state === 'draft')).toBe(true);
    for (const [route, rows] of Object.entries(hidden)) {
      expect(rows.length, route).toBeGreaterThan(0);
      const listed = JSON.stringify((await emu().json(`${route}?limit=9999`)).body);
      for (const row of rows) {
        expect((await emu().json(`${route}/${row.id}`)).status, `${route}/${row.id}`).toBe(404);
        expect(listed).not.toContain(`"id":${row.id},`);
      }
    }
    const everything =
      JSON.stringify((await emu().json('search/all?limit=9999')).body) + JSON.stringify((await emu().json('timeline?limit=9999')).body);
    for (const r of hidden.press_releases) expect(everything).not.toContain(JSON.stringify(r.title));
    const categories = JSON.stringify((await emu().json('media_kit_categories/tree')).body);
    for (const c of w.mediaKitCategories.filter((c) => !emu().store().isCategoryVisible(c, now()))) {
      expect(categories).not.toContain(JSON.stringify(c.name));
    }
  });

  it('never sends draft_content_as_json edits as content of a visible release', async () => {
    const { data } = (await emu().json('press_releases?limit=9999')).body as { data: Array<{ body_html: string }> };
    expect(data.some((r) => r.body_html.includes('DRAFT EDIT'))).toBe(false);
  });
});

describe('conditional requests and media bytes', () => {
  it('answers 304 to If-None-Match on JSON', async () => {
    const res = await emu().api('press_releases?limit=5');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await emu().api('press_releases?limit=5', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const other = await emu().api('press_releases?limit=6', { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
  });

  it('serves every rendition of an image at its declared size with ETag and 304', async () => {
    const image = (await emu().json('images?limit=1')).body.data[0];
    for (const [name, rendition] of Object.entries(image.sizes) as Array<[string, { width: string; height: string; url: string }]>) {
      const res = await fetch(rendition.url);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/(jpeg|png)$/);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height], name).toEqual([Number(rendition.width), Number(rendition.height)]);
      const etag = res.headers.get('etag')!;
      expect((await fetch(rendition.url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
  });

  it('serves real PDFs, audio and video for documents, sounds and movies', async () => {
    const doc = (await emu().json('documents?limit=1')).body.data[0];
    const pdf = Buffer.from(await (await fetch(doc.url)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const sound = (await emu().json('sounds?limit=1')).body.data[0];
    const wav = Buffer.from(await (await fetch(sound.url)).arrayBuffer());
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    for (const s of (await emu().json('sounds?limit=100')).body.data as Array<{ url: string; file_size: number }>) {
      expect((await (await fetch(s.url)).arrayBuffer()).byteLength, s.url).toBe(s.file_size);
    }
    const movie = (await emu().json('movies?limit=1')).body.data[0];
    const mp4 = await fetch(movie.mp4_url ?? movie.url);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const head = Buffer.from(await mp4.arrayBuffer());
    expect(head.subarray(4, 8).toString()).toBe('ftyp');
  });

  it('has bytes behind every media URL in the press room', async () => {
    const json = JSON.stringify([
      (await emu().json('')).body,
      (await emu().json('press_releases?limit=9999')).body,
      (await emu().json('media_kits?limit=9999')).body,
      (await emu().json('tags?limit=9999')).body,
      (await emu().json('clippings?limit=9999')).body,
      (await emu().json('pr_contacts')).body,
    ]);
    const urls = [...new Set(json.match(new RegExp(`${emu().url}/media/[^"\\\\]+`, 'g')))];
    expect(urls.length).toBeGreaterThan(50);
    const sample = urls.filter((_, i) => i % Math.ceil(urls.length / 60) === 0);
    for (const url of sample) {
      const res = await fetch(url, { method: 'HEAD' });
      expect(res.status, url).toBe(200);
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    }
  });
});
