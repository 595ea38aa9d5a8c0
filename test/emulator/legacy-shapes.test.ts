/**
 * Contract tests of `shapes: 'legacy'` over real HTTP: every older, sparser
 * shape the live API is known to send is present in the legacy answers and
 * absent from the current ones, and every media URL of a legacy answer serves
 * real bytes of the size a client will measure.
 */
import pLimit from 'p-limit';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DECLARED_SQUARE_SIDE, SMALL_UPLOAD_SIDE } from '../../emulator/http/legacy-shapes.ts';
import { useEmulator } from '../helpers/emulator.ts';

const legacy = useEmulator({ seed: 1, frozenClock: true, shapes: 'legacy' });
const current = useEmulator({ seed: 1, frozenClock: true });

type Item = Record<string, any>;
const ALL = 'limit=9999';
const list = async (emu: typeof legacy, route: string): Promise<Item[]> => {
  const res = await emu().json(`${route}${route.includes('?') ? '&' : '?'}${ALL}`);
  expect(res.status, route).toBe(200);
  return res.body.data;
};
const some = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length;

describe('legacy press room', () => {
  it('has a Rails zone name, tag_tree as a JSON string, a logo without dimensions, no domain or boilerplate', async () => {
    const old = (await legacy().json('')).body.data;
    expect(old.timezone).toBe('Amsterdam');
    expect(typeof old.tag_tree).toBe('string');
    const tree = JSON.parse(old.tag_tree) as Array<{ id: number; name: string; children: unknown[] }>;
    expect(tree.length).toBeGreaterThan(0);
    expect(tree.some((t) => t.children.length > 0)).toBe(true);
    expect(Object.keys(old.logo).sort()).toEqual(['original_url', 'small_url', 'square_url']);
    expect(old).not.toHaveProperty('domain');
    expect(old).not.toHaveProperty('boilerplate_html');
    expect(Array.isArray(old.pr_contacts)).toBe(true);

    const now = (await current().json('')).body.data;
    expect(now).not.toHaveProperty('tag_tree');
    expect(typeof now.logo.width).toBe('number');
    expect(typeof now.domain).toBe('string');
    expect(typeof now.boilerplate_html).toBe('string');
  });

  it('embeds PR contacts whose e-mail and phone live only in free-text contact_info, in several formats', async () => {
    const embedded = (await legacy().json('')).body.data.pr_contacts as Item[];
    const listed = await list(legacy, 'pr_contacts');
    expect(embedded).toEqual(listed);
    const documented = await list(current, 'pr_contacts');
    expect(documented.every((c) => typeof c.email === 'string' && typeof c.phone === 'string' && typeof c.job_title === 'string')).toBe(
      true,
    );
    const formats = new Set<string>();
    for (const contact of listed) {
      for (const field of ['email', 'phone', 'job_title']) expect(contact, `${contact.id} ${field}`).not.toHaveProperty(field);
      const doc = documented.find((c) => c.id === contact.id)!;
      const info = contact.contact_info as string;
      expect(info).toContain('\n');
      expect(info, `contact ${contact.id}`).toContain(doc.email);
      const digits = doc.phone.replace(/\D/g, '').slice(2);
      expect(info.replace(/\D/g, ''), `contact ${contact.id} phone`).toContain(digits);
      formats.add(
        info
          .split('\n')
          .slice(1)
          .map((line) => line.replace(/[\d+()@.\s-]|[a-z]+\.[a-z]+/gi, ''))
          .join('|'),
      );
    }
    expect(formats.size).toBeGreaterThanOrEqual(3);
    const all = listed.map((c) => c.contact_info).join('\n');
    expect(all).toMatch(/\+31 \(0\)20/);
    expect(all).toMatch(/\+49 /);
    expect(all).toMatch(/\b0031 /);
  });

  it('sends avatar originals without dimensions, and a contact without a photo with url null everywhere', async () => {
    const contacts = await list(legacy, 'pr_contacts');
    const withPhoto = contacts.filter((c) => c.avatar.original.url !== null);
    const without = contacts.filter((c) => c.avatar.original.url === null);
    expect(withPhoto.length).toBeGreaterThan(0);
    expect(without.length).toBeGreaterThan(0);
    for (const c of contacts) expect([c.avatar.original.width, c.avatar.original.height]).toEqual([null, null]);
    for (const c of without) for (const rendition of Object.values(c.avatar) as Item[]) expect(rendition.url).toBeNull();
    const documented = await list(current, 'pr_contacts');
    expect(documented.some((c) => c.avatar === null)).toBe(true);
    expect(documented.filter((c) => c.avatar).every((c) => /^\d+$/.test(c.avatar.original.width))).toBe(true);
  });
});

