/**
 * A request holds a slot of the limiter while it is on the wire, not while its
 * answer is parsed, hashed and written to the HTTP cache: with the slot free,
 * the next request goes out while this thread works on the answer.
 */
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientSettings } from '../../content-loaders/client/client-settings.ts';
import { createStatsRecorder } from '../../content-loaders/client/client-stats.ts';
import { createHttpCache, type HttpCache } from '../../content-loaders/client/http-cache.ts';
import { createNewsroomClient } from '../../content-loaders/client/client.ts';
import { createJsonRequester } from '../../content-loaders/client/json-request.ts';
import { createLimiter, type Limiter } from '../../content-loaders/client/limiter.ts';

let server: Server;
let url: string;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'json-request-'));
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', etag: `"${req.url ?? ''}"` }).end(JSON.stringify({ data: { url: req.url } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(tmp, { recursive: true, force: true });
});

it('parses and stores an answer after its slot is free, so the next request is not held by that work', async () => {
  const real = createLimiter(1);
  let inSlot = 0;
  const limit: Limiter = Object.assign(
    <T>(task: () => Promise<T>, place?: Parameters<Limiter>[1]) =>
      real(async () => {
        inSlot++;
        try {
          return await task();
        } finally {
          inSlot--;
        }
      }, place),
    { spare: () => real.spare() },
  );
  const realCache = createHttpCache({ dir: path.join(tmp, 'cache') });
  const storedWhileInSlot: number[] = [];
  const cache: HttpCache = {
    ...realCache,
    store: (u, etag, body, sha256) => {
      storedWhileInSlot.push(inSlot);
      return realCache.store(u, etag, body, sha256);
    },
  };
  const answers = new Map<string, string>();
  const requestJson = createJsonRequester({
    settings: clientSettings({ baseUrl: url, pressroomId: 1 }),
    limit,
    cache,
    stats: createStatsRecorder(),
    answers,
    onRetry: undefined,
    onCacheWriteError: () => undefined,
  });
  const call = (endpoint: string) => requestJson({ endpoint, group: 'x', signal: undefined, tally: undefined });

  // One at a time, so the only slot that could be taken while an answer is stored is its own.
  for (const endpoint of ['/a', '/b']) {
    const { json, sha256 } = await call(endpoint);
    expect(json).toEqual({ data: { url: endpoint } });
    // The digest handed back with the answer is the one noted among the answers the build used.
    expect(sha256).toBe(createHash('sha256').update(JSON.stringify(json)).digest('hex'));
    expect(answers.get(endpoint)).toBe(sha256);
  }
  expect(storedWhileInSlot).toEqual([0, 0]);
  expect([...answers.keys()]).toEqual(['/a', '/b']);
  expect(realCache.stats().stores).toBe(2);
});

/** Answers `/big` with a JSON body that takes a while to parse; logs when each request arrives (wall clock) and on which connection. */
const SERVER = `
const { createServer } = require('node:http');
const big = JSON.stringify({ data: Array.from({ length: 150000 }, (_, i) => ({ id: i, title: 'Release ' + i, tags: ['a', 'b'] })) });
const server = createServer((req, res) => {
  console.log(JSON.stringify({ path: req.url, at: Date.now(), from: req.socket.remotePort }));
  res.writeHead(200, { 'content-type': 'application/json' }).end(req.url.includes('big') ? big : '{"data":{}}');
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;

it('puts the request that takes a freed slot on the wire, on the same connection, before the answer that freed it is parsed', async () => {
  // The server runs in its own process: one in this process could not see a request while this thread parses.
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const lines: Array<{ port?: number; path?: string; at?: number; from?: number }> = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
    });
    while (!lines[0]?.port) await once(child.stdout, 'data');
    const client = createNewsroomClient({ baseUrl: `http://127.0.0.1:${lines[0].port}`, pressroomId: 1, concurrency: 1 });
    const started = Date.now();
    const bigParsed = client.get<unknown[]>('big').then((data) => ({ items: data.length, at: Date.now() }));
    const small = client.get('small');
    const [big] = await Promise.all([bigParsed, small]);
    const [bigRequest, smallRequest] = lines.slice(1);
    const smallArrived = smallRequest?.at;
    expect(big.items).toBe(150_000);
    expect(smallRequest?.path).toContain('small');
    expect(smallRequest?.from).toBe(bigRequest?.from);
    // Parsing ~8 MB takes tens of milliseconds; the second request arrived before that work ended, not after.
    expect(big.at - started).toBeGreaterThan(30);
    expect(smallArrived).toBeLessThan(big.at - 10);
  } finally {
    child.kill();
  }
});
