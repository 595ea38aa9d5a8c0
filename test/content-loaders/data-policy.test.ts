/**
 * The upstream data policy, loader by loader, against the emulator behind a
 * proxy that rewrites its answers into what the live API is known to send:
 * older shapes are accepted without a word; an invalid optional value is
 * dropped, an unusable path replaced and an item that cannot stand skipped,
 * each with one warning naming collection, item, field and value; strict mode
 * and a mostly-invalid collection fail the load; and nothing that says it is
 * not public is stored, from any route.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/environment.ts';
import { DataPolicyError } from '../../content-loaders/data-policy/issues.ts';
import { recordSnapshot } from '../../content-loaders/snapshot/record-press-room.ts';
import type { CollectionName } from '../../content-loaders/sources/index.ts';
import { useEmulator } from '../helpers/emulator.ts';
import { plainText } from '../../content-loaders/data-policy/fallback-text.ts';
import { readBody } from '../../content-loaders/html/body-files.ts';
import { HTML_BOUNDS, MAX_TAGS, MAX_TAGS_PER_ITEM, TEXT_BOUNDS } from '../../content-loaders/data-policy/bounds.ts';
import { dataOf, loadAll, runtimeFor } from '../helpers/loader-context.ts';
import { startUpstreamProxy, type Rewrite, type UpstreamProxy } from '../helpers/upstream-proxy.ts';

const emulator = useEmulator({ frozenClock: true, seed: 1 });
let proxy: UpstreamProxy;
let tmp: string;
let runs = 0;

beforeAll(async () => {
  proxy = await startUpstreamProxy({ url: emulator().url, pressroomId: emulator().pressroom.id });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'data-policy-'));
});
afterAll(async () => {
  await proxy.close();
  await rm(tmp, { recursive: true, force: true });
});

const endpointOf = (p: string) => `/v1/pressrooms/${emulator().pressroom.id}/${p}`;

async function load(rewrite: Rewrite, only: CollectionName[], env: Record<string, string> = {}, stores = {}) {
  proxy.set(rewrite);
  const runtime = await runtimeFor(
    { PRESSROOM_API_URL: proxy.url, PRESSROOM_ID: String(emulator().pressroom.id), PRESSROOM_CONCURRENCY: '4', ...env },
    path.join(tmp, `http-${runs++}`),
  );
  return loadAll(runtime, stores, only);
}

/** `rewrite` for one path only; the first page of a list (or the single answer). */
const on =
  (target: string, change: (data: any) => any): Rewrite =>
  (p, data, page) =>
    p === target && page <= 1 ? change(data) : data;
const all =
  (...rewrites: Rewrite[]): Rewrite =>
  (p, data, page) =>
    rewrites.reduce((d, r) => r(p, d, page), data);
const entries = (store: { map: Map<string, { data: any }> }) => [...store.map.values()].map((e) => e.data);