describe('legacy media items', () => {
  it('leave out file_size and transparent on some items, never on all', async () => {
    for (const route of ['images', 'documents', 'movies']) {
      const items = await list(legacy, route);
      const bare = some(items, (m) => !('file_size' in m) && !('transparent' in m));
      expect(bare, route).toBeGreaterThan(0);
      expect(bare, route).toBeLessThan(items.length);
      expect((await list(current, route)).every((m) => typeof m.file_size === 'number' && typeof m.transparent === 'boolean')).toBe(true);
    }
  });

  it('declare widths and heights as strings, and a 300×300 square for a 200×200 original that really is 200×200', async () => {
    const images = await list(legacy, 'images');
    for (const m of images) for (const r of Object.values(m.sizes) as Item[]) expect(r.width, `${m.id}`).toMatch(/^\d+$/);
    const small = images.filter(
      (m) => m.sizes.square.width === String(DECLARED_SQUARE_SIDE) && m.sizes.original.width === String(SMALL_UPLOAD_SIDE),
    );
    expect(small.length).toBeGreaterThan(0);
    for (const m of small) {
      for (const name of ['original', 'square']) {
        const res = await fetch(m.sizes[name].url);
        expect(res.status).toBe(200);
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect([meta.width, meta.height], `${m.id} ${name}`).toEqual([SMALL_UPLOAD_SIDE, SMALL_UPLOAD_SIDE]);
      }
    }
    const documented = await list(current, 'images');
    for (const m of documented) {
      expect(Number(m.sizes.square.width)).toBeLessThanOrEqual(Number(m.sizes.original.width));
    }
  });
});

describe('legacy clippings', () => {
  it('have undated ones, alexa null, screenshot originals without dimensions, and numeric sources', async () => {
    const clippings = await list(legacy, 'clippings');
    expect(some(clippings, (c) => c.release_date === null)).toBeGreaterThan(0);
    expect(some(clippings, (c) => typeof c.release_date === 'string')).toBeGreaterThan(0);
    expect(clippings.every((c) => c.alexa === null)).toBe(true);
    expect(
      clippings.every(
        (c) => c.sizes.original.width === null && c.sizes.original.height === null && typeof c.sizes.original.url === 'string',
      ),
    ).toBe(true);
    expect(some(clippings, (c) => /^\d+$/.test(c.source) && !/^(1843|020)$/.test(c.source))).toBeGreaterThan(0);
    expect(some(clippings, (c) => /[a-z]/i.test(c.source))).toBeGreaterThan(0);

    const documented = await list(current, 'clippings');
    expect(documented.every((c) => typeof c.release_date === 'string' && !('alexa' in c) && /^\d+$/.test(c.sizes.original.width))).toBe(
      true,
    );
  });
});

describe('legacy press releases', () => {
  it('say type story for some, send "" for missing text, and leave out full_url, updated_at, reading_time, freeform_two', async () => {
    const releases = await list(legacy, 'press_releases');
    expect(some(releases, (r) => r.type === 'story')).toBeGreaterThan(0);
    expect(some(releases, (r) => r.type === 'press_release')).toBeGreaterThan(0);
    for (const r of releases) {
      for (const field of ['full_url', 'updated_at', 'reading_time', 'freeform_two'])
        expect(r, `${r.id} ${field}`).not.toHaveProperty(field);
      for (const field of ['subtitle', 'summary', 'body_html']) expect(typeof r[field], `${r.id} ${field}`).toBe('string');
    }
    expect(some(releases, (r) => r.subtitle === '')).toBeGreaterThan(0);
    expect(some(releases, (r) => r.summary === '')).toBeGreaterThan(0);

    const documented = await list(current, 'press_releases');
    expect(
      documented.every(
        (r) => r.type === 'press_release' && 'full_url' in r && 'updated_at' in r && 'reading_time' in r && 'freeform_two' in r,
      ),
    ).toBe(true);
    expect(some(documented, (r) => r.subtitle === null)).toBeGreaterThan(0);
  });

  it('carry content_as_json as a JSON string in the 2015 vocabulary for some and the 2016 one for others', async () => {
    const releases = await list(legacy, 'press_releases');
    const blocksOf = (r: Item) => (JSON.parse(r.content_as_json) as { blocks: Array<{ type: string; data: Item }> }).blocks;
    const withBlocks = releases.filter((r) => typeof r.content_as_json === 'string');
    const of2015 = withBlocks.filter((r) => blocksOf(r).some((b) => b.type === 'textarea'));
    const of2016 = withBlocks.filter((r) => blocksOf(r).some((b) => b.type === 'text'));
    expect(of2015.length).toBeGreaterThan(0);
    expect(of2016.length).toBeGreaterThan(0);
    for (const r of of2015) {
      const blocks = blocksOf(r);
      expect(blocks.some((b) => b.type === 'header')).toBe(true);
      expect(blocks.some((b) => b.type === 'text')).toBe(false);
      for (const b of blocks.filter((b) => b.type === 'textarea')) expect(typeof b.data.body).toBe('string');
    }
    for (const r of of2016) {
      const blocks = blocksOf(r);
      expect(blocks.some((b) => b.type === 'textarea')).toBe(false);
      for (const b of blocks.filter((b) => b.type === 'text'))
        expect([typeof b.data.text, typeof b.data.style]).toEqual(['string', 'string']);
    }
    const documented = await list(current, 'press_releases');
    for (const r of documented.filter((r) => r.content_as_json)) {
      const blocks = JSON.parse(r.content_as_json).blocks as Array<{ type: string; data: Item }>;
      expect(blocks.some((b) => b.type === 'text' || (b.type === 'textarea' && 'body' in b.data))).toBe(false);
    }
  });
});

