/**
 * The Newsroom API client against the real emulator over HTTP (and a few tiny
 * misbehaving servers): paging without trusting `paging.total`, every fault
 * kind recovered, bounded retries, no retry on 4xx, the key reaching the
 * server and never an error, conditional requests, size and time bounds.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { createNewsroomClient } from '../../content-loaders/client/client.ts';
import type { NewsroomClientOptions } from '../../content-loaders/client/types.ts';
import { NewsroomApiError } from '../../content-loaders/client/errors.ts';
import { keyFingerprint } from '../../content-loaders/client/http-cache.ts';
import { backoffDelay, parseRetryAfter } from '../../content-loaders/client/retry.ts';

const KEY = 'sk_live_4f3e2d1c0b9a8877SECRETKEY';
const OTHER_KEY = 'sk_live_0000111122223333OTHERKEY';
const RELEASES = '/v1/pressrooms/*/press_releases*';
const PAGE = 25;

interface Release {
  id: number;
  title: string;
}

interface LogEntry {
  seq: number;
  path: string;
  query: Record<string, string>;
  status: number;
  auth: string;
  keyFingerprint: string | null;
  fault: string | null;
  ifNoneMatch: boolean;
}

let api: RunningEmulator;
let keyed: RunningEmulator;
let tmp: string;
let clean: Release[];
let trueCount: number;

async function admin<T = unknown>(emu: RunningEmulator, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.url}/_emulator${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  if (res.status >= 300) throw new Error(`admin ${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const fault = (rule: Record<string, unknown>, emu = api) => admin(emu, 'POST', '/faults', { route: RELEASES, ...rule });

async function logMark(emu = api): Promise<number> {
  const last = await admin<LogEntry[]>(emu, 'GET', '/requests?limit=1');
  return last[0]?.seq ?? 0;
}

async function logSince(mark: number, emu = api): Promise<LogEntry[]> {
  return admin<LogEntry[]>(emu, 'GET', `/requests?path_prefix=/v1/pressrooms&since=${mark}`);
}

function client(over: Partial<NewsroomClientOptions> = {}, emu = api) {
  return createNewsroomClient({
    baseUrl: emu.url,
    pressroomId: emu.pressroom.id,
    baseDelayMs: 2,
    maxDelayMs: 10,
    retryAfterCapMs: 20,
    timeoutMs: 5_000,
    stallTimeoutMs: 2_000,
    readAhead: 0,
    ...over,
  });
}

async function failure(promise: Promise<unknown>): Promise<NewsroomApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(NewsroomApiError);
    return error as NewsroomApiError;
  }
  throw new Error('expected a NewsroomApiError');
}

function fingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** Every way an error can end up in a log: none may contain the key. */
function expectNoSecret(error: unknown, secret: string): void {
  const e = error as Error;
  const views = [
    e.message,
    e.stack ?? '',
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    JSON.stringify(Object.fromEntries(Object.entries(e))),
  ];
  for (const view of views) expect(view).not.toContain(secret);
}

/** A tiny server on 127.0.0.1:0 for behaviour the emulator never shows. */
async function tinyServer(
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void,
): Promise<{ url: string; hits: URL[]; close: () => Promise<void> }> {
  const hits: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://tiny.invalid');
    hits.push(url);
    handler(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function items(from: number, count: number): Array<{ id: number; title: string }> {
  return Array.from({ length: Math.max(0, count) }, (_, i) => ({ id: from + i, title: `Item ${from + i}` }));
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pressroom-client-test-'));
  [api, keyed] = await Promise.all([
    startEmulator({ frozenClock: true, cacheDir: path.join(tmp, 'media') }),
    startEmulator({ frozenClock: true, cacheDir: path.join(tmp, 'media'), readKey: KEY }),
  ]);
  const everything = (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=9999`)).json()) as {
    data: Release[];
  };
  trueCount = everything.data.length;
  clean = await client().list<Release>('press_releases', {}, { limit: PAGE });
});

afterEach(async () => {
  await admin(api, 'DELETE', '/faults');
  await admin(keyed, 'DELETE', '/faults');
});

afterAll(async () => {
  await Promise.all([api?.close(), keyed?.close()]);
  await rm(tmp, { recursive: true, force: true });
});

