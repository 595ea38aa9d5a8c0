import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyFault, releaseStalledConnections, stalledConnectionCount } from '../../emulator/faults/apply-fault.ts';
import { createFaultInjector, FaultRuleError } from '../../emulator/faults/injector.ts';
import type { FaultDecision, FaultInjector } from '../../emulator/faults/injector.ts';
import { compileRouteGlob, validateFaultRule } from '../../emulator/faults/rules.ts';
import { jsonReply, send } from '../../emulator/http/reply.ts';

const BODY = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Release number ${i}` })) };
const BODY_BYTES = Buffer.byteLength(JSON.stringify(BODY));

let server: Server;
let base: string;
let injector: FaultInjector;
const applied: FaultDecision[] = [];

beforeAll(async () => {
  injector = createFaultInjector({ seed: 42 });
  server = createServer((req, res) => {
    const reply = jsonReply(200, BODY, { etag: '"abc"' });
    const decision = injector.decide(req.method ?? 'GET', req.url ?? '/');
    if (decision) {
      applied.push(decision);
      void applyFault(decision, req, res, reply);
    } else {
      send(res, reply, { headOnly: req.method === 'HEAD' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  injector.clear();
  applied.length = 0;
});

afterAll(async () => {
  releaseStalledConnections();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function readAll(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

describe('fault rule validation', () => {
  it('accepts good rules', () => {
    expect(validateFaultRule({ route: '/v1/*', kind: 'status', status: 503, retryAfterSeconds: 3, count: 2 })).toEqual({
      ok: true,
      rule: { route: '/v1/*', kind: 'status', status: 503, retryAfterSeconds: 3, count: 2 },
    });
    expect(validateFaultRule({ route: '*', method: 'get', kind: 'latency', latencyMs: 10, rate: 0.25 })).toMatchObject({
      ok: true,
      rule: { method: 'GET' },
    });
  });

  it.each([
    [null, 'rule'],
    [[], 'rule'],
    [{ kind: 'reset' }, 'route'],
    [{ route: 'v1/x', kind: 'reset' }, 'route'],
    [{ route: '/x', kind: 'explode' }, 'kind'],
    [{ route: '/x', kind: 'status' }, 'status'],
    [{ route: '/x', kind: 'status', status: 404 }, 'status'],
    [{ route: '/x', kind: 'reset', status: 500 }, 'status'],
    [{ route: '/x', kind: 'latency' }, 'latencyMs'],
    [{ route: '/x', kind: 'latency', latencyMs: -1 }, 'latencyMs'],
    [{ route: '/x', kind: 'stall', stallMs: 'long' }, 'stallMs'],
    [{ route: '/x', kind: 'reset', count: 0 }, 'count'],
    [{ route: '/x', kind: 'reset', count: 1.5 }, 'count'],
    [{ route: '/x', kind: 'reset', rate: 2 }, 'rate'],
    [{ route: '/x', kind: 'reset', method: 'BREW' }, 'method'],
    [{ route: '/x', kind: 'reset', latency_ms: 5 }, 'latency_ms'],
    [{ route: '/x', kind: 'reset', id: 'a b' }, 'id'],
  ])('rejects %j naming %s', (input, field) => {
    const result = validateFaultRule(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.startsWith(`${field}:`)).toBe(true);
      expect(result.error).not.toContain('\n');
    }
  });

  it('add() throws FaultRuleError with the one-line message', () => {
    const inj = createFaultInjector({ seed: 1 });
    expect(() => inj.add({ route: '/x', kind: 'status', status: 418 })).toThrow(FaultRuleError);
    expect(() => inj.add({ route: '/x', kind: 'status', status: 418 })).toThrow(/^status:/);
  });
});

describe('route glob and method matching', () => {
  it('compiles globs where * spans slashes and the rest is literal', () => {
    const re = compileRouteGlob('/v1/pressrooms/*/press_releases*');
    expect(re.test('/v1/pressrooms/12/press_releases')).toBe(true);
    expect(re.test('/v1/pressrooms/12/press_releases/99-hello')).toBe(true);
    expect(re.test('/v1/pressrooms/a/b/press_releases')).toBe(true);
    expect(re.test('/v1/pressrooms/12/media_kits')).toBe(false);
    expect(re.test('/x/v1/pressrooms/12/press_releases')).toBe(false);
    expect(compileRouteGlob('/a.b').test('/aXb')).toBe(false);
  });

  it('decide() matches path (ignoring the query) and method', () => {
    const inj = createFaultInjector({ seed: 1 });
    inj.add({ id: 'r', route: '/v1/pressrooms/*/press_releases*', method: 'GET', kind: 'reset' });
    expect(inj.decide('GET', '/v1/pressrooms/1/press_releases?page=2')).toMatchObject({ ruleId: 'r', kind: 'reset', label: 'reset' });
    expect(inj.decide('get', '/v1/pressrooms/1/press_releases/5')).not.toBeNull();
    expect(inj.decide('POST', '/v1/pressrooms/1/press_releases')).toBeNull();
    expect(inj.decide('GET', '/v1/pressrooms/1/tags')).toBeNull();
  });

  it('first matching rule wins; list() reports matches, fires and remaining', () => {
    const inj = createFaultInjector({ seed: 1 });
    const a = inj.add({ route: '/v1/tags', kind: 'status', status: 502, count: 1 });
    const b = inj.add({ route: '/v1/*', kind: 'latency', latencyMs: 5 });
    expect(a.id).not.toBe(b.id);
    expect(inj.decide('GET', '/v1/tags')?.ruleId).toBe(a.id);
    expect(inj.decide('GET', '/v1/tags')?.ruleId).toBe(b.id);
    expect(inj.list()).toEqual([
      expect.objectContaining({ id: a.id, remaining: 0, fired: 1, matched: 1, expired: true }),
      expect.objectContaining({ id: b.id, remaining: null, fired: 1, matched: 1, expired: false }),
    ]);
    expect(inj.remove(a.id)).toBe(true);
    expect(inj.remove(a.id)).toBe(false);
    expect(inj.list()).toHaveLength(1);
    inj.clear();
    expect(inj.list()).toEqual([]);
    expect(inj.decide('GET', '/v1/tags')).toBeNull();
  });

  it('a rule with the same id replaces the old one', () => {
    const inj = createFaultInjector();
    inj.add({ id: 'x', route: '/a', kind: 'reset' });
    inj.add({ id: 'x', route: '/b', kind: 'reset' });
    expect(inj.list().map((r) => r.route)).toEqual(['/b']);
  });
});

describe('count and rate', () => {
  it('count: 2 fires exactly twice, then requests pass', async () => {
    injector.add({ route: '/v1/*', kind: 'status', status: 500, count: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/v1/x`);
      await readAll(res);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([500, 500, 200, 200]);
    expect(injector.list()[0]).toMatchObject({ fired: 2, remaining: 0, expired: true });
  });

  it('rate: 0.5 with a fixed seed fires reproducibly across injectors', () => {
    const run = (seed: number): boolean[] => {
      const inj = createFaultInjector({ seed });
      inj.add({ route: '*', kind: 'reset', rate: 0.5 });
      return Array.from({ length: 200 }, () => inj.decide('GET', '/v1/anything') !== null);
    };
    const a = run(7);
    const b = run(7);
    const c = run(8);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const fired = a.filter(Boolean).length;
    expect(fired).toBeGreaterThan(70);
    expect(fired).toBeLessThan(130);
  });

  it('rate 0 never fires and rate 1 always fires', () => {
    const inj = createFaultInjector({ seed: 3 });
    inj.add({ id: 'never', route: '/n', kind: 'reset', rate: 0 });
    inj.add({ id: 'always', route: '/a', kind: 'reset', rate: 1 });
    for (let i = 0; i < 50; i++) {
      expect(inj.decide('GET', '/n')).toBeNull();
      expect(inj.decide('GET', '/a')).not.toBeNull();
    }
  });

  it("adding another rule does not shift an existing rule's sequence", () => {
    const seq = (extra: boolean): boolean[] => {
      const inj = createFaultInjector({ seed: 'abc' });
      inj.add({ id: 'main', route: '/v1/*', kind: 'reset', rate: 0.5 });
      if (extra) inj.add({ id: 'other', route: '/v2/*', kind: 'reset', rate: 0.5 });
      const out: boolean[] = [];
      for (let i = 0; i < 100; i++) {
        if (extra) inj.decide('GET', '/v2/x');
        out.push(inj.decide('GET', '/v1/x') !== null);
      }
      return out;
    };
    expect(seq(true)).toEqual(seq(false));
  });
});