describe('legacy media kits', () => {
  it('come with id, title and media only, from /presskits and /media_kits alike, by id too', async () => {
    const kits = await list(legacy, 'media_kits');
    expect(kits.length).toBeGreaterThan(0);
    for (const kit of kits) expect(Object.keys(kit).sort()).toEqual(['id', 'media', 'title']);
    expect(kits.some((k) => k.media.length > 0)).toBe(true);
    expect(await list(legacy, 'presskits')).toEqual(kits);
    const one = (await legacy().json(`presskits/${kits[0]!.id}.json`)).body.data;
    expect(one).toEqual(kits[0]);
    for (const kit of await list(legacy, 'search/media_kits')) expect(Object.keys(kit).sort()).toEqual(['id', 'media', 'title']);

    const documented = await list(current, 'media_kits');
    expect(
      documented.every((k) => 'description' in k && 'category_id' in k && 'permalink' in k && 'media_count' in k && 'is_locked' in k),
    ).toBe(true);
  });
});

describe('legacy paging and includes', () => {
  it('pages by 10 by default, echoes the page, and reports total = limit', async () => {
    const first = await legacy().json('press_releases');
    expect(first.body.paging).toEqual({ page: 0, limit: 10, total: 10 });
    expect(first.body.data).toHaveLength(10);
    const one = await legacy().json('press_releases?page=1');
    expect(one.body.paging).toEqual({ page: 1, limit: 10, total: 10 });
    expect(one.body.data).toEqual(first.body.data);
    const clippings = await legacy().json('clippings?limit=30&page=1');
    expect(clippings.body.paging).toEqual({ page: 1, limit: 30, total: 30 });
    expect((await current().json('press_releases')).body.paging).toEqual({ page: 0, limit: 30, total: 30 });
  });

  it('answers a release asked with an unknown includes value with only the known includes', async () => {
    const id = (await list(legacy, 'press_releases'))[0]!.id;
    const res = await legacy().json(`press_releases/${id}?includes=tags,comments,featured_images`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data.tags)).toBe(true);
    expect(Array.isArray(res.body.data.featured_images)).toBe(true);
    expect(res.body.data).not.toHaveProperty('comments');
    expect(res.body.data).not.toHaveProperty('clippings');
    const listed = await legacy().json('press_releases?includes=clippings,bogus');
    expect(listed.status).toBe(200);
    expect(listed.body.data.every((r: Item) => Array.isArray(r.clippings) && !('tags' in r))).toBe(true);
    expect((await current().json(`press_releases/${id}?includes=tags,comments`)).status).toBe(400);
  });
});

/** Every `{width, height, url}` rendition anywhere in a JSON value. */
function renditions(value: unknown, out: Item[] = []): Item[] {
  if (Array.isArray(value)) for (const v of value) renditions(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Item;
    if ('url' in o && 'width' in o && 'height' in o) out.push(o);
    for (const v of Object.values(o)) renditions(v, out);
  }
  return out;
}

