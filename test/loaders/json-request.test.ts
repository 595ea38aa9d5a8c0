/**
 * A request holds a slot of the limiter while it is on the wire, not while its
 * answer is parsed, hashed and written to the HTTP cache: with the slot free,
 * the next request goes out while this thread works on the answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientSettings } from '../../content-loaders/client/client-settings.ts';
import { createStatsRecorder } from '../../content-loaders/client/client-stats.ts';
import { createHttpCache, type HttpCache } from '../../content-loaders/client/http-cache.ts';
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
  for (const endpoint of ['/a', '/b']) expect(await call(endpoint)).toEqual({ data: { url: endpoint } });
  expect(storedWhileInSlot).toEqual([0, 0]);
  expect([...answers.keys()]).toEqual(['/a', '/b']);
  expect(realCache.stats().stores).toBe(2);
});
