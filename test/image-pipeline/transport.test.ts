/**
 * The download transport against the real emulator on 127.0.0.1: connections
 * pinned to addresses the host policy checked as they opened (DNS rebinding),
 * retries with full-jitter backoff and Retry-After (faults injected through the
 * emulator's admin path), and no https→http downgrade on redirect (a FetchLike
 * stub, since the emulator speaks plain http only). Made-up host names are
 * answered by a stub lookup; no real DNS is asked.
 */
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../content-loaders/client/transport.ts';
import { guardedDownload } from '../../image-pipeline/download.ts';
import { RefusedError } from '../../image-pipeline/errors.ts';
import { createHostPolicy, type LookupFn } from '../../image-pipeline/host-policy.ts';
import { createPinnedFetch, pinnedLookup } from '../../image-pipeline/pinned-fetch.ts';
import { useEmulator } from '../helpers/emulator.ts';
import { tempDir, testPipeline } from './helpers.ts';

const PUBLIC_ADDRESS = '93.184.215.14';

/** A lookup stub that records every name it is asked for. */
function recordingLookup(answer: (host: string, call: number) => string[]): LookupFn & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (host: string) => {
    calls.push(host);
    return answer(host, calls.filter((h) => h === host).length);
  };
  return Object.assign(lookup, { calls });
}

const emu = useEmulator({ frozenClock: true });

