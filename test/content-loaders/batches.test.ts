/**
 * Sources hand their items over batch by batch (a list page by page), and a
 * loader makes each batch into entries before it asks for the next: a long
 * list's answers are never all held at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'astro/zod';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { createNewsroomClient, type NewsroomClient } from '../../content-loaders/client/index.ts';
import { newsroomLoader } from '../../content-loaders/loaders/newsroom-loader.ts';
import { createLoaderRuntime } from '../../content-loaders/runtime.ts';
import { defineSource, listOf, listsOf, type RawItems } from '../../content-loaders/sources/source.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { memoryStore } from '../helpers/loader-context.ts';

let api: RunningEmulator;
beforeAll(async () => {
  api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE, seed: 1 });
});
afterAll(() => api.close());

const clientOf = (pageLimit: number) => createNewsroomClient({ baseUrl: api.url, pressroomId: api.pressroom.id, pageLimit });
async function batchesOf(batches: AsyncIterable<RawItems>): Promise<RawItems[]> {
  const all: RawItems[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}
const ids = (batches: RawItems[]) => batches.flatMap((b) => b.items.map((item) => (item as { id: number }).id));

describe('list sources', () => {
  it('hand over a list page by page, in the list order, each item named by the list endpoint', async () => {
    const whole = await clientOf(100).list<{ id: number }>('clippings');
    expect(whole.length).toBeGreaterThan(25);
    const client = clientOf(10);
    const batches = await batchesOf(listOf('clippings')(client));
    expect(batches.length).toBe(Math.ceil(whole.length / 10));
    for (const batch of batches) {
      expect(batch.items.length).toBeLessThanOrEqual(10);
      expect(batch.endpoint).toBe(client.endpoint('clippings'));
    }
    expect(ids(batches)).toEqual(whole.map((item) => item.id));
  });

  it('hand over several lists one after the other, so items come in the same order every time', async () => {
    const paths = ['archive/press_releases', 'archive/clippings', 'archive/events'];
    const client = clientOf(10);
    const expected: number[] = [];
    for (const path of paths) expected.push(...(await client.list<{ id: number }>(path)).map((item) => item.id));
    const first = await batchesOf(listsOf(paths)(clientOf(10)));
    expect(ids(first)).toEqual(expected);
    expect(ids(await batchesOf(listsOf(paths)(clientOf(7))))).toEqual(expected);
    expect(new Set(first.map((b) => b.endpoint))).toEqual(new Set(paths.map((p) => client.endpoint(p))));
  });
});

describe('several lists of one source', () => {
  /** A client whose lists are `pages` pages of one item each, a page every `ms`; it notes when pages are asked for and lists closed. */
  function fakeClient(lists: Record<string, { pages: number; failAt?: number }>, events: string[], ms = 15) {
    return {
      endpoint: (path: string) => `/${path}`,
      pages: async function* (path: string) {
        try {
          for (let page = 1; page <= lists[path]!.pages; page++) {
            events.push(`ask ${path} ${page}`);
            await new Promise((resolve) => setTimeout(resolve, ms));
            if (page === lists[path]!.failAt) throw new Error(`${path} page ${page} failed`);
            yield { page, items: [{ id: `${path}-${page}` }], received: 1, endpoint: `/${path}?page=${page}` };
          }
        } finally {
          events.push(`closed ${path}`);
        }
      },
    } as unknown as NewsroomClient;
  }

  it('are asked for at once and handed over one after the other', async () => {
    const events: string[] = [];
    const handed: string[] = [];
    for await (const batch of listsOf(['a', 'b'])(fakeClient({ a: { pages: 3 }, b: { pages: 2 } }, events))) {
      handed.push(...batch.items.map((item) => (item as { id: string }).id));
      events.push(`handed ${batch.endpoint}`);
    }
    expect(handed).toEqual(['a-1', 'a-2', 'a-3', 'b-1', 'b-2']);
    // The second list was asked for before the first was handed over.
    expect(events.indexOf('ask b 1')).toBeLessThan(events.indexOf('handed /a'));
    expect(events.indexOf('ask b 2')).toBeLessThan(events.lastIndexOf('handed /a'));
  });

  it('stop reading the others when one fails, and a later one fails where it is handed over', async () => {
    const events: string[] = [];
    const first = listsOf(['a', 'b'])(fakeClient({ a: { pages: 3, failAt: 2 }, b: { pages: 50 } }, events));
    await expect(batchesOf(first)).rejects.toThrow('a page 2 failed');
    expect(events).toContain('closed b');
    expect(events.filter((e) => e.startsWith('ask b')).length).toBeLessThan(50);

    const later: string[] = [];
    const handed: string[] = [];
    const second = listsOf(['a', 'b'])(fakeClient({ a: { pages: 3 }, b: { pages: 3, failAt: 1 } }, later));
    await expect(
      (async () => {
        for await (const batch of second) handed.push(batch.endpoint);
      })(),
    ).rejects.toThrow('b page 1 failed');
    expect(handed).toEqual(['/a', '/a', '/a']);
  });
});

describe('a loader', () => {
  it('makes each batch into entries before it asks for the next', async () => {
    const events: string[] = [];
    const source = defineSource({
      collection: 'things',
      fetch: async function* () {
        for (const batch of [1, 2, 3]) {
          events.push(`fetch ${batch}`);
          yield {
            endpoint: '/things',
            items: [
              { id: batch * 10 + 1, title: 'a' },
              { id: batch * 10 + 2, title: 'b' },
            ],
          };
        }
      },
      schema: z.object({ id: z.number(), title: z.string() }),
      screen: (raw) => {
        events.push(`entry ${String(raw.id)}`);
        return raw;
      },
      entryId: (item) => String(item.id),
      toEntry: (item) => item,
    });
    const runtime = await createLoaderRuntime({ apiUrl: 'http://127.0.0.1:9', pressroomId: '1', logger: { info() {}, warn() {} } });
    const store = memoryStore();
    await newsroomLoader(source, { runtime: async () => runtime }).load({
      collection: 'things',
      store,
      generateDigest: (data: unknown) => JSON.stringify(data),
    } as never);
    expect(events).toEqual(['fetch 1', 'entry 11', 'entry 12', 'fetch 2', 'entry 21', 'entry 22', 'fetch 3', 'entry 31', 'entry 32']);
    expect([...store.map.keys()]).toEqual(['11', '12', '21', '22', '31', '32']);
  });

  it('leaves the store as it was when a later batch fails', async () => {
    const source = defineSource({
      collection: 'things',
      fetch: async function* () {
        yield { endpoint: '/things', items: [{ id: 1, title: 'new' }] };
        throw new Error('the second page failed');
      },
      schema: z.object({ id: z.number(), title: z.string() }),
      entryId: (item) => String(item.id),
      toEntry: (item) => item,
    });
    const runtime = await createLoaderRuntime({ apiUrl: 'http://127.0.0.1:9', pressroomId: '1', logger: { info() {}, warn() {} } });
    const store = memoryStore();
    store.set({ id: '1', data: { id: 1, title: 'old' }, digest: 'old' });
    store.set({ id: '2', data: { id: 2, title: 'kept' }, digest: 'kept' });
    const load = newsroomLoader(source, { runtime: async () => runtime }).load({
      collection: 'things',
      store,
      generateDigest: (data: unknown) => JSON.stringify(data),
    } as never);
    await expect(load).rejects.toThrow('the second page failed');
    expect([...store.map.values()].map((e) => e.data)).toEqual([
      { id: 1, title: 'old' },
      { id: 2, title: 'kept' },
    ]);
  });
});
