/**
 * What the client requests ahead while paging, against small real HTTP servers
 * on 127.0.0.1: nothing outlives the generator, and a list's pages do not
 * queue behind single requests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNewsroomClient, type NewsroomClientOptions } from '../../content-loaders/client/client.ts';

interface Item {
  id: number;
}

interface PagingServer {
  url: string;
  /** Pages asked for, in arrival order (single requests appear as their path). */
  hits: string[];
  /** Most requests the server was answering at one time. */
  peak(): number;
  /** Requests received and not yet answered. */
  active(): number;
  close(): Promise<void>;
}

interface ServerSetup {
  /** The list as it is when a page is asked for (`served`: pages answered so far). */
  list: (served: number) => Item[];
  /** `paging.total` for a page; omitted from the envelope when it returns undefined. */
  total: (list: Item[], limit: number) => unknown;
  delayMs?: number;
}

const servers: PagingServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const ids = (from: number, count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: from + i }));

/** A list endpoint on 127.0.0.1:0 that answers every request after `delayMs`, counting what is in flight. */
async function pagingServer({ list, total, delayMs = 15 }: ServerSetup): Promise<PagingServer> {
  const hits: string[] = [];
  let served = 0;
  let active = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://paging.invalid');
    const page = url.searchParams.get('page');
    hits.push(page === null ? url.pathname.replace(/^\/v1\/pressrooms\/\d+\//, '') : page);
    active++;
    peak = Math.max(peak, active);
    setTimeout(() => {
      active--;
      if (page === null) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"id":1}}');
        return;
      }
      const limit = Number(url.searchParams.get('limit'));
      const items = list(served++);
      const start = (Math.max(Number(page), 1) - 1) * limit;
      const paging = { page: Number(page), limit, total: total(items, limit) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: items.slice(start, start + limit), paging }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const running: PagingServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    peak: () => peak,
    active: () => active,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  servers.push(running);
  return running;
}

function clientOf(server: PagingServer, over: Partial<NewsroomClientOptions> = {}) {
  return createNewsroomClient({ baseUrl: server.url, pressroomId: 1, pageLimit: 10, readAhead: 0, concurrency: 8, ...over });
}

describe('bounds on what is requested ahead', () => {
  it('no request outlives the generator when the caller stops early; pages still queued are never sent', async () => {
    const server = await pagingServer({ list: () => ids(1, 200), total: (_list, limit) => limit, delayMs: 30 });
    const c = clientOf(server, { concurrency: 2, readAhead: 6 });
    for await (const info of c.pages<Item>('clippings')) {
      expect(info.page).toBe(1);
      break;
    }
    expect(server.active()).toBe(0); // every request sent was answered before the loop ended
    expect(c.stats().requests).toBe(server.hits.length);
    const sent = server.hits.length;
    expect(sent).toBe(1 + 2); // page 1, then pages 2 and 3 of the 7 asked for ahead
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(server.hits.length).toBe(sent);
  });
});

describe('the order queued requests are served in', () => {
  it("a list's pages go before single requests that were queued earlier", async () => {
    const server = await pagingServer({ list: () => ids(1, 25), total: (_list, limit) => limit, delayMs: 5 });
    const c = clientOf(server, { concurrency: 1 });
    const singles = Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`media_kits/${i + 1}`)));
    const list = c.list<Item>('clippings');
    expect(await list).toEqual(ids(1, 25));
    await singles;
    // One single request holds the only slot when page 1 arrives; each page then jumps the queue of singles.
    const positions = ['1', '2', '3'].map((page) => server.hits.indexOf(page));
    expect(positions[0]).toBeLessThanOrEqual(1);
    expect(positions[2]).toBeLessThanOrEqual(3 + 2); // FIFO would have put page 3 after all 12 singles
  });
});
