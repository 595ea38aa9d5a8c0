/**
 * The admission memo (a process that loads again and again keeps what each raw item came to):
 * against the emulator over HTTP, with broken items (warnings), items that are not public
 * (counted, embargoes noted) and a duplicated one, loads with a memo give the very stores,
 * digests, data report and log lines loads without one give; an item is admitted again when it,
 * its place in a list that records places, the clock past one of its embargoes, or its body file
 * changed, and only then; strict mode fails on a reused item's warning as on an admitted one's.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { admitItem } from '../../content-loaders/data-policy/admit.ts';
import { DataIssues, DataPolicyError } from '../../content-loaders/data-policy/issues.ts';
import { createAdmissionMemo, type AdmissionMemo } from '../../content-loaders/loaders/admission-memo.ts';
import type { LoaderOptions } from '../../content-loaders/options.ts';
import { createLoaderRuntime, type LoaderRuntime } from '../../content-loaders/runtime.ts';
import { SOURCES, type CollectionName, type CollectionSource } from '../../content-loaders/sources/index.ts';
import { manageEmulator, useEmulator } from '../helpers/emulator.ts';
import { loadAll, memoryStore } from '../helpers/loader-context.ts';

const emulator = useEmulator({ frozenClock: true, seed: 1, flaws: true, leakHidden: true });
const NOW = Date.parse(DEMO_NOW);
const HOUR = 3_600_000;
const NAMES = Object.keys(SOURCES) as CollectionName[];

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'admission-memo-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** What the API answers is rewritten by this (path relative to the press room, list data), between loads if a test says so. */
let rewrite: (path: string, data: any) => any = (_path, data) => data;
/**
 * What a source's `screen` and the duplicate check act on: a second tag under the slug of another
 * (the client drops an item repeated by id, not by slug), so the second is skipped with a warning;
 * a kit with media locked, and one whose lock flag cannot be read (its media are kept out, warned).
 */
const hostile = (p: string, data: any) => {
  if (p === 'tags' && Array.isArray(data) && data.length > 1) return [...data, { ...data[1], id: 990_001 }];
  if (p !== 'media_kits' || !Array.isArray(data)) return data;
  const withMedia = data.flatMap((kit, i) => (kit.media?.length > 0 ? [i] : []));
  const lock = new Map<number | undefined, boolean | string>([
    [withMedia[0], true],
    [withMedia[1], 'maybe'],
  ]);
  return data.map((kit, i) => (lock.has(i) ? { ...kit, is_locked: lock.get(i) } : kit));
};

const rewritingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status !== 200) return response;
  const url = new URL(input instanceof Request ? input.url : String(input));
  const local = url.pathname.replace(/^\/v1\/pressrooms\/[^/]+\/?/, '').replace(/\.json$/, '');
  const body = (await response.json()) as { data: unknown };
  const etag = response.headers.get('etag');
  return new Response(JSON.stringify({ ...body, data: rewrite(local, body.data) }), {
    status: 200,
    headers: { 'content-type': 'application/json', ...(etag ? { etag } : {}) },
  });
};

function runtimeWith(options: Partial<LoaderOptions>): Promise<LoaderRuntime> {
  return createLoaderRuntime({
    apiUrl: emulator().url,
    pressroomId: emulator().pressroom.id,
    concurrency: 4,
    now: NOW,
    fetch: rewritingFetch,
    ...options,
  });
}

type Stores = Partial<Record<CollectionName, ReturnType<typeof memoryStore>>>;

/** The collections loaded one after the other (so the warnings and log lines come in one order), into `stores`. */
async function loadInTurn(runtime: LoaderRuntime, stores: Stores, memo?: AdmissionMemo, names: readonly CollectionName[] = NAMES) {
  const logs: string[] = [];
  for (const name of names) logs.push(...(await loadAll(runtime, stores, [name], memo ? { memo } : {})).logs);
  return {
    // How many answers were 304s is the transport's timing (a request repeated within a load may or may not
    // find the first answer cached yet), not what the memo decides: left out with the time.
    logs: logs.map((line) => line.replace(/ · \d+ ms$/, '').replace(/, \d+ not modified · /, ', … not modified · ')),
    report: runtime.issues.report(),
    stores: Object.fromEntries(names.map((name) => [name, [...stores[name]!.map.values()]])),
  };
}

const counts = (memo: AdmissionMemo) => ({ hits: memo.hits, misses: memo.misses });

/**
 * The same loads made twice side by side, into stores (and HTTP caches) of their own, with the
 * memo and without: each load's stores, digests, report and log lines must be the same.
 */
function twins(memo: AdmissionMemo, cacheRoot?: string) {
  const withMemo: Stores = {};
  const without: Stores = {};
  const cacheOf = (twin: string) => (cacheRoot ? { cacheDir: path.join(cacheRoot, twin) } : {});
  return {
    stores: withMemo,
    async load(options: Partial<LoaderOptions> = {}, names: readonly CollectionName[] = NAMES) {
      const memoised = await loadInTurn(await runtimeWith({ ...options, ...cacheOf('memo') }), withMemo, memo, names);
      const plain = await loadInTurn(await runtimeWith({ ...options, ...cacheOf('plain') }), without, undefined, names);
      expect(memoised).toEqual(plain);
      return memoised;
    },
  };
}