describe('paging', () => {
  it('the clean run has every release exactly once, in the server order', async () => {
    expect(trueCount).toBeGreaterThan(2 * PAGE); // at least three pages
    const everything = (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=9999`)).json()) as {
      data: Release[];
    };
    expect(clean.map((r) => r.id)).toEqual(everything.data.map((r) => r.id));
    expect(new Set(clean.map((r) => r.id)).size).toBe(trueCount);
  });

  it('does not trust paging.total (it equals the limit) and stops on the short page', async () => {
    const first = (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?page=1&limit=10`)).json()) as {
      paging: { total: number };
    };
    expect(first.paging.total).toBe(10); // the lie
    const mark = await logMark();
    const c = client();
    const all = await c.list<Release>('press_releases', {}, { limit: 10 });
    expect(all).toEqual(clean);
    const pages = (await logSince(mark)).map((e) => Number(e.query.page));
    expect(pages).toEqual(Array.from({ length: Math.ceil(trueCount / 10) }, (_, i) => i + 1));
    expect(c.stats()).toMatchObject({ requests: pages.length, items: trueCount, pages: pages.length, retries: 0 });
  });

  it('with a limit that divides the count exactly, ends on the empty page after the last full one', async () => {
    const divisor =
      [...Array(trueCount).keys()].map((i) => trueCount - i).find((d) => d < trueCount && trueCount % d === 0 && trueCount / d >= 2) ??
      trueCount;
    const mark = await logMark();
    const all = await client().list<Release>('press_releases', {}, { limit: divisor });
    expect(all).toEqual(clean);
    const log = await logSince(mark);
    expect(log.map((e) => Number(e.query.page))).toEqual(Array.from({ length: trueCount / divisor + 1 }, (_, i) => i + 1));
    expect(log.every((e) => e.query.limit === String(divisor))).toBe(true);
  });

  it('gives the same answer when the server tells the true total', async () => {
    await admin(api, 'POST', '/settings', { trueTotals: true });
    try {
      const first = (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=10`)).json()) as {
        paging: { total: number };
      };
      expect(first.paging.total).toBe(trueCount);
      let active = 0;
      let peak = 0;
      const counting: NewsroomClientOptions['fetch'] = async (input, init) => {
        peak = Math.max(peak, ++active);
        try {
          const response = await fetch(input, init);
          return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
        } finally {
          active--;
        }
      };
      await fault({ kind: 'latency', latencyMs: 30 });
      const mark = await logMark();
      expect(await client({ fetch: counting }).list<Release>('press_releases', {}, { limit: PAGE })).toEqual(clean);
      // Believed: every page up to the short one asked for at once (read-ahead is 0 here), none past it.
      const pages = (await logSince(mark)).map((e) => Number(e.query.page)).sort((a, b) => a - b);
      expect(pages).toEqual(Array.from({ length: Math.floor(trueCount / PAGE) + 1 }, (_, i) => i + 1));
      expect(peak).toBe(pages.length - 1);
    } finally {
      await admin(api, 'POST', '/settings', { trueTotals: false });
    }
  });

  it('starts at page 1; starting at 0 on a server where 0 and 1 are alike skips the echo', async () => {
    const base = `${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=${PAGE}`;
    const p0 = (await (await fetch(`${base}&page=0`)).json()) as { data: Release[] };
    const p1 = (await (await fetch(`${base}&page=1`)).json()) as { data: Release[] };
    expect(p0.data).toEqual(p1.data);

    let mark = await logMark();
    await client().list('press_releases', {}, { limit: PAGE });
    expect((await logSince(mark))[0]?.query.page).toBe('1');

    mark = await logMark();
    const fromZero = await client({ firstPage: 0 }).list<Release>('press_releases', {}, { limit: PAGE });
    expect(fromZero).toEqual(clean);
    expect((await logSince(mark)).map((e) => e.query.page)).toEqual(['0', '1', '2', '3']);
  });

  it('pages a zero-based server from page 0 when told to', async () => {
    const total = 23;
    const tiny = await tinyServer((_req, res, url) => {
      const page = Number(url.searchParams.get('page') ?? 0);
      const limit = Number(url.searchParams.get('limit'));
      const data = items(page * limit + 1, Math.min(limit, total - page * limit));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, paging: { page, limit, total: limit } }));
    });
    try {
      const all = await createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, firstPage: 0, pageLimit: 10 }).list<{ id: number }>(
        'clippings',
      );
      expect(all.map((i) => i.id)).toEqual(items(1, total).map((i) => i.id));
    } finally {
      await tiny.close();
    }
  });

  it('reads ahead without changing the result, and waits for every request it started', async () => {
    const mark = await logMark();
    const c = client({ readAhead: 3, concurrency: 4 });
    expect(await c.list<Release>('press_releases', {}, { limit: 10 })).toEqual(clean);
    const afterList = await logSince(mark);
    const pagesNeeded = Math.floor(trueCount / 10) + 1;
    expect(afterList.length).toBeGreaterThanOrEqual(pagesNeeded);
    expect(afterList.length).toBeLessThanOrEqual(pagesNeeded + 3);
    expect(c.stats().requests).toBe(afterList.length); // nothing still in flight
  });

  it('fails clearly when the server repeats a page (ignores `page`)', async () => {
    const tiny = await tinyServer((_req, res, url) => {
      const limit = Number(url.searchParams.get('limit'));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: items(1, limit), paging: { page: 0, limit, total: limit } }));
    });
    try {
      const error = await failure(createNewsroomClient({ baseUrl: tiny.url, pressroomId: 7, readAhead: 0 }).list('press_releases'));
      expect(error.kind).toBe('repeated-page');
      expect(error.message).toBe(
        'GET /v1/pressrooms/7/press_releases?page=2&limit=100 failed: page 2 repeats page 1 (the same 100 items) — the server seems to ignore the "page" parameter; stopped instead of looping forever — check the apiUrl option points at a Newsroom API',
      );
      expect(tiny.hits).toHaveLength(2);
    } finally {
      await tiny.close();
    }
  });

  it('fails clearly when a server cycles through pages', async () => {
    const tiny = await tinyServer((_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: items(page % 2 === 1 ? 1 : 1 + limit, limit) }));
    });
    try {
      const error = await failure(createNewsroomClient({ baseUrl: tiny.url, pressroomId: 7, pageLimit: 5 }).list('press_releases'));
      expect(error.kind).toBe('repeated-page');
      expect(error.message).toContain('page 3 holds only items of earlier pages');
    } finally {
      await tiny.close();
    }
  });

  it('stops at the page ceiling', async () => {
    const error = await failure(client({ maxPages: 2 }).list('press_releases', {}, { limit: 10 }));
    expect(error.kind).toBe('page-ceiling');
    expect(error.message).toContain('press_releases?page=3&limit=10 failed: the list goes on past 2 pages of 10');
  });

  it('says so when a path is not a list', async () => {
    const error = await failure(client().list(''));
    expect(error.kind).toBe('bad-envelope');
    expect(error.message).toContain('expected a list in "data", got object');
  });

  it('rejects paths that could escape the press room', async () => {
    const c = client();
    await expect(c.get('../../_emulator')).rejects.toThrow(TypeError);
    await expect(c.get('media_kits/1?x=1')).rejects.toThrow(TypeError);
    expect(() => c.pages('press_releases', { page: 2 })).toThrow(/set "page" and "limit" themselves/);
  });
});

describe('faults are retried and the data is the same as a clean run', () => {
  const kinds: Array<[string, Record<string, unknown>, Partial<NewsroomClientOptions>]> = [
    ['status 500', { kind: 'status', status: 500 }, {}],
    ['status 502', { kind: 'status', status: 502 }, {}],
    ['status 503', { kind: 'status', status: 503, retryAfterSeconds: 0 }, {}],
    ['status 504', { kind: 'status', status: 504 }, {}],
    ['reset', { kind: 'reset' }, {}],
    ['stall', { kind: 'stall' }, { stallTimeoutMs: 200 }],
    ['truncate', { kind: 'truncate' }, {}],
    ['latency past the timeout', { kind: 'latency', latencyMs: 2_000 }, { timeoutMs: 300 }],
  ];

  it.each(kinds)('%s', async (_name, rule, options) => {
    await fault({ ...rule, count: 2 });
    const mark = await logMark();
    const c = client(options);
    const all = await c.list<Release>('press_releases', {}, { limit: PAGE });
    expect(all).toEqual(clean);
    expect(c.stats()).toMatchObject({ retries: 2, errors: 0 });
    const log = await logSince(mark);
    expect(log.filter((e) => e.fault !== null)).toHaveLength(2);
    expect(log).toHaveLength(Math.ceil(trueCount / PAGE) + 2);
  });

  it('latency below the timeout needs no retry', async () => {
    await fault({ kind: 'latency', latencyMs: 40, count: 2 });
    const c = client();
    expect(await c.list<Release>('press_releases', {}, { limit: PAGE })).toEqual(clean);
    expect(c.stats().retries).toBe(0);
  });

  it('status 429 honours Retry-After (seconds), up to the cap', async () => {
    await fault({ kind: 'status', status: 429, retryAfterSeconds: 1, count: 2 });
    const slept: number[] = [];
    const c = client({ retryAfterCapMs: 5_000, sleep: async (ms) => void slept.push(ms) });
    expect(await c.list<Release>('press_releases', {}, { limit: PAGE })).toEqual(clean);
    expect(slept).toEqual([1_000, 1_000]);

    await fault({ kind: 'status', status: 429, retryAfterSeconds: 3600, count: 1 });
    slept.length = 0;
    const capped = client({ retryAfterCapMs: 250, sleep: async (ms) => void slept.push(ms) });
    expect(await capped.list<Release>('press_releases', {}, { limit: PAGE })).toEqual(clean);
    expect(slept).toEqual([250]);
  });

  it('a fault on every other request (rate) is still recovered', async () => {
    await fault({ kind: 'status', status: 503, retryAfterSeconds: 0, rate: 0.3 });
    const c = client({ retries: 8 });
    expect(await c.list<Release>('press_releases', {}, { limit: 10 })).toEqual(clean);
    expect(c.stats().retries).toBeGreaterThan(0);
  });
});

describe('bounded retries and clear failures', () => {
  it('a persistent 503 ends after 5 attempts with a one-line NewsroomApiError', async () => {
    await fault({ kind: 'status', status: 503, retryAfterSeconds: 0 });
    const mark = await logMark();
    const c = client();
    const error = await failure(c.list('press_releases', {}, { limit: PAGE }));
    expect(error).toMatchObject({
      kind: 'http',
      status: 503,
      attempts: 5,
      endpoint: `/v1/pressrooms/${api.pressroom.id}/press_releases?page=1&limit=25`,
    });
    expect(error.message).toBe(
      `GET /v1/pressrooms/${api.pressroom.id}/press_releases?page=1&limit=25 failed after 5 attempts: HTTP 503 Service Unavailable ("Service Unavailable (injected fault)") — the API is unavailable; retry later or lower the concurrency option`,
    );
    expect(error.message).not.toMatch(/\n/);
    expect(await logSince(mark)).toHaveLength(5);
    expect(c.stats()).toMatchObject({ requests: 5, retries: 4, errors: 1 });
  });

  it('a persistent reset ends as a network error after the configured attempts', async () => {
    await fault({ kind: 'reset' });
    const error = await failure(client({ retries: 2 }).get('press_releases'));
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/failed after 3 attempts: network error \(.+\) — could not reach the API; check the apiUrl option/);
  });

  it('a persistent stall ends as a stall', async () => {
    await fault({ kind: 'stall' });
    const error = await failure(client({ retries: 1, stallTimeoutMs: 80 }).get('press_releases'));
    expect(error).toMatchObject({ kind: 'stall', attempts: 2 });
    expect(error.message).toContain('the response stalled (no body bytes for 80 ms)');
  });

  it.each([
    ['404', 'media_kits/987654321', {}, 404],
    ['422 (unknown tag)', 'search', { tags: 'no-such-tag-anywhere' }, 422],
    ['400 (malformed parameter)', 'press_releases', { limit: 0 }, 400],
  ] as const)('no retry on %s', async (_name, p, query, status) => {
    const mark = await logMark();
    const c = client();
    const error = await failure(c.get(p, query));
    expect(error).toMatchObject({ kind: 'http', status, attempts: 1, retryable: false });
    expect(error.message).toMatch(new RegExp(`failed after 1 attempt: HTTP ${status} `));
    expect(await logSince(mark)).toHaveLength(1);
    expect(c.stats().retries).toBe(0);
  });

  it('an unknown press room is a 404 that names the pressroomId option', async () => {
    const error = await failure(createNewsroomClient({ baseUrl: api.url, pressroomId: 'no-such.pr.example' }).get(''));
    expect(error.status).toBe(404);
    expect(error.message).toContain('or the pressroomId option (numeric id or domain) or the apiUrl option is wrong');
  });

  it('a cancelled call ends at once as "aborted", without more attempts', async () => {
    await fault({ kind: 'latency', latencyMs: 2_000 });
    const mark = await logMark();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const error = await failure(client().list('press_releases', {}, { limit: PAGE, signal: controller.signal }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
    expect(error.message).toContain('cancelled by the caller');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await logSince(mark)).toHaveLength(1);
  });

  it('an unreachable API is a network error naming the apiUrl option', async () => {
    const tiny = await tinyServer(() => undefined);
    const url = tiny.url;
    await tiny.close();
    const error = await failure(createNewsroomClient({ baseUrl: url, pressroomId: 1, retries: 1, baseDelayMs: 1 }).get(''));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('the API key', () => {
  it('reaches the server as a bearer token (request log fingerprint)', async () => {
    const mark = await logMark(keyed);
    const c = client({ apiKey: KEY }, keyed);
    const all = await c.list<Release>('press_releases', {}, { limit: PAGE });
    expect(all.map((r) => r.id)).toEqual(clean.map((r) => r.id)); // same seed; media URLs differ by origin
    const log = await logSince(mark, keyed);
    expect(log.length).toBeGreaterThan(0);
    for (const entry of log) expect(entry).toMatchObject({ auth: 'bearer', keyFingerprint: fingerprint(KEY), status: 200 });
  });

  it('without or with a wrong key: 401, not retried, names the apiKey option, never shows the key', async () => {
    const none = await failure(client({}, keyed).get(''));
    expect(none).toMatchObject({ status: 401, attempts: 1 });
    expect(none.message).toContain('the apiKey option');
    const wrong = await failure(client({ apiKey: OTHER_KEY }, keyed).get(''));
    expect(wrong).toMatchObject({ status: 401, attempts: 1 });
    expectNoSecret(wrong, OTHER_KEY);
  });

  it('never appears in errors of any kind, nor on the client or its stats', async () => {
    const errors: unknown[] = [];
    const c = client({ apiKey: KEY, retries: 1, stallTimeoutMs: 80 }, keyed);
    await fault({ kind: 'status', status: 503, retryAfterSeconds: 0 }, keyed);
    errors.push(await failure(c.get('press_releases')));
    await admin(keyed, 'DELETE', '/faults');
    await fault({ kind: 'reset' }, keyed);
    errors.push(await failure(c.get('press_releases')));
    await admin(keyed, 'DELETE', '/faults');
    await fault({ kind: 'stall' }, keyed);
    errors.push(await failure(c.get('press_releases')));
    await admin(keyed, 'DELETE', '/faults');
    errors.push(await failure(client({ apiKey: KEY, maxResponseBytes: 200 }, keyed).get('press_releases'))); // too large
    errors.push(await failure(c.get('media_kits/987654321'))); // 404
    const tiny = await tinyServer(() => undefined);
    await tiny.close();
    errors.push(await failure(createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, apiKey: KEY, retries: 0 }).get(''))); // refused
    expect(errors.map((e) => (e as NewsroomApiError).kind)).toEqual(['http', 'network', 'stall', 'too-large', 'http', 'network']);
    for (const error of errors) expectNoSecret(error, KEY);
    expect(inspect(c, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(c.stats())).not.toContain(KEY);
  });
});

describe('conditional requests with the on-disk cache', () => {
  it('prunes HTTP cache entries no build has used for the given age, keeping the ones this build used', async () => {
    const cacheDir = path.join(tmp, 'http-cache-prune');
    await client({ cacheDir }).get('tags');
    await client({ cacheDir }).get('');
    const entries = async () => (await readdir(cacheDir)).sort();
    const [a, b] = await entries();
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    for (const name of [a!, b!]) await utimes(path.join(cacheDir, name), longAgo, longAgo);
    const later = client({ cacheDir });
    await later.get('tags'); // a 304: this build uses one of the two entries
    expect(later.stats().notModified).toBe(1);
    expect(await later.pruneCache(30 * 86_400_000)).toMatchObject({ files: 1 });
    const [kept] = await entries();
    expect(await entries()).toHaveLength(1);
    expect((await stat(path.join(cacheDir, kept!))).mtimeMs).toBeGreaterThan(longAgo.getTime() + 86_400_000);
    expect((await client({ cacheDir }).pruneCache(30 * 86_400_000)).files).toBe(0);
    expect(await client().pruneCache(0)).toEqual({ files: 0, bytes: 0 });
  });

  it('a second run with the same cacheDir gets 304s only, and the same data', async () => {
    const cacheDir = path.join(tmp, 'http-cache');
    const run = async (c: ReturnType<typeof client>) => {
      const kits = await c.list<{ id: number }>('media_kits');
      expect(kits.length).toBeGreaterThan(0);
      return {
        releases: await c.list<Release>('press_releases', {}, { limit: PAGE }),
        pressroom: await c.get<{ id: number }>(''),
        tags: await c.list('tags'),
        kits,
        kit: await c.get(`media_kits/${kits[0]!.id}`),
      };
    };

    const first = client({ cacheDir, readAhead: 2 });
    const mark1 = await logMark();
    const one = await run(first);
    expect(one.releases).toEqual(clean);
    const log1 = await logSince(mark1);
    expect(log1.every((e) => e.status === 200 && !e.ifNoneMatch)).toBe(true);
    expect(first.stats()).toMatchObject({ notModified: 0 });
    expect(first.stats().cache?.stores).toBe(log1.length);

    const second = client({ cacheDir, readAhead: 2 });
    const mark2 = await logMark();
    const two = await run(second);
    expect(two).toEqual(one);
    // The answers a build used (its no-change fingerprint) are the same whether fetched or revalidated.
    expect(second.answers()).toEqual(first.answers());
    const log2 = await logSince(mark2);
    expect(log2.length).toBe(log1.length);
    expect(log2.every((e) => e.status === 304 && e.ifNoneMatch)).toBe(true);
    const stats = second.stats();
    expect(stats.notModified).toBe(stats.requests);
    expect(stats.requests).toBe(log2.length);
    expect(stats.bytes).toBe(0);
    expect(stats.byGroup.press_releases?.notModified).toBeGreaterThan(0);

    // Another key never shares entries.
    const mark3 = await logMark();
    await client({ cacheDir, apiKey: OTHER_KEY }).get('');
    expect((await logSince(mark3)).map((e) => e.ifNoneMatch)).toEqual([false]);

    // Damaged entries read as misses, never as data.
    for (const name of await readdir(cacheDir)) await writeFile(path.join(cacheDir, name), 'garbage');
    const third = client({ cacheDir });
    expect(await third.list<Release>('press_releases', {}, { limit: PAGE })).toEqual(clean);
    expect(third.stats()).toMatchObject({ notModified: 0 });
    expect(third.stats().cache?.damaged).toBeGreaterThan(0);
  });

  it('cache files hold neither the key nor its fingerprint', async () => {
    const cacheDir = path.join(tmp, 'http-cache-keyed');
    await client({ cacheDir, apiKey: KEY }, keyed).get('');
    const names = await readdir(cacheDir);
    expect(names.length).toBe(1);
    const { readFile } = await import('node:fs/promises');
    const content = await readFile(path.join(cacheDir, names[0]!), 'utf8');
    expect(content).not.toContain(KEY);
    // The cache's own salted fingerprint (it names the entry's key space; it must not be stored either).
    expect(content).not.toContain(keyFingerprint(KEY));
    expect(content).not.toContain(fingerprint(KEY));
    expect(names[0]).not.toContain(keyFingerprint(KEY));
  });
});

describe('bounds: size, JSON, concurrency', () => {
  it('a response over the size cap fails at once (Content-Length up front)', async () => {
    const mark = await logMark();
    const error = await failure(client({ maxResponseBytes: 1_000 }).list('press_releases'));
    expect(error).toMatchObject({ kind: 'too-large', attempts: 1, retryable: false });
    expect(error.message).toMatch(/response body of [\d.]+ kB exceeds the cap of 1 kB — lower the page limit or raise maxResponseBytes/);
    expect(await logSince(mark)).toHaveLength(1);
  });

  it('a streamed body without Content-Length is cut at the cap', async () => {
    let chunksWritten = 0;
    const tiny = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => {
        chunksWritten++;
        if (!res.write(`${'x'.repeat(1024)}`) || chunksWritten > 1000) clearInterval(timer);
      }, 1);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const error = await failure(createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, maxResponseBytes: 8 * 1024 }).get(''));
      expect(error.kind).toBe('too-large');
      expect(error.message).toContain('more than 8.1 kB');
      expect(chunksWritten).toBeLessThan(1000);
    } finally {
      await tiny.close();
    }
  });

  it('a body that is not JSON fails clearly and is not retried', async () => {
    const tiny = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Login</title>');
    });
    try {
      const error = await failure(createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1 }).get('press_releases'));
      expect(error).toMatchObject({ kind: 'invalid-json', attempts: 1 });
      expect(error.message).toMatch(
        /^GET \/v1\/pressrooms\/1\/press_releases failed after 1 attempt: the body is not JSON \(text\/html, 35 bytes/,
      );
      expect(tiny.hits).toHaveLength(1);
    } finally {
      await tiny.close();
    }
  });

  it('reads a JSON answer that starts with a UTF-8 byte order mark, as RFC 8259 allows', async () => {
    const tiny = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"data":{"id":1,"name":"Acme"}}')]));
    });
    try {
      expect(await createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1 }).get('')).toEqual({ id: 1, name: 'Acme' });
    } finally {
      await tiny.close();
    }
  });

  it('never has more attempts in flight than the concurrency, and shares the limiter', async () => {
    let active = 0;
    let peak = 0;
    const tiny = await tinyServer((_req, res) => {
      active++;
      peak = Math.max(peak, active);
      setTimeout(() => {
        active--;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"ok":true}}');
      }, 20);
    });
    try {
      const c = createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, concurrency: 3 });
      await Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`pages/${i}`)));
      expect(peak).toBe(3);

      // A task holding the shared limiter (e.g. an image download) delays API requests.
      const one = createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, concurrency: 1 });
      let release!: () => void;
      const held = one.limit(() => new Promise<void>((resolve) => (release = resolve)));
      const before = tiny.hits.length;
      const pending = one.get('pages/x');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(tiny.hits.length).toBe(before);
      release();
      await held;
      await pending;
      expect(tiny.hits.length).toBe(before + 1);
    } finally {
      await tiny.close();
    }
  });

  it('reports stats per path group', async () => {
    const c = client();
    await c.list('press_releases', {}, { limit: PAGE });
    await c.get('');
    await failure(c.get('media_kits/987654321'));
    const stats = c.stats();
    expect(Object.keys(stats.byGroup)).toEqual(['(pressroom)', 'media_kits/:id', 'press_releases']);
    expect(stats.byGroup.press_releases).toMatchObject({ items: trueCount, pages: Math.ceil(trueCount / PAGE), errors: 0 });
    expect(stats.byGroup['media_kits/:id']).toMatchObject({ requests: 1, errors: 1 });
    expect(stats.requests).toBe(Math.ceil(trueCount / PAGE) + 2);
    expect(stats.bytes).toBeGreaterThan(0);
    expect(stats.elapsedMs).toBeGreaterThan(0);
  });
});

describe('the fetch transport (a fetch in the options) holds the same bounds', () => {
  const viaFetch: NewsroomClientOptions['fetch'] = (input, init) => fetch(input, init);

  it('a persistent stall ends as a stall', async () => {
    await fault({ kind: 'stall' });
    const error = await failure(client({ fetch: viaFetch, retries: 1, stallTimeoutMs: 80 }).get('press_releases'));
    expect(error).toMatchObject({ kind: 'stall', attempts: 2 });
    expect(error.message).toContain('the response stalled (no body bytes for 80 ms)');
  });

  it('a stall shorter than the bound is no failure', async () => {
    await fault({ kind: 'latency', latencyMs: 30 });
    expect(await client({ fetch: viaFetch, stallTimeoutMs: 2_000 }).list<Release>('press_releases', {}, { limit: PAGE })).toEqual(clean);
  });

  it('a streamed body without Content-Length is cut at the cap', async () => {
    const tiny = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => {
        if (!res.write(`${'x'.repeat(1024)}`)) clearInterval(timer);
      }, 1);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const error = await failure(
        createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, maxResponseBytes: 8 * 1024, fetch: viaFetch }).get(''),
      );
      expect(error).toMatchObject({ kind: 'too-large', attempts: 1 });
      expect(error.message).toContain('more than 8.1 kB');
    } finally {
      await tiny.close();
    }
  });
});

describe('transport: encodings and redirects', () => {
  const DATA = { data: items(1, 200), paging: { page: 1, limit: 200, total: 200 } };
  const ENCODERS: Record<string, (body: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

  it('asks for gzip, deflate and br and decodes each to the same data, also through a fetch', async () => {
    const accepted: Array<string | undefined> = [];
    const tiny = await tinyServer((req, res, url) => {
      accepted.push(req.headers['accept-encoding']);
      const coding = url.pathname.split('/').at(-1) ?? '';
      const encoded = ENCODERS[coding]!(Buffer.from(JSON.stringify(DATA)));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding, 'content-length': encoded.length }).end(encoded);
    });
    try {
      const api = createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1 });
      for (const coding of Object.keys(ENCODERS)) expect(await api.get(coding)).toEqual(DATA.data);
      expect(accepted).toEqual(['gzip, deflate, br', 'gzip, deflate, br', 'gzip, deflate, br']);
      // A fetch decodes on its own; the encoded Content-Length is then no sign of a truncated body.
      const viaFetch = createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, fetch: (input, init) => fetch(input, init) });
      expect(await viaFetch.get('gzip')).toEqual(DATA.data);
    } finally {
      await tiny.close();
    }
  });

  it('a small compressed body that decodes past the cap fails as too-large, once', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    const tiny = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb);
    });
    try {
      expect(bomb.length).toBeLessThan(64 * 1024);
      const error = await failure(createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, maxResponseBytes: 1024 * 1024 }).get('x'));
      expect(error).toMatchObject({ kind: 'too-large', attempts: 1, retryable: false });
      expect(error.message).toContain('once decoded');
      expect(tiny.hits).toHaveLength(1);
    } finally {
      await tiny.close();
    }
  });

  it('a damaged gzip body is retried, an encoding never asked for is not', async () => {
    const tiny = await tinyServer((_req, res, url) => {
      const damaged = url.pathname.endsWith('damaged');
      const body = damaged ? gzipSync(Buffer.from(JSON.stringify(DATA))).subarray(0, 40) : Buffer.from('{}');
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': damaged ? 'gzip' : 'zstd-x' }).end(body);
    });
    try {
      const api = createNewsroomClient({ baseUrl: tiny.url, pressroomId: 1, retries: 2, baseDelayMs: 1, maxDelayMs: 2 });
      expect(await failure(api.get('damaged'))).toMatchObject({ kind: 'undecodable', attempts: 3 });
      const unknown = await failure(api.get('unknown'));
      expect(unknown).toMatchObject({ kind: 'undecodable', attempts: 1, retryable: false });
      expect(unknown.message).toContain('Content-Encoding: zstd-x');
    } finally {
      await tiny.close();
    }
  });

  it('goes through HTTP_PROXY when NODE_USE_ENV_PROXY is set, as the fetch of Node does', async () => {
    const api = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { direct: true } }));
    });
    // A forward proxy: asked for an absolute URL, it fetches it and answers with what it got.
    const proxy = await tinyServer((req, res) => {
      void fetch(req.url!, { headers: { authorization: req.headers.authorization ?? '' } }).then(async (upstream) => {
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
      });
    });
    const saved = { flag: process.env.NODE_USE_ENV_PROXY, proxy: process.env.HTTP_PROXY, lower: process.env.http_proxy };
    try {
      process.env.HTTP_PROXY = proxy.url;
      delete process.env.http_proxy;
      expect(await createNewsroomClient({ baseUrl: api.url, pressroomId: 1 }).get('x')).toEqual({ direct: true });
      expect(proxy.hits).toHaveLength(0); // not without the flag
      process.env.NODE_USE_ENV_PROXY = '1';
      expect(await createNewsroomClient({ baseUrl: api.url, pressroomId: 1 }).get('x')).toEqual({ direct: true });
      expect(proxy.hits.map((hit) => hit.pathname)).toEqual(['/v1/pressrooms/1/x']);
      expect(api.hits).toHaveLength(2);
    } finally {
      for (const [name, value] of [
        ['NODE_USE_ENV_PROXY', saved.flag],
        ['HTTP_PROXY', saved.proxy],
        ['http_proxy', saved.lower],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await Promise.all([api.close(), proxy.close()]);
    }
  });

  it('follows redirects, and never takes the key to another origin', async () => {
    const other = await tinyServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { auth: req.headers.authorization ?? null } }));
    });
    const origin = await tinyServer((req, res, url) => {
      if (url.pathname.endsWith('/moved')) res.writeHead(301, { location: `${url.pathname}-here` }).end();
      else if (url.pathname.endsWith('/away')) res.writeHead(302, { location: `${other.url}/elsewhere` }).end();
      else
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: { auth: req.headers.authorization ?? null } }));
    });
    try {
      const api = createNewsroomClient({ baseUrl: origin.url, pressroomId: 1, apiKey: KEY });
      expect(await api.get('moved')).toEqual({ auth: `Bearer ${KEY}` });
      expect(origin.hits.map((hit) => hit.pathname)).toEqual(['/v1/pressrooms/1/moved', '/v1/pressrooms/1/moved-here']);
      expect(await api.get('away')).toEqual({ auth: null });
      expect(other.hits.map((hit) => hit.pathname)).toEqual(['/elsewhere']);
    } finally {
      await Promise.all([origin.close(), other.close()]);
    }
  });
});

describe('transport: redirects that never end', () => {
  it('fails at once with one line that says the API redirects in a loop, or past the limit, and is not retried', async () => {
    const api = await tinyServer((_req, res, url) => {
      if (url.pathname.endsWith('/loop')) res.writeHead(302, { location: url.pathname }).end();
      else {
        const hop = Number(url.searchParams.get('hop') ?? '0');
        res.writeHead(302, { location: `${url.pathname}?hop=${hop + 1}` }).end();
      }
    });
    try {
      const client = createNewsroomClient({ baseUrl: api.url, pressroomId: 1 });
      const loop = await failure(client.get('loop'));
      expect(loop).toMatchObject({ kind: 'redirect', attempts: 1 });
      expect(loop.message).toMatch(
        /^GET \/v1\/pressrooms\/1\/loop failed after 1 attempt: the API redirects in a loop, back to a URL it already sent — check /,
      );
      expect(loop.message).not.toMatch(/Client or Pool/);
      const endless = await failure(client.get('endless'));
      expect(endless).toMatchObject({ kind: 'redirect', attempts: 1 });
      expect(endless.message).toContain('the API redirected more times than the client follows');
      expect(api.hits.filter((hit) => hit.pathname.endsWith('/endless'))).toHaveLength(21);
    } finally {
      await api.close();
    }
  });
});

describe('retry arithmetic', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-01T09:00:00.000Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Nov 2026 09:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Nov 2026 08:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('uses full jitter: random(0, min(cap, base * 2^n)), at least Retry-After (capped)', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1_000, retryAfterCapMs: 5_000 };
    expect(backoffDelay(0, { ...policy, random: () => 0 })).toBe(0);
    expect(backoffDelay(0, { ...policy, random: () => 0.999 })).toBe(99);
    expect(backoffDelay(3, { ...policy, random: () => 0.5 })).toBe(400);
    expect(backoffDelay(10, { ...policy, random: () => 0.5 })).toBe(500); // capped at maxDelayMs
    expect(backoffDelay(0, { ...policy, random: () => 0.5 }, 2_000)).toBe(2_000);
    expect(backoffDelay(0, { ...policy, random: () => 0.5 }, 60_000)).toBe(5_000);
  });

  it('feeds the injected random source into the delays', async () => {
    await fault({ kind: 'status', status: 500, count: 3 });
    const slept: number[] = [];
    const c = client({ baseDelayMs: 100, maxDelayMs: 300, random: () => 0.5, sleep: async (ms) => void slept.push(ms) });
    await c.get('press_releases');
    expect(slept).toEqual([50, 100, 150]);
  });
});