describe('legacy media bytes', () => {
  it('serves real bytes behind every media URL of every legacy answer, each image of the size it declares (or smaller, for an oversized square)', async () => {
    const origin = legacy().url;
    const answers = await Promise.all(
      [
        '',
        'press_releases?includes=tags,featured_images,clippings',
        'clippings',
        'media_kits',
        'images',
        'documents',
        'movies',
        'sounds',
        'videos',
        'tags',
        'pr_contacts',
        'events?includes=featured_images',
        'timeline',
      ].map(async (route) => (await legacy().json(`${route}${route.includes('?') ? '&' : '?'}${ALL}`)).body),
    );
    const text = JSON.stringify(answers);
    const urls = [...new Set(text.match(new RegExp(`${origin}/media/[^"\\\\]+`, 'g')))];
    expect(urls.length).toBeGreaterThan(300);
    expect(urls.some((u) => u.includes('/media/legacy/'))).toBe(true);
    const declared = new Map<string, { width: number; height: number }>();
    for (const r of renditions(answers)) {
      if (typeof r.url === 'string' && r.width !== null) declared.set(r.url, { width: Number(r.width), height: Number(r.height) });
    }
    const limit = pLimit(8);
    const problems: string[] = [];
    await Promise.all(
      urls.map((url) =>
        limit(async () => {
          const res = await fetch(url);
          const bytes = Buffer.from(await res.arrayBuffer());
          if (res.status !== 200 || bytes.length === 0) return void problems.push(`${url}: ${res.status}, ${bytes.length} bytes`);
          if (!res.headers.get('content-type')?.startsWith('image/')) return;
          const meta = await sharp(bytes).metadata();
          const size = declared.get(url);
          if (!size) return;
          const oversizedSquare = url.includes('/media/legacy/') && url.includes('/square.');
          const expected = oversizedSquare ? { width: SMALL_UPLOAD_SIDE, height: SMALL_UPLOAD_SIDE } : size;
          if (meta.width !== expected.width || meta.height !== expected.height) {
            problems.push(`${url}: ${meta.width}x${meta.height}, expected ${expected.width}x${expected.height}`);
          }
        }),
      ),
    );
    expect(problems).toEqual([]);
  });
});

describe('legacy as a view of the same press room', () => {
  it('holds the same items as the current shapes, and can be switched on while running, with the same bytes', async () => {
    const ids = async (emu: typeof legacy, route: string) => (await list(emu, route)).map((i) => i.id);
    for (const route of ['press_releases', 'clippings', 'media_kits', 'images', 'pr_contacts', 'events', 'pages']) {
      expect(await ids(legacy, route), route).toEqual(await ids(current, route));
    }
    const routes = [
      '',
      'press_releases?limit=9999&includes=tags,featured_images,clippings',
      'clippings?limit=9999',
      'presskits?limit=9999',
      'pr_contacts',
    ];
    const texts = async (emu: typeof legacy) =>
      Promise.all(routes.map(async (r) => (await (await emu().api(r)).text()).replaceAll(emu().url, 'ORIGIN')));
    const expected = await texts(legacy);
    expect((await current().admin('POST', '/settings', { shapes: 'legacy' })).body.data.shapes).toBe('legacy');
    try {
      expect(await texts(current)).toEqual(expected);
    } finally {
      await current().admin('POST', '/settings', { shapes: 'current' });
    }
    expect((await current().admin('POST', '/settings', { shapes: 'old' })).status).toBe(422);
    expect((await current().json('press_releases')).body.paging.limit).toBe(30);
  });
});

describe('legacy answers to a leaky key', () => {
  const leakyLegacy = useEmulator({ seed: 1, frozenClock: true, shapes: 'legacy', leakHidden: true });
  const leakyCurrent = useEmulator({ seed: 1, frozenClock: true, leakHidden: true });

  it('spell the fields that say an item is hidden as other upstreams do: states, flags and instants in several forms', async () => {
    const items = [
      ...(await list(leakyLegacy, 'press_releases')),
      ...(await list(leakyLegacy, 'clippings')),
      ...(await list(leakyLegacy, 'media_kits')),
      ...(await list(leakyLegacy, 'images')),
      ...(await list(leakyLegacy, 'events')),
      ...(await list(leakyLegacy, 'pages')),
      ...(await list(leakyLegacy, 'media_kit_categories')),
      ...(await list(leakyLegacy, 'documents')),
      ...(await list(leakyLegacy, 'videos')),
    ];
    const states = items.map((i) => i.state).filter((s) => typeof s === 'string');
    expect(states.some((s) => s === s.trim().toLowerCase())).toBe(true);
    expect(states.some((s) => s !== s.trim().toLowerCase())).toBe(true);
    const privates = new Set(items.filter((i) => i.private !== undefined).map((i) => JSON.stringify(i.private)));
    expect(privates.size, [...privates].join(' ')).toBeGreaterThan(3);
    expect(items.some((i) => ['TRUE', 'yes', 1, ' True ', 'on'].includes(i.private))).toBe(true);
    const dates = items.map((i) => i.publish_date).filter((d) => d !== null && d !== undefined);
    const extended = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    expect(dates.some((d) => typeof d === 'string' && extended.test(d))).toBe(true);
    expect(dates.some((d) => typeof d !== 'string' || !extended.test(d))).toBe(true);
    const locks = items.filter((i) => i.is_locked !== undefined && i.media?.length > 0).map((i) => i.is_locked);
    expect(locks.some((l) => l !== true && l !== false)).toBe(true);

    const currentItems = await list(leakyCurrent, 'press_releases');
    expect(currentItems.every((i) => i.private === true || i.private === false)).toBe(true);
  });
});
