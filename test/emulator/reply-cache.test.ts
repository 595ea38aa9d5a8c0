/**
 * Read API answers are kept while the press room stands still (emulator/http/reply-cache.ts), and
 * never once it moves: a change, the clock or a setting makes them anew.
 */
import { describe, expect, it } from 'vitest';
import { createReplyCache } from '../../emulator/http/reply-cache.ts';
import type { Reply } from '../../emulator/http/reply.ts';
import { useEmulator } from '../helpers/emulator.ts';

const reply = (status: number, body: string): Reply => ({ status, headers: {}, body: Buffer.from(body) });

describe('the reply cache', () => {
  it('makes an answer once per state, with its ETag, and starts over when the state moves', () => {
    const cache = createReplyCache();
    let made = 0;
    const make = () => reply(200, `answer ${++made}`);
    const first = cache.reply('state 1', '/releases?page=1', make);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(cache.reply('state 1', '/releases?page=1', make)).toBe(first);
    expect(made).toBe(1);
    expect(cache.reply('state 1', '/releases?page=2', make).body.toString()).toBe('answer 2');
    expect(cache.reply('state 2', '/releases?page=1', make).body.toString()).toBe('answer 3');
    expect(cache.reply('state 1', '/releases?page=1', make).body.toString()).toBe('answer 4');
  });

  it('keeps no error, and starts over past its size', () => {
    const cache = createReplyCache(10);
    let made = 0;
    expect(cache.reply('s', '/x', () => reply(404, `missing ${++made}`)).body.toString()).toBe('missing 1');
    expect(cache.reply('s', '/x', () => reply(404, `missing ${++made}`)).body.toString()).toBe('missing 2');
    cache.reply('s', '/big', () => reply(200, 'twelve bytes'));
    expect(cache.reply('s', '/big', () => reply(200, 'made again'))).toMatchObject({ body: Buffer.from('made again') });
  });
});

describe('the Read API', () => {
  const emu = useEmulator({ seed: 5, frozenClock: true, scale: 12 });

  it('answers a request again with the same bytes and ETag while nothing changes', async () => {
    const a = await emu().api('press_releases?limit=5');
    const b = await emu().api('press_releases?limit=5');
    expect(await b.text()).toBe(await a.text());
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    const notModified = await emu().api('press_releases?limit=5', { headers: { 'if-none-match': a.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
  });

  it('answers anew at once when a release changes, the clock moves or a setting is switched', async () => {
    const before = await emu().json('press_releases?limit=5');
    const release = before.body.data[0] as { id: number; title: string };
    const put = await fetch(`${emu().url}/v1/campaigns/${release.id}.json`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${emu().managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ campaign: { title: 'A title changed while cached' } }),
    });
    expect(put.status).toBe(200);
    const changed = await emu().json('press_releases?limit=5');
    expect((changed.body.data as Array<{ id: number; title: string }>).find((r) => r.id === release.id)?.title).toBe(
      'A title changed while cached',
    );
    expect(changed.headers.get('etag')).not.toBe(before.headers.get('etag'));

    const manage = (path: string, body: unknown) =>
      fetch(`${emu().url}${path}`, {
        method: path.endsWith('media_kits.json') ? 'POST' : 'PUT',
        headers: { authorization: `Bearer ${emu().managementKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((res) => res.json() as Promise<{ data: { id: number } }>);
    const kitIds = async () => ((await emu().json('media_kits?limit=9999')).body.data as Array<{ id: number }>).map((k) => k.id);
    const kit = (await manage('/v1/media_kits.json', { media_kit: { title: 'Kit under embargo', user_id: 7 } })).data.id;
    const now = Date.parse((await emu().admin('GET', '/clock')).body.data.now as string);
    await manage(`/v1/media_kits/${kit}/publish_under_embargo.json`, { embargo_date: new Date(now + 3_600_000).toISOString() });
    expect(await kitIds()).not.toContain(kit);
    await emu().admin('POST', '/clock', { advance: '2h' });
    expect(await kitIds()).toContain(kit);

    const current = await emu().api('press_releases?limit=5');
    await emu().admin('POST', '/settings', { shapes: 'legacy' });
    const legacy = await emu().api('press_releases?limit=5');
    expect(await legacy.text()).not.toBe(await current.text());
  });
});