describe('shapes the live API is known to send', () => {
  it('are accepted without a warning: null sizes, file-less renditions, empty strings, story, null clipping dates, Rails zones, tag_tree strings, embedded contacts, bare kits', async () => {
    const legacy = all(
      on('', (room) => {
        const { domain: _d, boilerplate_html: _b, ...rest } = room;
        return {
          ...rest,
          timezone: 'Amsterdam',
          tag_tree: JSON.stringify([{ id: 1, children: [] }]),
          logo: { small_url: room.logo.small_url, original_url: room.logo.original_url },
          pr_contacts: [{ id: 777001, name: 'Embedded Only', contact_info: 'press@embedded.example' }],
        };
      }),
      on('pr_contacts', (list) =>
        list.map((c: any, i: number) => {
          const { email: _e, phone: _p, job_title: _j, ...rest } = c;
          const avatar =
            i === 0
              ? { original: { width: null, height: null, url: c.avatar.original?.url ?? c.avatar.medium_square.url } }
              : { original: { width: null, height: null, url: null } };
          return { ...rest, avatar };
        }),
      ),
      on('press_releases', (list) =>
        list.map((r: any, i: number) => ({
          ...r,
          type: 'story',
          subtitle: '',
          summary: '',
          full_url: undefined,
          updated_at: undefined,
          reading_time: undefined,
          ...(i === 0 && {
            body_html: '',
            content_as_json: JSON.stringify([
              { type: 'header', data: { text: 'From 2015 blocks' } },
              { type: 'textarea', data: { body: '<p>Body of 2015.</p>' } },
            ]),
          }),
          ...(i === 1 && {
            body_html: '',
            content_as_json: JSON.stringify({ blocks: [{ type: 'text', data: { text: 'Body of 2016.', style: 'normal' } }] }),
          }),
          featured_images: r.featured_images.map((m: any) => ({
            ...m,
            file_size: undefined,
            transparent: undefined,
            sizes: { ...m.sizes, square: { width: '3000', height: '3000', url: m.sizes.square?.url ?? m.sizes.original.url } },
          })),
        })),
      ),
      on('clippings', (list) =>
        list.map((c: any, i: number) =>
          i === 0
            ? {
                ...c,
                release_date: null,
                alexa: null,
                sizes: { original: { width: null, height: null, url: c.sizes?.original?.url ?? null } },
              }
            : c,
        ),
      ),
      on('media_kits', (list) => list.map((k: any) => ({ id: k.id, title: k.title, media: k.media }))),
    );
    const run = await load(legacy, ['pressroom', 'prContacts', 'pressReleases', 'clippings', 'mediaKits']);
    expect(run.runtime.issues.warnings()).toEqual([]);

    const room = entries(run.stores.pressroom)[0];
    expect(room.timezone).toBe('Amsterdam');
    expect(room.logo).toMatchObject({ original_url: expect.stringMatching(/^http/), width: null, height: null });

    const contacts = entries(run.stores.prContacts);
    expect(contacts.map((c) => c.name)).toContain('Embedded Only');
    expect(contacts[0].avatar).toEqual({ original: { width: null, height: null, url: expect.stringMatching(/^http/) } });
    expect(
      contacts
        .filter((c) => c.id !== 777001)
        .slice(1)
        .every((c) => Object.keys(c.avatar).length === 0),
    ).toBe(true);

    const releases = entries(run.stores.pressReleases);
    const world = emulator().store().world.pressReleases;
    const byId = new Map(releases.map((r) => [r.id, r]));
    const listed = (await (
      await fetch(`${proxy.url}${endpointOf('press_releases')}?page=1&limit=100&includes=tags,featured_images,clippings`)
    ).json()) as { data: any[] };
    expect(releases).toHaveLength(listed.data.length);
    expect(releases.every((r) => r.subtitle === null && r.summary === null)).toBe(true);
    expect(await readBody(byId.get(listed.data[0].id).body)).toBe('<h2>From 2015 blocks</h2>\n<p>Body of 2015.</p>');
    expect(await readBody(byId.get(listed.data[1].id).body)).toBe('<p>Body of 2016.</p>');
    expect(world.length).toBeGreaterThan(0);

    const undated = entries(run.stores.clippings).find((c) => c.release_date === null);
    expect(undated).toBeDefined();
    expect(entries(run.stores.mediaKits).every((k) => k.permalink === null && k.category_id === null && k.description === null)).toBe(true);
  });
});

