/**
 * Same seed, same bytes; faults injected through the admin path reach real
 * clients of the running emulator and are visible in the request log.
 */
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE, useEmulator } from '../helpers/emulator.ts';

const emu = useEmulator({ seed: 5, frozenClock: true });

describe('determinism', () => {
  it('gives the same bytes for the same seed, and different content for another seed', async () => {
    const routes = [
      '',
      'press_releases?limit=9999&includes=tags,featured_images,clippings',
      'media_kits?limit=9999',
      'timeline?limit=9999',
      'media_kit_categories/tree',
    ];
    const bodies = async (seed: number) => {
      const e = await startEmulator({ seed, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
      try {
        const texts = [];
        for (const route of routes) {
          const text = await (await fetch(`${e.url}/v1/pressrooms/${e.pressroom.id}/${route}`)).text();
          texts.push(text.replaceAll(e.url, 'ORIGIN'));
        }
        const image = JSON.parse(texts[1]!)
          .data.flatMap((r: any) => r.featured_images)[0]
          .sizes.square.url.replace('ORIGIN', e.url);
        texts.push(Buffer.from(await (await fetch(image)).arrayBuffer()).toString('base64'));
        return texts;
      } finally {
        await e.close();
      }
    };
    const [a, b, c] = [await bodies(11), await bodies(11), await bodies(12)];
    expect(a).toEqual(b);
    expect(c[1]).not.toEqual(a[1]);
  });
});

describe('faults through the admin path', () => {
  it('injects a 503 for the next two requests, then recovers, and logs each', async () => {
    const rule = await emu().admin('POST', '/faults', { route: '/v1/pressrooms/*/press_releases*', kind: 'status', status: 503, count: 2 });
    expect(rule.status).toBe(201);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await emu().api('press_releases?limit=1')).status);
    expect(statuses).toEqual([503, 503, 200]);
    const log = (await emu().admin('GET', '/requests?path_prefix=/v1/pressrooms')).body.data as Array<{
      status: number;
      fault: string | null;
    }>;
    expect(log.slice(-3).map((e) => [e.status, e.fault])).toEqual([
      [503, 'status:503'],
      [503, 'status:503'],
      [200, null],
    ]);
  });

  it('sends 429 with Retry-After, resets connections and truncates bodies, on media too', async () => {
    await emu().admin('POST', '/faults', { route: '/v1/pressrooms/*/tags*', kind: 'status', status: 429, retryAfterSeconds: 2, count: 1 });
    const limited = await emu().api('tags');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');

    await emu().admin('POST', '/faults', { route: '/v1/pressrooms/*/images*', kind: 'reset', count: 1 });
    await expect(emu().api('images')).rejects.toThrow();
    expect((await emu().api('images')).status).toBe(200);

    const image = (await emu().json('images?limit=1')).body.data[0];
    await emu().admin('POST', '/faults', { route: '/media/*', kind: 'truncate', count: 1 });
    await expect(fetch(image.sizes.original.url).then((r) => r.arrayBuffer())).rejects.toThrow();
    expect((await fetch(image.sizes.original.url)).status).toBe(200);
  });

  it('rejects an invalid fault rule with 422 naming the field', async () => {
    const res = await emu().admin('POST', '/faults', { route: '/v1/*', kind: 'explode' });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('kind');
  });

  it('records the key fingerprint, never the key', async () => {
    const secret = 'sk_live_do_not_log_me';
    await emu().api('tags?api_key=also-secret', { headers: { authorization: `Bearer ${secret}` } });
    const text = JSON.stringify((await emu().admin('GET', '/requests')).body);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('also-secret');
    const last = (await emu().admin('GET', '/requests?path_prefix=/v1/pressrooms')).body.data.at(-1);
    expect(last.auth).toBe('bearer');
    expect(last.keyFingerprint).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('read key', () => {
  it('requires the read key on /v1 when one is configured', async () => {
    const e = await startEmulator({ readKey: 'read-secret', cacheDir: TEST_MEDIA_CACHE });
    try {
      const url = `${e.url}/v1/pressrooms/${e.pressroom.id}/tags`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer read-secret' } })).status).toBe(200);
    } finally {
      await e.close();
    }
  });
});

describe('scale', () => {
  it('serves a 10,000-release press room and pages through it', async () => {
    const e = await startEmulator({ scale: 10_000, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    try {
      const base = `${e.url}/v1/pressrooms/${e.pressroom.id}/press_releases`;
      const first = (await (await fetch(`${base}?limit=9999`)).json()) as { data: unknown[] };
      const second = (await (await fetch(`${base}?limit=9999&page=2`)).json()) as { data: unknown[] };
      const visible = e
        .store()
        .world.pressReleases.filter(
          (r) => r._state === 'published' && !r._private && (!r._visibleFrom || r._visibleFrom <= e.store().clock.now().toISOString()),
        ).length;
      expect(first.data.length + second.data.length).toBe(visible);
      expect(visible).toBeGreaterThan(9_900);
    } finally {
      await e.close();
    }
  }, 60_000);
});
