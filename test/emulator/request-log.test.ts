import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequestLog,
  describeAuth,
  describeRequest,
  isSecretParam,
  keyFingerprint,
  redactQuery,
} from '../../emulator/http/request-log.ts';
import type { RequestLogInput } from '../../emulator/http/request-log.ts';

const KEY = 'sk_live_0123456789abcdefSECRET';

function input(over: Partial<RequestLogInput> = {}): RequestLogInput {
  return {
    method: 'GET',
    path: '/v1/pressrooms/1/press_releases',
    query: {},
    auth: 'none',
    keyFingerprint: null,
    ifNoneMatch: false,
    status: 200,
    ms: 3,
    ...over,
  };
}

describe('redaction', () => {
  it.each([
    'key',
    'api_key',
    'apikey',
    'apiKey',
    'API_KEY',
    'token',
    'access_token',
    'accessToken',
    'secret',
    'client_secret',
    'password',
    'x-api-key',
  ])('treats %s as secret', (name) => expect(isSecretParam(name)).toBe(true));

  it.each(['page', 'per_page', 'order', 'locale', 'tags', 'keyword', 'monkey', 'q'])('keeps %s', (name) => {
    expect(isSecretParam(name)).toBe(false);
  });

  it('replaces secret values with [redacted]', () => {
    expect(redactQuery({ page: '2', api_key: KEY, token: 't' })).toEqual({ page: '2', api_key: '[redacted]', token: '[redacted]' });
  });
});

describe('auth and fingerprint', () => {
  it('fingerprints a bearer token as the first 12 hex of its SHA-256', () => {
    const expected = createHash('sha256').update(KEY).digest('hex').slice(0, 12);
    expect(keyFingerprint(KEY)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{12}$/);
    expect(describeAuth(`Bearer ${KEY}`)).toEqual({ auth: 'bearer', keyFingerprint: expected });
    expect(describeAuth(`bearer ${KEY}`)).toEqual({ auth: 'bearer', keyFingerprint: expected });
  });

  it('classifies missing and other schemes', () => {
    expect(describeAuth(undefined)).toEqual({ auth: 'none', keyFingerprint: null });
    expect(describeAuth('')).toEqual({ auth: 'none', keyFingerprint: null });
    expect(describeAuth('Basic dXNlcjpwYXNz')).toEqual({ auth: 'other', keyFingerprint: null });
    expect(describeAuth('Bearer')).toEqual({ auth: 'other', keyFingerprint: null });
  });
});

describe('describeRequest on a real request', () => {
  let server: Server;
  let base: string;
  const seen: ReturnType<typeof describeRequest>[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(describeRequest(req));
      res.writeHead(204);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('derives method, path, redacted query, auth, fingerprint and If-None-Match', async () => {
    await fetch(`${base}/v1/pressrooms/1/press_releases?page=2&api_key=${KEY}&tag=a&tag=b`, {
      headers: { authorization: `Bearer ${KEY}`, 'if-none-match': '"etag"' },
    });
    await fetch(`${base}/v1/pressrooms`, { method: 'HEAD' });
    expect(seen[0]).toEqual({
      method: 'GET',
      path: '/v1/pressrooms/1/press_releases',
      query: { page: '2', api_key: '[redacted]', tag: 'a,b' },
      auth: 'bearer',
      keyFingerprint: keyFingerprint(KEY),
      ifNoneMatch: true,
    });
    expect(seen[1]).toEqual({ method: 'HEAD', path: '/v1/pressrooms', query: {}, auth: 'none', keyFingerprint: null, ifNoneMatch: false });
    expect(JSON.stringify(seen)).not.toContain(KEY);
  });
});

describe('request log', () => {
  it('records entries with seq, clock time, fault and defaults', () => {
    let t = Date.UTC(2025, 0, 1);
    const log = createRequestLog({ now: () => new Date((t += 1000)) });
    const a = log.record(input({ fault: 'status:503', status: 503 }));
    const b = log.record(input({ path: '/v1/tags' }));
    expect(a).toMatchObject({ seq: 1, at: '2025-01-01T00:00:01.000Z', fault: 'status:503', status: 503 });
    expect(b).toMatchObject({ seq: 2, at: '2025-01-01T00:00:02.000Z', fault: null });
    expect(log.lastSeq()).toBe(2);
  });

  it('never stores a secret, even if the caller passes one', () => {
    const log = createRequestLog();
    const raw = { ...input({ query: { apikey: KEY, page: '1' } }), authorization: `Bearer ${KEY}`, headers: { authorization: KEY } };
    log.record(raw as RequestLogInput);
    const [entry] = log.entries();
    expect(entry!.query).toEqual({ apikey: '[redacted]', page: '1' });
    expect(JSON.stringify(log.entries())).not.toContain(KEY);
    expect(Object.keys(entry!).sort()).toEqual(
      ['at', 'auth', 'fault', 'ifNoneMatch', 'keyFingerprint', 'method', 'ms', 'path', 'query', 'seq', 'status'].sort(),
    );
  });

  it('filters by path prefix, since (seq) and limit', () => {
    const log = createRequestLog();
    log.record(input({ path: '/v1/a' }));
    log.record(input({ path: '/admin/faults' }));
    log.record(input({ path: '/v1/b' }));
    log.record(input({ path: '/v1/c' }));
    expect(log.entries({ pathPrefix: '/v1/' }).map((e) => e.path)).toEqual(['/v1/a', '/v1/b', '/v1/c']);
    expect(log.entries({ since: 2 }).map((e) => e.seq)).toEqual([3, 4]);
    expect(log.entries({ pathPrefix: '/v1/', since: 1 }).map((e) => e.path)).toEqual(['/v1/b', '/v1/c']);
    expect(log.entries({ limit: 2 }).map((e) => e.seq)).toEqual([3, 4]);
  });

  it('is a ring: keeps the newest `capacity` entries in order', () => {
    const log = createRequestLog({ capacity: 3 });
    for (let i = 1; i <= 7; i++) log.record(input({ path: `/v1/${i}` }));
    expect(log.size).toBe(3);
    expect(log.capacity).toBe(3);
    expect(log.entries().map((e) => [e.seq, e.path])).toEqual([
      [5, '/v1/5'],
      [6, '/v1/6'],
      [7, '/v1/7'],
    ]);
  });

  it('clear() empties it but seq keeps increasing', () => {
    const log = createRequestLog({ capacity: 2 });
    log.record(input());
    log.record(input());
    log.record(input());
    log.clear();
    expect(log.entries()).toEqual([]);
    expect(log.size).toBe(0);
    expect(log.record(input()).seq).toBe(4);
    expect(log.entries().map((e) => e.seq)).toEqual([4]);
  });

  it('returns copies, so callers cannot change the log', () => {
    const log = createRequestLog();
    log.record(input({ query: { page: '1' } }));
    const [e] = log.entries();
    e!.query.page = '99';
    e!.status = 500;
    expect(log.entries()[0]).toMatchObject({ status: 200, query: { page: '1' } });
  });

  it('rejects a bad capacity', () => {
    expect(() => createRequestLog({ capacity: 0 })).toThrow(/capacity/);
  });
});