describe('one bad value does not stop the press room', () => {
  const broken = all(
    on('press_releases', (list) =>
      list.map((r: any, i: number) => {
        if (i === 0)
          return {
            ...r,
            featured_images: [{ ...r.featured_images[0], sizes: { original: { ...r.featured_images[0].sizes.original, width: 'wide' } } }],
          };
        // Includes keep only ids: a bad value inside an included clipping is the clippings collection's business.
        if (i === 1)
          return {
            ...r,
            clippings: [{ ...(r.clippings[0] ?? { id: 1, title: 'x', permalink: '/clippings/1-x' }), url: 'javascript:alert(1)' }],
          };
        if (i === 2) return { ...r, permalink: '/../../../etc/passwd' };
        if (i === 3) return { ...r, permalink: '' };
        if (i === 4) return { ...r, title: '', body_html: '', content_as_json: null };
        if (i === 5) return { ...r, title: '   ' };
        return r;
      }),
    ),
    on('clippings', (list) =>
      list.map((c: any, i: number) => (i === 0 ? { ...c, url: 'javascript:alert(1)' } : i === 1 ? { ...c, url: 'www dot example' } : c)),
    ),
    on('events', (list) => list.map((e: any, i: number) => (i === 0 ? { ...e, ends_at: 'soon' } : e))),
    on('images', (list) => list.map((m: any, i: number) => (i === 0 ? { ...m, file_size: -1 } : m))),
    on('pr_contacts', (list) =>
      list.map((c: any, i: number) => (i === 0 ? { ...c, urls: { ...c.urls, twitter: 'javascript:alert(1)' } } : c)),
    ),
    on('pages', (list) => list.map((p: any, i: number) => (i === 0 ? { ...p, slug: '../../x' } : p))),
  );
  const only: CollectionName[] = ['pressReleases', 'clippings', 'events', 'images', 'prContacts', 'pages'];
  let listed: any[];
  beforeAll(async () => {
    proxy.set(broken);
    listed = (
      (await (
        await fetch(`${proxy.url}${endpointOf('press_releases')}?page=1&limit=100&includes=tags,featured_images,clippings`)
      ).json()) as { data: any[] }
    ).data;
  });

  it('drops invalid optional values, replaces unusable paths, skips what cannot stand, and publishes the rest', async () => {
    const run = await load(broken, only);
    const releases = new Map(entries(run.stores.pressReleases).map((r) => [r.id, r]));
    expect(releases.size).toBe(listed.length - 1);
    expect(releases.has(listed[4].id)).toBe(false);

    expect(releases.get(listed[0].id).featured_images[0].sizes.original.width).toBeNull();
    expect(releases.get(listed[2].id)).toMatchObject({
      permalink: expect.stringMatching(new RegExp(`^/${listed[2].id}-[a-z0-9-]+$`)),
      unusable_permalink: '/../../../etc/passwd',
    });
    expect(releases.get(listed[3].id).permalink).toMatch(new RegExp(`^/${listed[3].id}-[a-z0-9-]+$`));
    const derived: string = releases.get(listed[5].id).title;
    expect(derived.length).toBeGreaterThan(11);
    expect(plainText(listed[5].body_html).startsWith(derived.replace(/…$/, ''))).toBe(true);

    const clippings = entries(run.stores.clippings);
    expect(clippings.filter((c) => c.url === null)).toHaveLength(2);
    expect(entries(run.stores.events).some((e) => e.ends_at === null)).toBe(true);
    expect(entries(run.stores.images).filter((m) => m.file_size === null)).toHaveLength(1);
    expect(entries(run.stores.prContacts)[0].urls.twitter).toBeNull();
    expect(entries(run.stores.pages).some((p) => /^[a-z0-9-]+$/.test(p.slug) && !p.slug.includes('..'))).toBe(true);

    const lines = run.logs.join('\n');
    expect(lines).toContain(`pressReleases: item ${listed[0].id} from ${endpointOf('press_releases')}`);
    expect(lines).toContain(`dropped 'featured_images.0.sizes.original.width'`);
    expect(lines).toContain('"wide"');
    expect(lines).toContain(`'permalink' "/../../../etc/passwd" cannot be used`);
    expect(lines).toMatch(new RegExp(`pressReleases: item ${listed[4].id} from .*: skipped, 'title' is required`));
    expect(lines).toContain(`"soon"`);
    expect(lines).toContain(`dropped 'file_size' (expected a whole number, not negative, got -1)`);
    expect(lines).toContain(`dropped 'urls.twitter'`);
    expect(lines).toContain(`'slug' "../../x" cannot be used`);

    const report = run.runtime.issues.report();
    expect(report.collections.pressReleases).toMatchObject({
      received: listed.length,
      fieldsDropped: 1,
      fieldsReplaced: 3,
      itemsSkipped: 1,
    });
    expect(report.collections.clippings).toMatchObject({ fieldsDropped: 2, itemsSkipped: 0 });
    expect(report.warnings.every((w) => w.collection && w.itemId && w.field && w.value)).toBe(true);
    expect(run.runtime.issues.summary()).toMatch(/^data policy: \d+ fields? dropped, 1 item skipped, 4 fields replaced/);
  });

  it('fails on the first warning in strict mode, before the store is touched', async () => {
    const clean = await load((_p, d) => d, ['pressReleases']);
    const stores = { pressReleases: clean.stores.pressReleases };
    const writes = stores.pressReleases.writes;
    const error = await load(broken, ['pressReleases'], { PRESSROOM_STRICT: '1' }, stores).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataPolicyError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^pressReleases: item ${listed[0].id} from ${endpointOf('press_releases')}.*'featured_images.0.sizes.original.width'.*PRESSROOM_STRICT`,
      ),
    );
    expect(stores.pressReleases.writes).toBe(writes);
    expect(stores.pressReleases.deletes).toBe(0);
  });

  it('fails when most of one collection needs repair: that is an API change, not one bad value', async () => {
    const error = await load(
      on('press_releases', (list) => list.map((r: any) => ({ ...r, permalink: `/${r.id}/../x` }))),
      ['pressReleases'],
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataPolicyError);
    expect((error as Error).message).toMatch(/^pressReleases: \d+ of \d+ items from the API needed repair .*probably changed shape/);
  });
});

describe('what is not public is never stored, whatever the API sends', () => {
  const future = '2099-01-01T00:00:00.000Z';
  const leak = all(
    on('press_releases', (list) => [
      ...list.map((r: any, i: number) =>
        i === 0
          ? {
              ...r,
              draft_content_as_json: '[{"type":"text","data":{"text":"DRAFT EDIT"}}]',
              clippings: [
                ...r.clippings,
                {
                  ...(r.clippings[0] ?? {}),
                  id: 990001,
                  title: 'PRIVATE clipping in includes',
                  permalink: '/clippings/990001-x',
                  url: 'https://x.example/',
                  private: true,
                },
              ],
              featured_images: [
                ...r.featured_images,
                { ...r.featured_images[0], id: 990002, title: 'DRAFT image in includes', state: 'draft' },
              ],
            }
          : r,
      ),
      { ...list[1], id: 990010, title: 'DRAFT release', permalink: '/990010-draft', state: 'draft' },
      { ...list[1], id: 990011, title: 'PRIVATE release', permalink: '/990011-private', private: true },
      { ...list[1], id: 990012, title: 'EMBARGOED release', permalink: '/990012-embargoed', release_date: future },
      { ...list[1], id: 990013, title: 'UNPUBLISHED release', permalink: '/990013-unpublished', state: 'unpublished' },
    ]),
    on('clippings', (list) => [...list, { ...list[0], id: 990020, title: 'PRIVATE clipping', private: 'true' }]),
    on('events', (list) => [...list, { ...list[0], id: 990030, title: 'PRIVATE event', private: true, live_event_id: null }]),
    on('pages', (list) => [
      ...list,
      { ...list[0], id: 990040, title: 'DRAFT page', slug: 'draft-page', permalink: '/pages/draft-page', state: 'draft' },
    ]),
    on('images', (list) => [...list, { ...list[0], id: 990050, title: 'DRAFT image', state: 'draft' }]),
    on('media_kits', (list) => [
      ...list,
      { ...list[0], id: 990060, title: 'Locked kit', is_locked: true, media: [{ ...list[0].media[0], title: 'LOCKED-KIT media' }] },
      { ...list[0], id: 990061, title: 'DRAFT kit', state: 'draft' },
    ]),
    on('media_kit_categories', (list) => [
      ...list,
      { ...list[0], id: 990070, name: 'EMBARGOED category', parent_id: null, embargo_date: future },
      { ...list[0], id: 990071, name: 'Child of EMBARGOED', parent_id: 990070 },
    ]),
    on('media_kit_categories/tree', (tree) => [
      ...tree,
      {
        ...tree[0],
        id: 990070,
        name: 'EMBARGOED category',
        embargo_date: future,
        children: [{ ...tree[0], id: 990071, name: 'Child of EMBARGOED', parent_id: 990070, children: [] }],
      },
    ]),
    on('timeline', (list) => [...list, { ...list[0], id: 990010, title: 'DRAFT release', state: 'draft' }]),
  );

  it('keeps drafts, private, embargoed and locked items out of every collection, counts them, and knows when the embargo lifts', async () => {
    const run = await load(leak, [
      'pressReleases',
      'clippings',
      'events',
      'pages',
      'images',
      'mediaKits',
      'mediaKitCategories',
      'timeline',
    ]);
    const stored = JSON.stringify(Object.values(run.stores).map(dataOf));
    for (const marker of ['DRAFT', 'PRIVATE', 'EMBARGOED', 'UNPUBLISHED', 'LOCKED-KIT']) expect(stored, marker).not.toContain(marker);
    // Ids as whole numbers: a stored body's file name is a hex digest that may hold these digits by chance.
    for (const id of ['99001\\d', '990061', '990070', '990071'])
      expect(stored, id).not.toMatch(new RegExp(`(?<![\\da-f])${id}(?![\\da-f])`));
    expect(run.stores.mediaKits.map.get('990060')?.data).toMatchObject({ title: 'Locked kit', media: [] });

    const report = run.runtime.issues.report();
    expect(report.collections.pressReleases?.hidden).toEqual({ draft: 2, private: 1, embargoed: 1 });
    expect(report.collections['pressReleases.clippings']?.hidden).toEqual({ private: 1 });
    expect(report.collections['pressReleases.featured_images']?.hidden).toEqual({ draft: 1 });
    expect(report.collections.clippings?.hidden).toEqual({ private: 1 });
    expect(report.collections.mediaKitCategories?.hidden).toEqual({ 'hidden-category': 2 });
    expect(report.collections['mediaKits.media']?.hidden).toEqual({ 'locked-media': 1 });
    expect(report.nextEmbargoLift).toBe(future);
    expect(report.warnings).toEqual([]);
    expect(run.logs.join('\n')).not.toMatch(/DRAFT|PRIVATE|EMBARGOED/);
  });

  it('keeps them out of a snapshot too: the recorded answers hold nothing that is not public, and build like the live API', async () => {
    proxy.set(leak);
    const dir = path.join(tmp, 'snapshot-leak');
    const env = { PRESSROOM_API_URL: proxy.url, PRESSROOM_ID: String(emulator().pressroom.id), PRESSROOM_CONCURRENCY: '4' };
    await recordSnapshot({ config: loadConfig(env), out: dir });
    for (const file of await readdir(path.join(dir, 'files'))) {
      const text = (await readFile(path.join(dir, 'files', file))).toString('latin1');
      for (const marker of ['DRAFT', 'PRIVATE', 'EMBARGOED', 'UNPUBLISHED', 'LOCKED-KIT', 'draft_content_as_json'])
        expect(text, `${file}: ${marker}`).not.toContain(marker);
    }
    const only: CollectionName[] = ['pressReleases', 'clippings', 'events', 'pages', 'images', 'mediaKits', 'mediaKitCategories'];
    const live = await load(leak, only);
    const replayed = await loadAll(await runtimeFor({ PRESSROOM_SNAPSHOT: dir }), {}, only);
    for (const name of only) expect(dataOf(replayed.stores[name]), name).toEqual(dataOf(live.stores[name]));
  });

  it('holds an embargo until the pinned build date (SOURCE_DATE_EPOCH), never lifts one early', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const rewrite = on('press_releases', (list) => [
      ...list,
      { ...list[1], id: 990090, title: 'Dated', permalink: '/990090-dated', release_date: past },
    ]);
    const pinned = await load(rewrite, ['pressReleases'], { SOURCE_DATE_EPOCH: String(Math.floor((Date.now() - 86_400_000) / 1000)) });
    expect(pinned.stores.pressReleases.map.has('990090')).toBe(false);
    const real = await load(rewrite, ['pressReleases']);
    expect(real.stores.pressReleases.map.has('990090')).toBe(true);
    const later = await load(
      on('press_releases', (list) => [...list, { ...list[1], id: 990091, title: 'Soon', permalink: '/990091-soon', release_date: soon }]),
      ['pressReleases'],
      {
        SOURCE_DATE_EPOCH: String(Math.floor(Date.now() / 1000) + 86_400),
      },
    );
    expect(later.stores.pressReleases.map.has('990091')).toBe(false);
  });
});

describe('visibility fails closed: other spellings of hidden, and signals that cannot be read', () => {
  const future = Date.parse('2099-01-01T00:00:00.000Z');
  const spelled = all(
    on('press_releases', (list) => [
      ...list.map((r: any, i: number) =>
        i === 0
          ? {
              ...r,
              featured_images: [...r.featured_images, { ...r.featured_images[0], id: 991001, title: 'SPELLED image', private: 'YES' }],
            }
          : r,
      ),
      { ...list[1], id: 991010, title: 'SPELLED draft', permalink: '/991010-x', state: ' Draft ' },
      { ...list[1], id: 991011, title: 'SPELLED private', permalink: '/991011-x', private: ' True' },
      { ...list[1], id: 991012, title: 'SPELLED unpublished', permalink: '/991012-x', published: 'no' },
      { ...list[1], id: 991013, title: 'SPELLED basic embargo', permalink: '/991013-x', release_date: '20990101T000000+01' },
      { ...list[1], id: 991014, title: 'SPELLED epoch ms', permalink: '/991014-x', release_date: future },
      { ...list[1], id: 991015, title: 'SPELLED epoch s', permalink: '/991015-x', release_date: String(future / 1000) },
      { ...list[1], id: 991020, title: 'UNREADABLE state', permalink: '/991020-x', state: { value: 'draft' } },
      { ...list[1], id: 991021, title: 'UNREADABLE embargo', permalink: '/991021-x', release_date: 'after the summit' },
    ]),
    on('clippings', (list) => [...list, { ...list[0], id: 991030, title: 'SPELLED private clipping', private: 'on' }]),
    on('media_kits', (list) => [
      ...list,
      {
        ...list[0],
        id: 991040,
        title: 'Kit locked in words',
        is_locked: 'YES',
        media: [{ ...list[0].media[0], title: 'SPELLED-LOCK media' }],
      },
      {
        ...list[0],
        id: 991041,
        title: 'Kit with an unreadable lock',
        is_password_protected: 'ask PR',
        media: [{ ...list[0].media[0], title: 'UNREADABLE-LOCK media' }],
      },
    ]),
  );
  const only: CollectionName[] = ['pressReleases', 'clippings', 'mediaKits'];

  it('keeps every one out, warns naming collection, item, field and value for the unreadable, and publishes the rest', async () => {
    const run = await load(spelled, only);
    const stored = JSON.stringify(Object.values(run.stores).map(dataOf));
    for (const marker of ['SPELLED', 'UNREADABLE', '99101', '99102', '991030']) expect(stored, marker).not.toContain(marker);
    expect(run.stores.mediaKits.map.get('991040')?.data).toMatchObject({ is_locked: true, media: [] });
    expect(run.stores.mediaKits.map.get('991041')?.data).toMatchObject({ is_password_protected: true, media: [] });
    expect(run.stores.pressReleases.map.size).toBeGreaterThan(10);

    const lines = run.logs.join('\n');
    expect(lines).toContain(
      `pressReleases: item 991020 from ${endpointOf('press_releases')}?includes=tags%2Cfeatured_images%2Cclippings: visibility field 'state' cannot be read (expected a state such as "published", got {"value":"draft"}); the item is kept out, the rest is published`,
    );
    expect(lines).toMatch(/pressReleases: item 991021 .*'release_date' cannot be read .*got "after the summit"/);
    expect(lines).toMatch(/mediaKits: item 991041 .*'is_password_protected' cannot be read .*got "ask PR"\); its media is kept out/);
    expect(lines).not.toMatch(/SPELLED|UNREADABLE/);

    const report = run.runtime.issues.report();
    expect(report.collections.pressReleases?.hidden).toEqual({ draft: 2, private: 1, embargoed: 3, unreadable: 2 });
    expect(report.collections['pressReleases.featured_images']?.hidden).toEqual({ private: 1 });
    expect(report.collections.clippings?.hidden).toEqual({ private: 1 });
    expect(report.collections['mediaKits.media']?.hidden).toEqual({ 'locked-media': 2 });
    // Collections load at once: their warnings interleave in any order.
    expect(report.warnings.map((w) => [w.kind, w.itemId, w.field]).sort()).toEqual([
      ['item-hidden', '991020', 'state'],
      ['item-hidden', '991021', 'release_date'],
      ['item-hidden', '991041', 'is_password_protected'],
    ]);
    expect(run.runtime.issues.summary()).toMatch(/non-public items kept out \(.*pressReleases 8 not public/);
  });

  it('fails in strict mode on the first signal that cannot be read', async () => {
    const error = await load(spelled, ['pressReleases'], { PRESSROOM_STRICT: '1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataPolicyError);
    expect((error as Error).message).toMatch(/^pressReleases: item 991020 .*'state' cannot be read.*PRESSROOM_STRICT/);
  });

  it('records none of them in a snapshot', async () => {
    proxy.set(spelled);
    const dir = path.join(tmp, 'snapshot-spelled');
    await recordSnapshot({
      config: loadConfig({ PRESSROOM_API_URL: proxy.url, PRESSROOM_ID: String(emulator().pressroom.id), PRESSROOM_CONCURRENCY: '4' }),
      out: dir,
    });
    for (const file of await readdir(path.join(dir, 'files'))) {
      const text = (await readFile(path.join(dir, 'files', file))).toString('latin1');
      for (const marker of ['SPELLED', 'UNREADABLE']) expect(text, `${file}: ${marker}`).not.toContain(marker);
    }
  });
});

describe('dates no calendar can carry', () => {
  it('skip an event that starts past the year 9999 and drop an end date past it, each with a warning', async () => {
    const run = await load(
      on('events', (list) =>
        list.map((e: any, i: number) =>
          i === 0 ? { ...e, starts_at: '+275760-09-13T00:00:00.000Z' } : i === 1 ? { ...e, ends_at: '+275760-09-13T00:00:00.000Z' } : e,
        ),
      ),
      ['events'],
    );
    const listed = (await (await fetch(`${proxy.url}${endpointOf('events')}?page=1&limit=100`)).json()) as { data: any[] };
    const [first, second] = listed.data;
    expect(run.stores.events.map.has(String(first.id))).toBe(false);
    expect(run.stores.events.map.get(String(second.id))?.data).toMatchObject({ ends_at: null });
    const lines = run.logs.join('\n');
    expect(lines).toMatch(new RegExp(`events: item ${first.id} .*skipped, 'starts_at' is required \\(expected a date in the years 1–9999`));
    expect(lines).toMatch(new RegExp(`events: item ${second.id} .*dropped 'ends_at' \\(expected a date in the years 1–9999`));
  });
});

describe('one key, one item', () => {
  it('publishes the first of two tags with one slug, skips the other with a warning, and publishes the rest', async () => {
    const run = await load(
      on('tags', (list) => [...list, { ...list[0], id: 993001, name: 'Same slug, other tag' }]),
      ['tags'],
    );
    const listed = (await (await fetch(`${proxy.url}${endpointOf('tags')}?page=1&limit=100`)).json()) as { data: any[] };
    expect(run.stores.tags.map.get(listed.data[0].slug)?.data).toMatchObject({ id: listed.data[0].id });
    expect(run.stores.tags.map.size).toBe(listed.data.length - 1);
    expect(run.logs.join('\n')).toMatch(
      new RegExp(
        `tags: item 993001 from .*: skipped \\(an earlier item of this collection is already published under "${listed.data[0].slug}"\\)`,
      ),
    );
  });

  it('skips an id past 2^53, where two ids the API sent as strings would read as one number', async () => {
    const run = await load(
      on('press_releases', (list) => [
        ...list,
        { ...list[1], id: '9007199254740993', title: 'Big id A', permalink: '/9007199254740993-a' },
        { ...list[1], id: '9007199254740992', title: 'Big id B', permalink: '/9007199254740992-b' },
      ]),
      ['pressReleases'],
    );
    expect(JSON.stringify(dataOf(run.stores.pressReleases))).not.toMatch(/Big id/);
    expect(run.stores.pressReleases.map.size).toBeGreaterThan(10);
    const lines = run.logs.join('\n');
    expect(lines).toMatch(/pressReleases: item 9007199254740993 .*skipped, 'id' is required \(expected an integer id below 2\^53/);
    expect(lines).toMatch(/pressReleases: item 9007199254740992 .*skipped, 'id' is required/);
  });
});

describe('a category tree no reader can place', () => {
  it('places every category at the top level when the tree is 1,000 levels deep, and still hides what is under a hidden one', async () => {
    const future = '2099-01-01T00:00:00.000Z';
    let deep: any = { id: 994000, name: 'Bottom', children: [] };
    for (let i = 1; i < 1_000; i++) deep = { id: 994000 + i, name: `Level ${i}`, children: [deep] };
    const run = await load(
      all(
        on('media_kit_categories/tree', () => [deep]),
        on('media_kit_categories', (list) => [
          ...list,
          { ...list[0], id: 994900, name: 'EMBARGOED parent', parent_id: null, embargo_date: future },
          { ...list[0], id: 994901, name: 'HIDDEN child', parent_id: 994900 },
          { ...list[0], id: 994902, name: 'HIDDEN grandchild', parent_id: 994901 },
        ]),
      ),
      ['mediaKitCategories'],
    );
    const categories = entries(run.stores.mediaKitCategories);
    expect(categories.length).toBeGreaterThan(3);
    expect(categories.every((c) => c.depth === 0)).toBe(true);
    expect(JSON.stringify(categories)).not.toMatch(/EMBARGOED|HIDDEN/);
    expect(run.logs.join('\n')).toMatch(
      /mediaKitCategories: .*media_kit_categories\/tree is not a readable tree \(nested more than 32 levels\)/,
    );
  });
});

describe('no single value multiplies the work', () => {
  it('cuts an over-long title and body and trims a release to 100 tags, each with a warning, and publishes it', async () => {
    const title = `${'Northwind '.repeat(60)}end`;
    const body = `<p>${'word '.repeat(250_000)}</p><p>tail</p>`;
    const run = await load(
      on('press_releases', (list) =>
        list.map((r: any, i: number) =>
          i === 0
            ? {
                ...r,
                title,
                body_html: body,
                tags: Array.from({ length: 150 }, (_, n) => ({ id: 995000 + n, slug: `t-${n}`, name: `T ${n}` })),
              }
            : r,
        ),
      ),
      ['pressReleases'],
    );
    const listed = (await (await fetch(`${proxy.url}${endpointOf('press_releases')}?page=1&limit=100`)).json()) as { data: any[] };
    const stored = run.stores.pressReleases.map.get(String(listed.data[0].id))!.data as any;
    expect(stored.title.length).toBeLessThanOrEqual(TEXT_BOUNDS.title!);
    expect(stored.title.endsWith('…')).toBe(true);
    expect(stored.tag_ids).toHaveLength(MAX_TAGS_PER_ITEM);
    const html = await readBody(stored.body);
    expect(html.length).toBeLessThanOrEqual(HTML_BOUNDS.body_html!);
    expect(html).not.toContain('tail');
    const lines = run.logs.join('\n');
    expect(lines).toMatch(/'title' .* cannot be used \(603 characters, more than 500\); cut to 500 characters/);
    expect(lines).toMatch(
      /'body_html' .* cannot be used \(1,250,018 characters, more than 1,000,000\); cut to its first 1,000,000 characters/,
    );
    expect(lines).toMatch(/'tags' .* cannot be used \(150 tags, more than 100\); the first 100 are kept/);
  });

  it('publishes and counts at most 2,000 tags of one press room, saying so once', async () => {
    let counted = 0;
    const run = await load(
      (p, data, page) => {
        if (p === 'tagged/press_releases/count') counted++;
        if (p !== 'tags') return data;
        return page <= 1
          ? Array.from({ length: 2_100 }, (_, n) => ({ ...data[0], id: 996000 + n, slug: `bulk-${n}`, name: `Bulk ${n}` }))
          : [];
      },
      ['tags'],
    );
    expect(run.stores.tags.map.size).toBe(MAX_TAGS);
    expect(counted).toBeLessThanOrEqual(MAX_TAGS);
    expect(run.logs.filter((l) => l.includes('more than 2,000'))).toHaveLength(1);
    expect(run.logs.join('\n')).toMatch(
      /tags: item \(100 tags\) from .*: skipped \(the press room has 2,100 tags, more than 2,000; the first 2,000 are published\)/,
    );
  }, 60_000);
});