describe('loads with an admission memo', () => {
  it('store, report and log exactly what loads without one do, reusing every unchanged item', async () => {
    rewrite = hostile;
    try {
      const memo = createAdmissionMemo();
      const twin = twins(memo, path.join(tmp, 'same-http'));
      const bodyDir = path.join(tmp, 'same-bodies');

      const first = await twin.load({ bodyDir });
      expect(memo.hits).toBe(0);
      // Every raw item a collection received was admitted once.
      const received = Object.values(first.report.collections).reduce((n, t) => n + t.received, 0);
      expect(memo.misses).toBe(received);

      const second = await twin.load({ bodyDir });
      // Nothing was admitted again but the duplicate (whose outcome is not kept: it made no entry).
      expect(counts(memo)).toEqual({ hits: received - 1, misses: received + 1 });
      expect(memo.size).toBe(received - 1);
      // The list pages answered as before kept their items' keys: none of their items was hashed again.
      expect(memo.answersRecognised).toBeGreaterThan(NAMES.length / 2);

      // The world exercised every effect a reuse replays: warnings (and their log lines), items
      // kept out by reason, nested ones, an embargo's lift, a duplicate id.
      const { warnings, collections, nextEmbargoLift } = second.report;
      expect(new Set(warnings.map((w) => w.kind))).toEqual(new Set(['field-dropped', 'field-replaced', 'item-skipped', 'item-hidden']));
      expect(warnings.some((w) => w.reason.startsWith('an earlier item of this collection is already published'))).toBe(true);
      expect(collections.pressReleases?.hidden).toMatchObject({ draft: expect.any(Number), private: 1, embargoed: 2 });
      expect(collections['mediaKits.media']?.hidden).toMatchObject({ private: expect.any(Number), 'locked-media': expect.any(Number) });
      expect(nextEmbargoLift).not.toBeNull();
      for (const w of warnings) expect(second.logs.some((line) => line.includes(`item ${w.itemId} from`))).toBe(true);
      expect(second.logs.filter((line) => / entries \(0 new, 0 changed, \d+ unchanged, 0 removed\)/.test(line))).toHaveLength(NAMES.length);
    } finally {
      rewrite = (_path, data) => data;
    }
  });

  it('admit again only the release that changed upstream, and store its new value', async () => {
    const memo = createAdmissionMemo();
    const twin = twins(memo);
    await twin.load({}, ['pressReleases']);
    const [id, entry] = [...twin.stores.pressReleases!.map][0] as unknown as [string, { data: { id: number; title: string } }];
    const before = counts(memo);
    await manageEmulator(emulator(), 'PUT', `/v1/campaigns/${entry.data.id}.json`, {
      campaign: { title: `${entry.data.title} (updated)` },
    });
    try {
      const run = await twin.load({}, ['pressReleases']);
      expect(memo.misses - before.misses).toBe(1);
      expect(memo.hits - before.hits).toBe(before.misses - 1);
      expect((twin.stores.pressReleases!.map.get(id)!.data as { title: string }).title).toBe(`${entry.data.title} (updated)`);
      expect(run.logs.join('\n')).toMatch(/pressReleases: \d+ entries \(0 new, 1 changed, \d+ unchanged, 0 removed\)/);
    } finally {
      await manageEmulator(emulator(), 'PUT', `/v1/campaigns/${entry.data.id}.json`, { campaign: { title: entry.data.title } });
    }
  });

  it('admit again the timeline items whose place changed (entries record it), and forget the items no longer sent', async () => {
    const memo = createAdmissionMemo();
    const twin = twins(memo);
    await twin.load({}, ['timeline']);
    const size = memo.size;
    const before = counts(memo);
    // The first two entries' items swap places (items that are not public have no place), the last entry's is gone.
    const entries = [...twin.stores.timeline!.map.values()];
    const at = (position: number) => entries.find((e) => e.data.position === position)!.id;
    const [first, second, last] = [at(0), at(1), at(entries.length - 1)];
    const keyOf = (item: { type: string; id: number }) => `${item.type}-${item.id}`;
    rewrite = (p, data) => {
      if (p !== 'timeline' || !Array.isArray(data)) return data;
      const [a, b] = [data.findIndex((item) => keyOf(item) === first), data.findIndex((item) => keyOf(item) === second)];
      const swapped = a < 0 || b < 0 ? data : data.map((item, i) => (i === a ? data[b] : i === b ? data[a] : item));
      return swapped.filter((item) => keyOf(item) !== last);
    };
    try {
      await twin.load({}, ['timeline']);
      expect(memo.misses - before.misses).toBe(2);
      expect(memo.size).toBe(size - 1);
      expect(twin.stores.timeline!.map.get(first)!.data.position).toBe(1);
      expect(twin.stores.timeline!.map.has(last)).toBe(false);
    } finally {
      rewrite = (_path, data) => data;
    }
  });

  it('publish an embargoed release once the clock passes its lift, and reuse nothing at an earlier clock', async () => {
    const memo = createAdmissionMemo();
    const twin = twins(memo);
    const names: CollectionName[] = ['pressReleases', 'timeline'];
    const first = await twin.load({}, names);
    const lift = Date.parse(first.report.nextEmbargoLift!);
    expect(lift).toBeGreaterThan(NOW);

    const before = counts(memo);
    const lifted = await twin.load({ now: lift }, names);
    expect(lifted.stores.pressReleases!.length).toBe(first.stores.pressReleases!.length + 1);
    expect(lifted.logs.join('\n')).toMatch(/pressReleases: \d+ entries \(1 new, 0 changed, \d+ unchanged, 0 removed\)/);
    expect(memo.hits - before.hits).toBeGreaterThan(0);

    // An hour on, before any other lift, every kept outcome still holds; with the clock before any
    // of them was made, none is trusted.
    const afterLift = counts(memo);
    await twin.load({ now: lift + HOUR }, names);
    expect(memo.misses).toBe(afterLift.misses);
    const beforeBack = counts(memo);
    const back = await twin.load({ now: NOW - HOUR }, names);
    expect(memo.hits).toBe(beforeBack.hits);
    expect(back.stores.pressReleases!.length).toBe(first.stores.pressReleases!.length);
  });

  it('fail in strict mode on a reused warning as on an admitted one', async () => {
    const memo = createAdmissionMemo();
    await loadInTurn(await runtimeWith({}), {}, memo, ['clippings']);
    const before = counts(memo);
    const withMemo = await loadInTurn(await runtimeWith({ strict: true }), {}, memo, ['clippings']).catch((e: unknown) => e);
    const without = await loadInTurn(await runtimeWith({ strict: true }), {}, undefined, ['clippings']).catch((e: unknown) => e);
    expect(without).toBeInstanceOf(DataPolicyError);
    expect(withMemo).toBeInstanceOf(DataPolicyError);
    expect((withMemo as Error).message).toBe((without as Error).message);
    // The warning came from a replay: no clipping was admitted again.
    expect(memo.misses).toBe(before.misses);
    expect(memo.hits).toBeGreaterThan(before.hits);
  });

  it('store a release body again when its file is gone, and keep the files of reused entries from pruning', async () => {
    const memo = createAdmissionMemo();
    const bodyDir = path.join(tmp, 'gone-bodies');
    const stores: Stores = {};
    await loadInTurn(await runtimeWith({ bodyDir }), stores, memo, ['pressReleases']);
    const files = [...stores.pressReleases!.map.values()].map((e) => (e.data.body as { file?: string }).file).filter(Boolean) as string[];
    expect(files.length).toBeGreaterThan(10);
    await rm(files[0]!);
    const before = counts(memo);

    const runtime = await runtimeWith({ bodyDir });
    await loadInTurn(runtime, stores, memo, ['pressReleases']);
    expect(memo.misses - before.misses).toBe(1);
    expect(existsSync(files[0]!)).toBe(true);

    const longAgo = new Date(NOW - 30 * 24 * HOUR);
    for (const name of await readdir(bodyDir)) await utimes(path.join(bodyDir, name), longAgo, longAgo);
    expect(await runtime.bodies!.prune(HOUR)).toEqual({ files: 0, bytes: 0 });
    for (const file of files) expect(existsSync(file), file).toBe(true);
  });

  it('reuse nothing under other options that shape entries (bodies kept inline)', async () => {
    const memo = createAdmissionMemo();
    await loadInTurn(await runtimeWith({ bodyDir: path.join(tmp, 'shape-bodies') }), {}, memo, ['pressReleases']);
    const before = counts(memo);
    const inline = await loadInTurn(await runtimeWith({}), {}, memo, ['pressReleases']);
    expect(memo.hits).toBe(before.hits);
    expect(inline.stores.pressReleases![0]!.data.body).toEqual({ html: expect.any(String) });
  });
});

describe('sources', () => {
  it('declare the index parameter of toEntry exactly when their entries depend on it (the memo keys those by place)', async () => {
    const runtime = await runtimeWith({});
    const context = { now: NOW, issues: new DataIssues(), log: () => {} };
    const dependent: string[] = [];
    for (const source of Object.values(SOURCES) as CollectionSource[]) {
      for await (const { endpoint, items } of source.fetch(runtime.client, context)) {
        for (const raw of items.slice(0, 5)) {
          const item = admitItem(raw, { ...source, endpoint }, context);
          if (item === null) continue;
          const [at0, at7] = [source.toEntry(item, 0), source.toEntry(item, 7)];
          if (JSON.stringify(at0) !== JSON.stringify(at7)) dependent.push(source.collection);
        }
      }
    }
    const declared = Object.values(SOURCES)
      .filter((source) => source.toEntry.length > 1)
      .map((source) => source.collection);
    expect([...new Set(dependent)]).toEqual(declared);
    expect(declared).toEqual(['timeline', 'archive']);
  });
});
