import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher } from '../../emulator/webhooks/dispatcher.ts';
import type { WebhookDispatcher } from '../../emulator/webhooks/dispatcher.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  server: Server;
}

const servers: Server[] = [];
const dispatchers: WebhookDispatcher[] = [];

afterEach(async () => {
  for (const d of dispatchers.splice(0)) d.close();
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

/** A receiver answering each request with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[] = [204]): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 204;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status >= 300 ? 'nope' : '');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, server };
}

function dispatcher(options: Parameters<typeof createWebhookDispatcher>[0] = {}): WebhookDispatcher {
  const d = createWebhookDispatcher({ retryDelaysMs: [20, 40, 80], timeoutMs: 2000, ...options });
  dispatchers.push(d);
  return d;
}

function signatureHeaders(h: IncomingHttpHeaders): Record<string, string> {
  return {
    'webhook-id': String(h['webhook-id']),
    'webhook-timestamp': String(h['webhook-timestamp']),
    'webhook-signature': String(h['webhook-signature']),
  };
}

describe('webhook dispatcher', () => {
  it('generates whsec_ secrets of at least 24 random bytes and hides them from list()', () => {
    const d = dispatcher();
    const a = d.subscribe({ url: 'http://127.0.0.1:9/a' });
    const b = d.subscribe({ url: 'http://127.0.0.1:9/b' });
    expect(a.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(a.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(a.secret).not.toBe(b.secret);
    expect(a.id).not.toBe(b.id);
    expect(JSON.stringify(d.list())).not.toContain('whsec_');
    expect(d.list().map((s) => s.id)).toEqual([a.id, b.id]);
    expect(d.unsubscribe(a.id)).toBe(true);
    expect(d.unsubscribe(a.id)).toBe(false);
    expect(d.list().map((s) => s.id)).toEqual([b.id]);
  });

  it('rejects invalid subscriptions with a message naming the field', () => {
    const d = dispatcher();
    expect(() => d.subscribe({ url: 'ftp://x' })).toThrow(/^url:/);
    expect(() => d.subscribe({ url: 'not a url' })).toThrow(/^url:/);
    expect(() => d.subscribe({ url: 'http://x/', secret: 'plain' })).toThrow(/^secret:/);
    expect(() => d.subscribe({ url: 'http://x/', types: [1] as unknown as string[] })).toThrow(/^types:/);
  });

  it('delivers a Standard Webhooks signed POST that verifies, and a tampered body does not', async () => {
    const r = await receiver([200]);
    const d = dispatcher();
    const sub = d.subscribe({ url: r.url });
    const msgId = d.emit('press_release.published', { id: 42, title: 'Hello' });
    await d.idle();

    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('pressroom-emulator');
    expect(got.headers['webhook-id']).toBe(msgId);
    expect(msgId).toMatch(/^msg_[A-Za-z0-9]+$/);
    expect(got.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);

    const payload = new Webhook(sub.secret).verify(got.body, signatureHeaders(got.headers)) as Record<string, unknown>;
    expect(payload).toMatchObject({ type: 'press_release.published', data: { id: 42, title: 'Hello' } });
    expect(typeof payload.timestamp).toBe('string');
    expect(Number.isNaN(Date.parse(String(payload.timestamp)))).toBe(false);

    const tampered = got.body.replace('Hello', 'Hellp');
    expect(() => new Webhook(sub.secret).verify(tampered, signatureHeaders(got.headers))).toThrow();
    const other = d.subscribe({ url: r.url });
    expect(() => new Webhook(other.secret).verify(got.body, signatureHeaders(got.headers))).toThrow();

    const [delivery] = d.deliveries();
    expect(delivery).toMatchObject({ msgId, subscriptionId: sub.id, type: 'press_release.published', delivered: true, state: 'delivered' });
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ status: 200 });
  });

  it('uses a given secret', async () => {
    const r = await receiver([204]);
    const d = dispatcher();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(d.subscribe({ url: r.url, secret }).secret).toBe(secret);
    d.emit('ping', {});
    await d.idle();
    expect(() => new Webhook(secret).verify(r.received[0]!.body, signatureHeaders(r.received[0]!.headers))).not.toThrow();
  });

  it('retries a 500 twice then 200: exactly 3 attempts with the same webhook-id, each signed', async () => {
    const r = await receiver([500, 500, 200]);
    const d = dispatcher();
    const sub = d.subscribe({ url: r.url });
    const msgId = d.emit('media_kit.updated', { id: 7 });
    await d.idle();

    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([msgId]));
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    for (const x of r.received) {
      expect(() => new Webhook(sub.secret).verify(x.body, signatureHeaders(x.headers))).not.toThrow();
    }
    const [delivery] = d.deliveries();
    expect(delivery!.delivered).toBe(true);
    expect(delivery!.attempts.map((a) => ('status' in a ? a.status : a.error))).toEqual([500, 500, 200]);
  });

  it('gives up on a receiver that always fails, after every retry, and records it', async () => {
    const r = await receiver([503]);
    const d = dispatcher();
    d.subscribe({ url: r.url });
    d.emit('press_release.unpublished', { id: 1 });
    await d.idle();
    expect(r.received).toHaveLength(4); // first try + 3 retries
    const [delivery] = d.deliveries();
    expect(delivery).toMatchObject({ delivered: false, state: 'failed' });
    expect(delivery!.attempts).toHaveLength(4);
  });

  it('records network errors and timeouts as failed attempts', async () => {
    // A port with nothing listening: bind, note the port, close.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    // A receiver that never answers.
    const silent = createServer(() => {});
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;

    const d = dispatcher({ retryDelaysMs: [10], timeoutMs: 150 });
    const dead = d.subscribe({ url: `http://127.0.0.1:${deadPort}/` });
    const slow = d.subscribe({ url: `http://127.0.0.1:${silentPort}/` });
    d.emit('ping', {});
    await d.idle();

    const byId = new Map(d.deliveries().map((x) => [x.subscriptionId, x]));
    const deadLog = byId.get(dead.id)!;
    const slowLog = byId.get(slow.id)!;
    expect(deadLog.delivered).toBe(false);
    expect(deadLog.attempts).toHaveLength(2);
    expect(deadLog.attempts[0]).toHaveProperty('error');
    expect(slowLog.attempts).toHaveLength(2);
    expect(slowLog.attempts[0]).toMatchObject({ error: expect.stringMatching(/timeout/) });
  });

  it('delivers to each subscriber independently', async () => {
    const bad = await receiver([500]);
    const good = await receiver([200]);
    const d = dispatcher();
    const b = d.subscribe({ url: bad.url });
    const g = d.subscribe({ url: good.url });
    const msgId = d.emit('press_release.published', { id: 1 });
    await d.idle();
    expect(good.received).toHaveLength(1);
    expect(bad.received).toHaveLength(4);
    const byId = new Map(d.deliveries().map((x) => [x.subscriptionId, x]));
    expect(byId.get(g.id)).toMatchObject({ msgId, delivered: true });
    expect(byId.get(b.id)).toMatchObject({ msgId, delivered: false });
  });

  it('filters by event type', async () => {
    const all = await receiver();
    const releases = await receiver();
    const kits = await receiver();
    const d = dispatcher();
    d.subscribe({ url: all.url });
    d.subscribe({ url: releases.url, types: ['press_release.published', 'press_release.unpublished'] });
    d.subscribe({ url: kits.url, types: ['media_kit.*'] });
    d.emit('press_release.published', { id: 1 });
    d.emit('media_kit.updated', { id: 2 });
    d.emit('category.deleted', { id: 3 });
    await d.idle();
    const types = (r: Receiver): string[] => r.received.map((x) => (JSON.parse(x.body) as { type: string }).type).sort();
    expect(types(all)).toEqual(['category.deleted', 'media_kit.updated', 'press_release.published']);
    expect(types(releases)).toEqual(['press_release.published']);
    expect(types(kits)).toEqual(['media_kit.updated']);
  });

  it('uses the injected clock for the event and signature timestamps', async () => {
    const r = await receiver();
    const fixed = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
    const d = dispatcher({ now: () => fixed });
    const sub = d.subscribe({ url: r.url });
    d.emit('ping', {});
    await d.idle();
    const got = r.received[0]!;
    expect(got.headers['webhook-timestamp']).toBe(String(fixed.getTime() / 1000));
    expect(JSON.parse(got.body)).toMatchObject({ timestamp: fixed.toISOString() });
    expect(() => new Webhook(sub.secret).verify(got.body, signatureHeaders(got.headers))).not.toThrow();
  });

  it('close() cancels pending retries and idle() resolves', async () => {
    const r = await receiver([500]);
    const d = dispatcher({ retryDelaysMs: [60_000] });
    d.subscribe({ url: r.url });
    d.emit('ping', {});
    // Wait for the first attempt to finish and its retry to be scheduled.
    for (let i = 0; i < 100 && d.deliveries()[0]?.attempts.length !== 1; i++) await new Promise((res) => setTimeout(res, 10));
    expect(d.deliveries()[0]!.attempts).toHaveLength(1);
    d.close();
    await d.idle();
    expect(d.deliveries()[0]).toMatchObject({ delivered: false, state: 'failed' });
    expect(r.received).toHaveLength(1);
  });

  it('idle() resolves at once with nothing pending', async () => {
    const d = dispatcher();
    await d.idle();
    d.emit('ping', {}); // no subscriptions
    await d.idle();
    expect(d.deliveries()).toEqual([]);
  });
});
