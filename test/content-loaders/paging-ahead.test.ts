/**
 * What the client requests ahead while paging, against small real HTTP servers
 * on 127.0.0.1: a believable `paging.total` has every remaining page requested
 * at once (the limiter bounding them), the live service's `total` = `limit`
 * and garbage totals change nothing, a list that changes while it is paged is
 * read as it is, the ceiling holds, nothing outlives the generator, and a
 * list's pages do not queue behind single requests, and free slots are read
 * ahead into only as far as a list has proven long.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNewsroomClient } from '../../content-loaders/client/client.ts';
import type { NewsroomClientOptions } from '../../content-loaders/client/types.ts';
import { NewsroomApiError } from '../../content-loaders/client/errors.ts';

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
async function pagingServer({ list, total, delayMs = 50 }: ServerSetup): Promise<PagingServer> {
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

const pagesHit = (server: PagingServer) => server.hits.map(Number).sort((a, b) => a - b);

describe('paging.total, when it can be believed', () => {
  it('a real total has every page up to the short one requested at once, and none past it', async () => {
    const server = await pagingServer({ list: () => ids(1, 45), total: (list) => list.length });
    const c = clientOf(server, { concurrency: 3 });
    const all = await c.list<Item>('clippings');
    expect(all).toEqual(ids(1, 45));
    expect(pagesHit(server)).toEqual([1, 2, 3, 4, 5]); // page 5 holds the last 5: no request wasted
    expect(server.peak()).toBe(3); // pages 2–5 at once, bounded by the concurrency (read-ahead is 0)
    expect(c.stats()).toMatchObject({ requests: 5, errors: 0 });
  });

  it('a total that is a multiple of the limit ends on the one empty page', async () => {
    const server = await pagingServer({ list: () => ids(1, 40), total: (list) => list.length });
    expect(await clientOf(server).list<Item>('clippings')).toEqual(ids(1, 40));
    expect(pagesHit(server)).toEqual([1, 2, 3, 4, 5]);
    expect(server.peak()).toBe(4);
  });

  it.each([
    ['equal to the limit (the live service)', (_list: Item[], limit: number) => limit],
    ['missing', () => undefined],
    ['a string', () => '45'],
    ['null', () => null],
    ['empty', () => ''],
    ['a fraction', () => 44.5],
    ['below the limit', () => 3],
  ])('a total %s is ignored: one page at a time without read-ahead', async (_name, total) => {
    const server = await pagingServer({ list: () => ids(1, 45), total });
    expect(await clientOf(server).list<Item>('clippings')).toEqual(ids(1, 45));
    expect(server.hits).toEqual(['1', '2', '3', '4', '5']);
    expect(server.peak()).toBe(1);
  });

  it('a total below the items already received is not believed past that point', async () => {
    // Says 11: pages 1 and 2 are believed, page 2 is full so the total was wrong, and the rest is paged one at a time.
    const server = await pagingServer({ list: () => ids(1, 45), total: () => 11 });
    expect(await clientOf(server).list<Item>('clippings')).toEqual(ids(1, 45));
    expect(pagesHit(server)).toEqual([1, 2, 3, 4, 5]);
    expect(server.peak()).toBe(1);
  });
});

describe('a list that changes while it is paged', () => {
  it('grows past its first total: paging goes on to the short page, every item once', async () => {
    // 45 items and total 45 for the first page; 20 more (and the old total) for every later page.
    const server = await pagingServer({ list: (served) => ids(1, served === 0 ? 45 : 65), total: () => 45 });
    const all = await clientOf(server).list<Item>('clippings');
    expect(all).toEqual(ids(1, 65));
    expect(pagesHit(server)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shrinks below its total: ends on the first short page without an error, no item twice', async () => {
    // Total 45 on page 1; afterwards the first 12 items are gone (unpublished), so later pages shift.
    const server = await pagingServer({ list: (served) => (served === 0 ? ids(1, 45) : ids(13, 33)), total: () => 45 });
    const c = clientOf(server);
    const all = await c.list<Item>('clippings');
    expect(all.map((item) => item.id)).toEqual([...ids(1, 10), ...ids(23, 23)].map((item) => item.id));
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
    expect(pagesHit(server)).toEqual([1, 2, 3, 4, 5]); // page 4 is short; page 5 was already asked for
    expect(c.stats().errors).toBe(0);
  });
});

describe('bounds on what is requested ahead', () => {
  it('a total beyond the ceiling asks for no page past it and fails at the ceiling', async () => {
    const server = await pagingServer({ list: () => ids(1, 1000), total: (list) => list.length });
    let error: unknown;
    try {
      await clientOf(server, { maxPages: 3 }).list('clippings');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NewsroomApiError);
    expect((error as NewsroomApiError).kind).toBe('page-ceiling');
    expect(pagesHit(server)).toEqual([1, 2, 3, 4]); // the fourth only proves the list goes on
  });

  it('a total far larger than the list costs at most the requests already sent; the rest are dropped', async () => {
    const server = await pagingServer({ list: () => ids(1, 25), total: () => 1_000_000 });
    const c = clientOf(server, { concurrency: 3 });
    expect(await c.list<Item>('clippings')).toEqual(ids(1, 25));
    const sent = server.hits.length;
    expect(sent).toBeLessThanOrEqual(1 + 3 + 3); // page 1, then at most one round of 3 past page 3
    expect(c.stats()).toMatchObject({ requests: sent, errors: 0 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(server.hits.length).toBe(sent); // nothing queued was sent later
  });

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

describe('reading ahead into spare slots', () => {
  it('a long list alone in the limiter fills the free slots, wasting at most concurrency − 1 requests', async () => {
    // 20 full pages and the live service's total: read-ahead 1 alone would keep 2 pages in flight.
    const server = await pagingServer({ list: () => ids(1, 200), total: (_list, limit) => limit });
    const c = clientOf(server, { readAhead: 1 });
    expect(await c.list<Item>('clippings')).toEqual(ids(1, 200));
    expect(server.peak()).toBeGreaterThanOrEqual(4);
    expect(server.peak()).toBeLessThanOrEqual(8);
    expect(Math.max(...pagesHit(server))).toBeLessThanOrEqual(20 + 8); // page 21 (empty) and at most 7 more
    expect(new Set(server.hits).size).toBe(server.hits.length);
    expect(c.stats()).toMatchObject({ requests: server.hits.length, errors: 0 });
  });

  it('never further ahead than the list has proven long', async () => {
    // Page 1 proves one page: page 2 (next), page 3 (read-ahead 1) and one spare page, not 7.
    const server = await pagingServer({ list: () => ids(1, 15), total: (_list, limit) => limit, delayMs: 30 });
    expect(await clientOf(server, { readAhead: 1 }).list<Item>('clippings')).toEqual(ids(1, 15));
    expect(pagesHit(server)).toEqual([1, 2, 3, 4]);
  });

  it('takes no slot that queued requests wait for', async () => {
    const server = await pagingServer({ list: () => ids(1, 45), total: (_list, limit) => limit, delayMs: 5 });
    const c = clientOf(server, { concurrency: 4, readAhead: 1 });
    const singles = Promise.all(Array.from({ length: 100 }, (_, i) => c.get(`media_kits/${i + 1}`)));
    expect(await c.list<Item>('clippings')).toEqual(ids(1, 45));
    await singles;
    // Pages 1–5 hold the list (page 5 is short); read-ahead 1 may add page 6, spare slots nothing.
    expect(Math.max(...server.hits.filter((hit) => /^\d+$/.test(hit)).map(Number))).toBeLessThanOrEqual(6);
  });
});

describe('answers a build used', () => {
  it('leave out pages read ahead past the end, whether or not they were sent in time', async () => {
    // 25 items, 10 a page, read-ahead 3: pages 4–6 may go out before page 3 proves the list is done.
    const server = await pagingServer({ list: () => ids(1, 25), total: (_list, limit) => limit, delayMs: 5 });
    const c = clientOf(server, { readAhead: 3 });
    expect(await c.list<Item>('clippings')).toEqual(ids(1, 25));
    expect(pagesHit(server).length).toBeGreaterThan(3); // some pages past the end were asked for…
    // …but the build was made from pages 1–3 only, so the same data always gives the same answers.
    expect([...c.answers().keys()].map((endpoint) => new URL(endpoint, server.url).searchParams.get('page'))).toEqual(['1', '2', '3']);
  });
});
