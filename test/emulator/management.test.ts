/**
 * Management operations change what the Read API shows at once, and every
 * public change reaches webhook subscribers, signed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.ts';

const emu = useEmulator({ seed: 3, frozenClock: true, webhookRetryDelaysMs: [20, 40, 80], embargoCheckMs: 50 });

async function manage(method: string, path: string, body?: unknown, key: string | null = emu().managementKey) {
  const res = await fetch(`${emu().url}${path}`, {
    method,
    headers: {
      ...(key && { authorization: `Bearer ${key}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const publicKitIds = async () => ((await emu().json('media_kits?limit=9999')).body.data as Array<{ id: number }>).map((k) => k.id);

/** A webhook receiver that records verified events; `failFirst` answers 500 that many times. */
interface Receiver {
  url: string;
  events: Array<{ type: string; data: any; id: string }>;
  attemptsById: Map<string, number>;
  failFirst: number;
  secret?: string;
}
const receiver: Receiver = { url: '', events: [], attemptsById: new Map(), failFirst: 0 };
let server: Server;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      receiver.attemptsById.set(id, (receiver.attemptsById.get(id) ?? 0) + 1);
      if (receiver.failFirst > 0) {
        receiver.failFirst--;
        res.writeHead(500).end();
        return;
      }
      const payload = new Webhook(receiver.secret!).verify(body, {
        'webhook-id': id,
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      }) as { type: string; data: unknown };
      receiver.events.push({ type: payload.type, data: payload.data, id });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function until<T>(probe: () => T | undefined, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('authorisation and scope', () => {
  it('answers 401 JSON without the management key or with a wrong one', async () => {
    for (const key of [null, 'wrong']) {
      const res = await manage('POST', '/v1/media_kits.json', { media_kit: { title: 'x', user_id: 1 } }, key);
      expect(res.status).toBe(401);
      expect(res.body.error.status).toBe(401);
    }
  });

  it('answers 501 JSON for CRM and collaboration operations', async () => {
    for (const [method, path] of [
      ['POST', '/v1/contacts.json'],
      ['GET', '/v1/removed_contacts.json'],
      ['PUT', '/v1/agents/3.json'],
      ['GET', '/v1/campaigns/1/distributions'],
      ['GET', '/v1/press_release/5/comments.json'],
    ] as const) {
      const res = await manage(method, path, method === 'GET' ? undefined : {});
      expect(res.status, path).toBe(501);
      expect(res.body.error.message).toMatch(/outside this product/);
    }
  });

  it('rejects invalid bodies with 422 naming the field', async () => {
    const res = await manage('POST', '/v1/media_kits.json', { media_kit: { user_id: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('media_kit[title]');
  });

  it('refuses a bad request whole: a 422 changes nothing, not even the fields that were valid', async () => {
    const release = (await emu().json('press_releases?limit=1&includes=tags')).body.data[0];
    const tagsBefore = (await emu().json('tags?limit=9999')).body.data.length;
    const campaign = await manage('PUT', `/v1/campaigns/${release.id}.json`, {
      campaign: { title: 'Half applied?', tags: ['Brand new tag'], featured_image_id: 999999999 },
    });
    expect(campaign.status).toBe(422);
    const shown = (await emu().json(`press_releases/${release.id}?includes=tags`)).body.data;
    expect(shown.title).toBe(release.title);
    expect(shown.tags).toEqual(release.tags);
    expect((await emu().json('tags?limit=9999')).body.data.length).toBe(tagsBefore);

    const kits = await publicKitIds();
    const kit = (await emu().json(`media_kits/${kits[0]}`)).body.data;
    const kitUpdate = await manage('PUT', `/v1/media_kits/${kit.id}.json`, {
      media_kit: { title: 'Half applied?', embargo_date: 'next tuesday' },
    });
    expect(kitUpdate.status).toBe(422);
    expect((await emu().json(`media_kits/${kit.id}`)).body.data.title).toBe(kit.title);
    const positions = await manage('PUT', '/v1/media_kits/update_positions.json', {
      media_kit_positions: [...kits].reverse().concat([999999999]),
    });
    expect(positions.status).toBe(422);
    expect(await publicKitIds()).toEqual(kits);

    const tree = (await emu().json('media_kit_categories/tree')).body.data as Array<{
      id: number;
      name: string;
      children: Array<{ id: number }>;
    }>;
    const parent = tree.find((c) => c.children.length > 0)!;
    const cycle = await manage('PUT', `/v1/media_kit_categories/${parent.id}.json`, {
      media_kit_category: { name: 'Half applied?', ancestry: String(parent.children[0]!.id) },
    });
    expect(cycle.status).toBe(422);
    expect((await emu().json(`media_kit_categories/${parent.id}`)).body.data.name).toBe(parent.name);
    const order = (await emu().json('media_kit_categories/tree')).body.data.map((c: { id: number }) => c.id);
    const categoryPositions = await manage('PUT', '/v1/media_kit_categories/update_positions.json', {
      media_kit_category_positions: [...order].reverse().concat([999999999]),
    });
    expect(categoryPositions.status).toBe(422);
    expect((await emu().json('media_kit_categories/tree')).body.data.map((c: { id: number }) => c.id)).toEqual(order);
  });
});

describe('media kits', () => {
  it('create → publish → update → unpublish → embargo → lift, visible at once in the Read API', async () => {
    const sub = await emu().admin('POST', '/webhooks', { url: receiver.url });
    receiver.secret = sub.body.data.secret;
    const created = await manage('POST', '/v1/media_kits.json', { media_kit: { title: 'Launch kit 2027', user_id: 7 } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect(await publicKitIds()).not.toContain(id);

    await manage('PUT', `/v1/media_kits/${id}/publish.json`);
    expect(await publicKitIds()).toContain(id);
    const published = await until(
      () => receiver.events.find((e) => e.type === 'media_kit.published' && e.data.id === id),
      'published event',
    );
    expect(published.data.pressroom_id).toBe(emu().pressroom.id);

    await manage('PUT', `/v1/media_kits/${id}.json`, { media_kit: { title: 'Launch kit 2027 (final)' } });
    expect((await emu().json(`media_kits/${id}`)).body.data.title).toBe('Launch kit 2027 (final)');
    await until(() => receiver.events.find((e) => e.type === 'media_kit.updated' && e.data.id === id), 'updated event');

    await manage('PUT', `/v1/media_kits/${id}/unpublish.json`);
    expect((await emu().json(`media_kits/${id}`)).status).toBe(404);
    await until(() => receiver.events.find((e) => e.type === 'media_kit.unpublished' && e.data.id === id), 'unpublished event');

    const clock = (await emu().admin('GET', '/clock')).body.data.now as string;
    const embargo = new Date(Date.parse(clock) + 3_600_000).toISOString();
    const embargoed = await manage('PUT', `/v1/media_kits/${id}/publish_under_embargo.json`, { embargo_date: embargo });
    expect(embargoed.status).toBe(200);
    expect(await publicKitIds()).not.toContain(id);
    const before = receiver.events.filter((e) => e.type === 'media_kit.published' && e.data.id === id).length;
    await emu().admin('POST', '/clock', { advance: '2h' });
    expect(await publicKitIds()).toContain(id);
    await until(
      () => (receiver.events.filter((e) => e.type === 'media_kit.published' && e.data.id === id).length > before ? true : undefined),
      'embargo lift event',
    );

    await manage('DELETE', `/v1/media_kits/${id}.json`);
    expect(await publicKitIds()).not.toContain(id);
    await emu().admin('DELETE', `/webhooks/${sub.body.data.id}`);
  });

  it('reorders kits and moves a kit to another category', async () => {
    const ids = await publicKitIds();
    const reversed = [...ids].reverse();
    expect((await manage('PUT', '/v1/media_kits/update_positions.json', { media_kit_positions: reversed })).status).toBe(200);
    expect(await publicKitIds()).toEqual(reversed);
    const tree = (await emu().json('media_kit_categories/tree')).body.data as Array<{ id: number; children: Array<{ id: number }> }>;
    const target = tree[tree.length - 1]!.id;
    const moved = await manage('PUT', `/v1/media_kits/${ids[0]}/update_category.json`, { category_id: target });
    expect(moved.status).toBe(200);
    const kits = (await emu().json(`media_kit_categories/${target}/media_kits?limit=9999`)).body.data as Array<{ id: number }>;
    expect(kits.map((k) => k.id)).toContain(ids[0]);
  });
});

describe('media kit categories', () => {
  it('creates a child category, publishes it, reorders, and deletes with and without destroy_children', async () => {
    const parent = await manage('POST', '/v1/media_kit_categories.json', {
      media_kit_category: { name: 'Press photos 2027', created_by: 1 },
    });
    expect(parent.status).toBe(201);
    const child = await manage('POST', '/v1/media_kit_categories.json', {
      media_kit_category: { name: 'Executives', created_by: 1, ancestry: String(parent.body.data.id) },
    });
    const grandchild = await manage('POST', '/v1/media_kit_categories.json', {
      media_kit_category: { name: 'Board', created_by: 1, ancestry: String(child.body.data.id) },
    });
    const [p, c, g] = [parent.body.data.id, child.body.data.id, grandchild.body.data.id] as number[];
    const treeText = async () => JSON.stringify((await emu().json('media_kit_categories/tree')).body);
    expect(await treeText()).not.toContain('Press photos 2027');
    for (const id of [c, g]) await manage('PUT', `/v1/media_kit_categories/${id}/publish.json`);
    expect(await treeText()).not.toContain('Executives');
    await manage('PUT', `/v1/media_kit_categories/${p}/publish.json`);
    const tree = (await emu().json('media_kit_categories/tree')).body.data as Array<any>;
    const node = tree.find((n) => n.id === p);
    expect(node.children.map((n: any) => n.id)).toEqual([c]);
    expect(node.children[0].children.map((n: any) => n.id)).toEqual([g]);

    const tops = tree.map((n) => n.id as number);
    const order = [p, ...tops.filter((id) => id !== p)];
    await manage('PUT', '/v1/media_kit_categories/update_positions.json', {
      media_kit_category_positions: order.map((id, i) => ({ id, position: i + 1 })),
    });
    expect(((await emu().json('media_kit_categories/tree')).body.data as Array<{ id: number }>).map((n) => n.id)).toEqual(order);

    expect((await manage('DELETE', `/v1/media_kit_categories/${c}.json`)).status).toBe(200);
    const afterLift = (await emu().json('media_kit_categories/tree')).body.data.find((n: any) => n.id === p);
    expect(afterLift.children.map((n: any) => n.id)).toEqual([g]);

    await manage('DELETE', `/v1/media_kit_categories/${p}.json?destroy_children=true`);
    expect(await treeText()).not.toContain('Board');
    expect((await emu().json(`media_kit_categories/${g}`)).status).toBe(404);
  });

  it('publishes a category under embargo and shows it once the clock passes', async () => {
    const made = await manage('POST', '/v1/media_kit_categories.json', {
      media_kit_category: { name: 'Embargoed brand assets', created_by: 1 },
    });
    const id = made.body.data.id as number;
    const clock = (await emu().admin('GET', '/clock')).body.data.now as string;
    await manage('PUT', `/v1/media_kit_categories/${id}.json`, {
      media_kit_category: { embargo_date: new Date(Date.parse(clock) + 60_000).toISOString() },
    });
    await manage('PUT', `/v1/media_kit_categories/${id}/publish_under_embargo.json`);
    expect((await emu().json(`media_kit_categories/${id}`)).status).toBe(404);
    await emu().admin('POST', '/clock', { advance: '2m' });
    expect((await emu().json(`media_kit_categories/${id}`)).status).toBe(200);
  });
});

describe('campaigns and embargoes', () => {
  it('updates a campaign and cancels it back to draft, which hides the release', async () => {
    const release = (await emu().json('press_releases?limit=1')).body.data[0];
    const res = await manage('PUT', `/v1/campaigns/${release.id}.json`, { campaign: { title: 'Updated headline', tags: ['Mobility'] } });
    expect(res.status).toBe(200);
    const shown = (await emu().json(`press_releases/${release.id}?includes=tags`)).body.data;
    expect(shown.title).toBe('Updated headline');
    expect(shown.tags.map((t: { name: string }) => t.name)).toContain('Mobility');
    await manage('PUT', `/v1/campaigns/${release.id}/cancel.json`);
    expect((await emu().json(`press_releases/${release.id}`)).status).toBe(404);
  });

  it('finds a release by its new title with q= after an update, and no longer by the old one', async () => {
    const release = (await emu().json('press_releases?limit=2')).body.data[1];
    const searchIds = async (q: string) =>
      ((await emu().json(`search/press_releases?limit=9999&q=${encodeURIComponent(q)}`)).body.data as Array<{ id: number }>).map(
        (r) => r.id,
      );
    // Search first, so the search text of every release is cached before the update.
    expect(await searchIds(release.title)).toContain(release.id);
    expect(await searchIds('Quetzalcoatlus')).toEqual([]);
    const res = await manage('PUT', `/v1/campaigns/${release.id}.json`, { campaign: { title: 'Quetzalcoatlus sightings' } });
    expect(res.status).toBe(200);
    expect(await searchIds('Quetzalcoatlus')).toEqual([release.id]);
    expect(await searchIds(release.title)).not.toContain(release.id);
  });

  it('announces an embargo lifting as the clock passes the release date, retrying a failing receiver', async () => {
    const sub = await emu().admin('POST', '/webhooks', { url: receiver.url, types: ['press_release.published'] });
    receiver.secret = sub.body.data.secret;
    const world = emu().store().world;
    const clockNow = Date.parse((await emu().admin('GET', '/clock')).body.data.now);
    const embargoed = world.pressReleases
      .filter((r) => r._state === 'published' && !r._private && r._visibleFrom && Date.parse(r._visibleFrom) > clockNow)
      .sort((a, b) => Date.parse(a._visibleFrom!) - Date.parse(b._visibleFrom!))[0]!;
    expect((await emu().json(`press_releases/${embargoed.id}`)).status).toBe(404);
    receiver.failFirst = 2;
    await emu().admin('POST', '/clock', { now: new Date(Date.parse(embargoed._visibleFrom!) + 1000).toISOString() });
    expect((await emu().json(`press_releases/${embargoed.id}`)).status).toBe(200);
    const event = await until(
      () => receiver.events.find((e) => e.type === 'press_release.published' && e.data.id === embargoed.id),
      'embargo event',
    );
    expect(event.data.permalink).toBe(embargoed.permalink);
    expect(receiver.attemptsById.get(event.id)).toBe(3);
    const log = (await emu().admin('GET', '/webhooks/deliveries')).body.data as Array<{
      msgId: string;
      attempts: unknown[];
      delivered: boolean;
    }>;
    const record = log.find((d) => d.msgId === event.id)!;
    expect(record.delivered).toBe(true);
    expect(record.attempts).toHaveLength(3);
  });
});

describe("the console's own edits (admin path)", () => {
  it('edits a release body, a clipping and an event in place, announced as updated; refuses internal fields and wrong types', async () => {
    const sub = await emu().admin('POST', '/webhooks', { url: receiver.url, types: ['press_release.updated', 'clipping.updated'] });
    receiver.secret = sub.body.data.secret;
    const release = (await emu().json('press_releases?limit=1')).body.data[0];
    const edited = await emu().admin('PATCH', `/items/press_release/${release.id}`, { body_html: '<p>Corrected body.</p>' });
    expect(edited.status).toBe(200);
    const shown = (await emu().json(`press_releases/${release.id}`)).body.data;
    expect(shown.body_html).toBe('<p>Corrected body.</p>');
    expect(shown.updated_at).not.toBe(release.updated_at);
    await until(() => receiver.events.find((e) => e.type === 'press_release.updated' && e.data.id === release.id), 'updated event');

    const clipping = (await emu().json('clippings?limit=1')).body.data[0];
    expect((await emu().admin('PATCH', `/items/clipping/${clipping.id}`, { title: 'A corrected headline' })).status).toBe(200);
    expect((await emu().json(`clippings/${clipping.id}`)).body.data.title).toBe('A corrected headline');
    await until(() => receiver.events.find((e) => e.type === 'clipping.updated' && e.data.id === clipping.id), 'clipping event');
    const event = (await emu().json('events?limit=1')).body.data[0];
    expect((await emu().admin('PATCH', `/items/event/${event.id}`, { location: 'Another hall' })).status).toBe(200);
    expect((await emu().json(`events/${event.id}`)).body.data.location).toBe('Another hall');

    for (const [object, fields] of [
      ['press_release', { _state: 'draft' }],
      ['press_release', { id: 1 }],
      ['press_release', { title: 42 }],
      ['press_release', { no_such_field: 'x' }],
      ['page', { title: 'x' }],
    ] as const) {
      const refused = await emu().admin('PATCH', `/items/${object}/${release.id}`, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(422);
    }
    expect((await emu().json(`press_releases/${release.id}`)).body.data.title).toBe(release.title);
    await emu().admin('DELETE', `/webhooks/${sub.body.data.id}`);
  });

  it('deletes a release for good, announced as unpublished', async () => {
    const sub = await emu().admin('POST', '/webhooks', { url: receiver.url, types: ['press_release.unpublished'] });
    receiver.secret = sub.body.data.secret;
    const release = (await emu().json('press_releases?limit=1')).body.data[0];
    expect((await emu().admin('DELETE', `/items/press_release/${release.id}`)).status).toBe(200);
    expect((await emu().json(`press_releases/${release.id}`)).status).toBe(404);
    expect(
      emu()
        .store()
        .world.pressReleases.some((r) => r.id === release.id),
    ).toBe(false);
    await until(() => receiver.events.find((e) => e.type === 'press_release.unpublished' && e.data.id === release.id), 'unpublished event');
    expect((await emu().admin('DELETE', `/items/press_release/${release.id}`)).status).toBe(422);
    await emu().admin('DELETE', `/webhooks/${sub.body.data.id}`);
  });
});

describe('reset', () => {
  it('regenerates the press room and clears faults and the request log', async () => {
    await emu().admin('POST', '/reset'); // earlier tests moved the clock; start from the demo instant
    const release = (await emu().json('press_releases?limit=1')).body.data[0];
    await manage('PUT', `/v1/campaigns/${release.id}/cancel.json`);
    await emu().admin('POST', '/faults', { route: '/v1/pressrooms/*/tags*', kind: 'status', status: 500 });
    const before = (await emu().admin('GET', '/requests')).body.data as Array<{ path: string }>;
    expect(before.some((e) => e.path.includes('/cancel'))).toBe(true);
    expect((await emu().json(`press_releases/${release.id}`)).status).toBe(404);
    const reset = await emu().admin('POST', '/reset');
    expect(reset.status).toBe(200);
    expect((await emu().json(`press_releases/${release.id}`)).status).toBe(200);
    expect((await emu().admin('GET', '/faults')).body.data).toEqual([]);
    expect((await emu().json('tags')).status).toBe(200);
    const log = (await emu().admin('GET', '/requests')).body.data as Array<{ path: string }>;
    expect(log.every((e) => !e.path.includes('/cancel'))).toBe(true);
  });
});