describe('applyFault over a real socket', () => {
  it('passes requests through when no rule matches', async () => {
    const res = await fetch(`${base}/v1/ok`);
    expect(res.status).toBe(200);
    expect(JSON.parse((await readAll(res)).toString())).toEqual(BODY);
  });

  it('latency delays the full reply by at least latencyMs', async () => {
    injector.add({ route: '/v1/slow', kind: 'latency', latencyMs: 150 });
    const started = performance.now();
    const res = await fetch(`${base}/v1/slow`);
    const body = await readAll(res);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"abc"');
    expect(body.length).toBe(BODY_BYTES);
  });

  it('429 carries Retry-After and the error shape', async () => {
    injector.add({ route: '/v1/*', kind: 'status', status: 429, retryAfterSeconds: 7, count: 1 });
    injector.add({ route: '/v1/*', kind: 'status', status: 429, count: 1 });
    const res = await fetch(`${base}/v1/limited`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    const json = (await res.json()) as { error: { status: number; message: string } };
    expect(json.error.status).toBe(429);
    expect(json.error.message).toMatch(/injected fault/);
    const res2 = await fetch(`${base}/v1/limited`);
    await readAll(res2);
    expect(res2.headers.get('retry-after')).toBe('1');
  });

  it.each([500, 502, 503, 504] as const)('status %i', async (status) => {
    injector.add({ route: '/v1/*', kind: 'status', status });
    const res = await fetch(`${base}/v1/err`);
    expect(res.status).toBe(status);
    expect(res.headers.get('retry-after')).toBe(status === 503 ? '1' : null);
    expect(((await res.json()) as { error: { status: number } }).error.status).toBe(status);
  });

  it('reset makes fetch fail', async () => {
    injector.add({ route: '/v1/reset', kind: 'reset' });
    const err = await fetch(`${base}/v1/reset`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TypeError);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    expect(`${cause?.code ?? ''} ${cause?.message ?? ''}`).toMatch(/ECONNRESET|socket hang up|other side closed|terminated/i);
  });

  it('stall: headers and half the body arrive, then a client timeout aborts the body read', async () => {
    injector.add({ route: '/v1/stall', kind: 'stall' });
    const res = await fetch(`${base}/v1/stall`, { signal: AbortSignal.timeout(300) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BODY_BYTES));
    const started = performance.now();
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(2000);
    // The server notices the client left and forgets the socket.
    for (let i = 0; i < 50 && stalledConnectionCount() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stalledConnectionCount()).toBe(0);
  });

  it('stall with stallMs destroys the connection after that time', async () => {
    injector.add({ route: '/v1/stall', kind: 'stall', stallMs: 100 });
    const started = performance.now();
    const res = await fetch(`${base}/v1/stall`);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('truncate: Content-Length is the full size but the body ends early', async () => {
    injector.add({ route: '/v1/trunc', kind: 'truncate' });
    const res = await fetch(`${base}/v1/trunc`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BODY_BYTES));
    const received: number[] = [];
    const outcome = await (async () => {
      const reader = res.body!.getReader();
      let n = 0;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          n += value.length;
        }
        received.push(n);
        return 'ended';
      } catch {
        received.push(n);
        return 'threw';
      }
    })();
    // Either the read throws (undici: "terminated") or it yields fewer bytes than announced.
    expect(outcome === 'threw' || received[0]! < BODY_BYTES).toBe(true);
    expect(received[0]).toBeLessThan(BODY_BYTES);
  });

  it('the server keeps serving normally after faults', async () => {
    injector.add({ route: '/v1/reset', kind: 'reset' });
    await fetch(`${base}/v1/reset`).catch(() => undefined);
    const res = await fetch(`${base}/v1/fine`);
    expect(res.status).toBe(200);
    expect((await readAll(res)).length).toBe(BODY_BYTES);
    expect(applied.map((d) => d.kind)).toEqual(['reset']);
  });
});

describe('server shutdown with a stalled client', () => {
  it('releaseStalledConnections lets server.close() finish while a client still waits', async () => {
    const inj = createFaultInjector();
    inj.add({ route: '*', kind: 'stall' });
    const s = createServer((req, res) => {
      const d = inj.decide(req.method ?? 'GET', req.url ?? '/');
      void applyFault(d!, req, res, jsonReply(200, BODY));
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/x`;
    const res = await fetch(url);
    const reading = res.arrayBuffer().then(
      () => 'ok',
      () => 'failed',
    );
    for (let i = 0; i < 50 && stalledConnectionCount() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stalledConnectionCount()).toBe(1);
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    expect(releaseStalledConnections()).toBe(1);
    await closed;
    expect(await reading).toBe('failed');
  });
});