describe('download transport', () => {
  let cache: Awaited<ReturnType<typeof tempDir>>;
  /** Original URLs of demo images, one per test so no test sees another's cache or faults. */
  let originals: string[];

  beforeAll(async () => {
    cache = await tempDir('transport');
    const images = (await emu().json<{ data: Array<{ sizes: { original: { url: string } } }> }>('images?limit=8')).body.data;
    originals = images.map((image) => image.sizes.original.url);
    expect(new Set(originals).size).toBe(8);
  });

  afterAll(async () => {
    await cache?.remove();
  });

  const requestsFor = async (url: string) =>
    (
      await emu().admin<{ data: Array<{ status: number; fault: string | null }> }>(
        'GET',
        `/requests?path_prefix=${encodeURIComponent(new URL(url).pathname)}`,
      )
    ).body.data;

  /** `url` with its host replaced by a made-up name (the port stays the emulator's). */
  const renamed = (url: string, hostname: string) => {
    const u = new URL(url);
    u.hostname = hostname;
    return u.href;
  };

  describe('DNS rebinding', () => {
    it('refuses a host whose answer turns to 127.0.0.1 after the check, and fetches nothing', async () => {
      const original = originals[0]!;
      const lookup = recordingLookup((_host, call) => (call === 1 ? [PUBLIC_ADDRESS] : ['127.0.0.1']));
      // The API lives on loopback, but rebind.example is not listed: loopback is not for it.
      const p = testPipeline({ apiUrl: emu().url, cacheDir: cache.dir, lookup, retries: 2 });
      const url = renamed(original, 'rebind.example');
      expect(await p.downloadUrl(url, { title: 'Rebound' })).toBeNull();
      expect(p.refused()).toEqual([
        expect.objectContaining({
          url,
          kind: 'address',
          reason: expect.stringMatching(/host rebind\.example resolves to 127\.0\.0\.1, a loopback address/),
        }),
      ]);
      // Checked once before the request (public), once as the socket opened (loopback): refused there.
      expect(lookup.calls).toEqual(['rebind.example', 'rebind.example']);
      expect(p.stats()).toMatchObject({ downloads: 0, retries: 0, refused: 1 });
      expect(await requestsFor(original)).toEqual([]);
    });

    it('connects a listed host through the pinned lookup (the made-up name has no real DNS)', async () => {
      const original = originals[1]!;
      const lookup = recordingLookup((host) => (host === 'media.pinned.example' ? ['127.0.0.1'] : []));
      const p = testPipeline({ apiUrl: emu().url, cacheDir: cache.dir, lookup, imageHosts: ['media.pinned.example'] });
      const url = renamed(original, 'media.pinned.example');
      expect(await p.downloadUrl(url, { title: 'Pinned' })).toMatchObject({ type: 'JPEG image' });
      expect(p.refused()).toEqual([]);
      expect(lookup.calls).toEqual(['media.pinned.example', 'media.pinned.example']);
      expect(await requestsFor(original)).toEqual([expect.objectContaining({ status: 200 })]);
    });

    it('the pinned fetch refuses a literal loopback address by itself, with no check before it', async () => {
      const original = originals[2]!;
      const pinned = createPinnedFetch(createHostPolicy({ apiUrl: 'https://api.example.test', lookup: async () => [PUBLIC_ADDRESS] }));
      const failure = await pinned(original, { method: 'GET' }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.cause).toBeInstanceOf(RefusedError);
      expect((failure?.cause as RefusedError).kind).toBe('address');
      expect(await requestsFor(original)).toEqual([]);
    });

    it('the pinned fetch refuses a bracketed IPv6 loopback literal too', async () => {
      const pinned = createPinnedFetch(createHostPolicy({ apiUrl: 'https://api.example.test', lookup: async () => [PUBLIC_ADDRESS] }));
      const failure = await pinned('http://[::1]:65000/original.jpg', { method: 'GET' }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.cause).toBeInstanceOf(RefusedError);
      expect((failure?.cause as RefusedError).kind).toBe('address');
    });

    it("the pinned fetch refuses every spelling of the emulator's loopback address, and the emulator sees no request", async () => {
      const original = originals[2]!;
      const pinned = createPinnedFetch(createHostPolicy({ apiUrl: 'https://api.example.test', lookup: async () => [PUBLIC_ADDRESS] }));
      for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[64:ff9b::127.0.0.1]', '0x7f000001', '0177.0.0.1', '127.1']) {
        const failure = await pinned(renamed(original, host), { method: 'GET' }).then(
          () => undefined,
          (error: unknown) => error as Error,
        );
        expect(failure?.cause, host).toBeInstanceOf(RefusedError);
        expect((failure?.cause as RefusedError).kind, host).toBe('address');
      }
      expect(await requestsFor(original)).toEqual([]);
    });

    it('answers both shapes of dns.lookup with checked addresses only', async () => {
      const policy = createHostPolicy({
        apiUrl: 'https://api.example.test',
        lookup: async (host) => (host === 'dual.example' ? ['2606:4700::1111', PUBLIC_ADDRESS] : ['10.0.0.7']),
      });
      const lookup = pinnedLookup(policy);
      const ask = (host: string, options: { all?: boolean; family?: number }) =>
        new Promise<unknown[]>((resolve) => lookup(host, options, (error, address, family) => resolve([error, address, family])));
      expect(await ask('dual.example', { all: true })).toEqual([
        null,
        [
          { address: '2606:4700::1111', family: 6 },
          { address: PUBLIC_ADDRESS, family: 4 },
        ],
        undefined,
      ]);
      expect(await ask('dual.example', { family: 4 })).toEqual([null, PUBLIC_ADDRESS, 4]);
      const [error] = await ask('intranet.example', { all: true });
      expect(error).toBeInstanceOf(RefusedError);
      expect((error as RefusedError).message).toMatch(/10\.0\.0\.7, a private address/);
    });
  });

  describe('retries', () => {
    it('retries a 503 with Retry-After, waiting what the server asked, and counts the retry', async () => {
      const original = originals[3]!;
      await emu().admin('POST', '/faults', {
        route: new URL(original).pathname,
        kind: 'status',
        status: 503,
        retryAfterSeconds: 2,
        count: 1,
      });
      const waits: number[] = [];
      const p = testPipeline({
        apiUrl: emu().url,
        cacheDir: cache.dir,
        retries: 2,
        backoff: { random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
      });
      expect(await p.downloadUrl(original, { title: 'Flaky' })).toMatchObject({ type: 'JPEG image' });
      expect(waits).toEqual([2000]); // Retry-After beats the jitter (0.5 × 1000 ms)
      expect(p.stats()).toMatchObject({ retries: 1, downloads: 1, refused: 0 });
      expect((await requestsFor(original)).map((r) => [r.status, r.fault])).toEqual([
        [503, 'status:503'],
        [200, null],
      ]);
    });

    it('backs off with full jitter, shortens a long Retry-After to its cap, and gives up after the retries', async () => {
      const original = originals[4]!;
      const route = new URL(original).pathname;
      await emu().admin('POST', '/faults', { route, kind: 'status', status: 500, count: 2 });
      const waits: number[] = [];
      const backoff = {
        baseDelayMs: 100,
        maxDelayMs: 150,
        retryAfterCapMs: 300,
        random: () => 0.5,
        sleep: async (ms: number) => void waits.push(ms),
      };
      const p = testPipeline({ apiUrl: emu().url, cacheDir: cache.dir, retries: 2, backoff });
      expect(await p.downloadUrl(original, { title: 'Jitter' })).not.toBeNull();
      expect(waits).toEqual([50, 75]); // 0.5 × min(150, 100 × 2^n)

      const other = originals[5]!;
      await emu().admin('POST', '/faults', {
        route: new URL(other).pathname,
        kind: 'status',
        status: 429,
        retryAfterSeconds: 3600,
        count: 5,
      });
      waits.length = 0;
      const q = testPipeline({ apiUrl: emu().url, cacheDir: cache.dir, retries: 2, backoff });
      expect(await q.downloadUrl(other, { title: 'Limited' })).toBeNull();
      expect(waits).toEqual([300, 300]);
      expect(q.stats()).toMatchObject({ retries: 2, downloads: 0, refused: 1 });
      expect(q.refused()[0]).toMatchObject({ kind: 'http', reason: 'HTTP 429' });
      expect(await requestsFor(other)).toHaveLength(3);
      await emu().admin('DELETE', '/faults');
    });

    it('holds no limiter slot while a retry waits', async () => {
      const [waiting, passing] = [originals[6]!, originals[7]!];
      await emu().admin('POST', '/faults', {
        route: new URL(waiting).pathname,
        kind: 'status',
        status: 503,
        retryAfterSeconds: 1,
        count: 1,
      });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const p = testPipeline({ apiUrl: emu().url, cacheDir: cache.dir, retries: 1, limit: pLimit(1), backoff: { sleep: () => gate } });
      const first = p.downloadUrl(waiting, { title: 'Waiting' });
      // With one slot, this completes only if the waiting retry gave its slot back.
      expect(await p.downloadUrl(passing, { title: 'Passing' })).not.toBeNull();
      release();
      expect(await first).not.toBeNull();
      expect(p.stats()).toMatchObject({ retries: 1, downloads: 2 });
    });
  });

  describe('redirects', () => {
    const policy = createHostPolicy({ apiUrl: 'https://api.example.test', lookup: async () => [PUBLIC_ADDRESS] });

    /** A FetchLike that redirects `from` to `to` and records what it was asked for. */
    function redirecting(from: string, to: string): FetchLike & { asked: string[] } {
      const asked: string[] = [];
      const fetch: FetchLike = async (input) => {
        asked.push(input);
        if (input === from) return new Response(null, { status: 302, headers: { location: to } });
        return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), { status: 200 });
      };
      return Object.assign(fetch, { asked });
    }

    const download = (url: string, fetch: FetchLike) =>
      guardedDownload({ url, fetch, policy, maxBytes: 1_000, timeoutMs: 5_000, stallTimeoutMs: 5_000, tmpDir: cache.dir });

    it('refuses a redirect from https down to http, without requesting the http URL', async () => {
      const fetch = redirecting('https://cdn.example.test/a.jpg', 'http://cdn.example.test/a.jpg');
      const failure = await download('https://cdn.example.test/a.jpg', fetch).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RefusedError);
      expect(failure).toMatchObject({ kind: 'redirect', retryable: false, message: expect.stringMatching(/https→http downgrade/) });
      expect(fetch.asked).toEqual(['https://cdn.example.test/a.jpg']);
    });

    it.each([
      ['http to https', 'http://cdn.example.test/b.jpg', 'https://cdn.example.test/b.jpg'],
      ['https to https', 'https://cdn.example.test/c.jpg', 'https://media.example.test/c.jpg'],
      ['http to http', 'http://cdn.example.test/d.jpg', 'http://cdn.example.test/e.jpg'],
    ])('follows a redirect from %s', async (_label, from, to) => {
      const fetch = redirecting(from, to);
      const result = await download(from, fetch);
      expect(result).toMatchObject({ status: 'ok', finalUrl: to, bytes: 8 });
      expect(fetch.asked).toEqual([from, to]);
    });
  });
});
