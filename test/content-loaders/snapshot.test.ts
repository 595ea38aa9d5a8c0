/**
 * Snapshots: recording everything a build needs (API answers and media
 * originals, without the key), and replaying it with no socket opened.
 */
import { cp, readFile, readdir, rm, writeFile, mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { loadConfig } from '../../src/config/environment.ts';
import { mediaOriginalUrls } from '../../content-loaders/media-urls.ts';
import { readManifest, sha256Hex } from '../../content-loaders/snapshot/manifest.ts';
import { recordSnapshot, type RecordResult } from '../../content-loaders/snapshot/record-press-room.ts';
import { createSnapshotRecorder } from '../../content-loaders/snapshot/record.ts';
import { createGuardedOpener } from '../../image-pipeline/index.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { dataOf, loadAll, runtimeFor, type LoadRun } from '../helpers/loader-context.ts';

const KEY = 'sk_live_snapshot_SECRET_9921';
let api: RunningEmulator;
let dir: string;
let recorded: RecordResult;
let live: LoadRun;

beforeAll(async () => {
  api = await startEmulator({ readKey: KEY, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  dir = await mkdtemp(path.join(os.tmpdir(), 'snapshot-'));
  const env = { PRESSROOM_API_URL: api.url, PRESSROOM_ID: String(api.pressroom.id), PRESSROOM_API_KEY: KEY };
  recorded = await recordSnapshot({ config: loadConfig(env), out: dir });
  live = await loadAll(await runtimeFor(env));
}, 120_000);

afterAll(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('recording', () => {
  it('records every API answer and every media original, each file matching its SHA-256', async () => {
    const manifest = await readManifest(dir);
    expect(manifest.api).toEqual({ baseUrl: api.url, pressroomId: String(api.pressroom.id) });
    const urls = new Set(manifest.entries.map((e) => e.url));
    const apiUrls = [...urls].filter((u) => u.includes('/v1/pressrooms/'));
    expect(apiUrls.length).toBe(recorded.apiResponses);
    const originals = mediaOriginalUrls(Object.values(live.stores).flatMap((s) => Object.values(dataOf(s))));
    for (const url of originals) expect(urls.has(url), url).toBe(true);
    expect(recorded.mediaFailures).toEqual([]);
    for (const entry of manifest.entries) {
      const bytes = await readFile(path.join(dir, 'files', entry.sha256));
      expect(bytes.length).toBe(entry.bytes);
      expect(sha256Hex(bytes)).toBe(entry.sha256);
    }
    const kinds = new Set(manifest.entries.map((e) => e.contentType?.split(';')[0]));
    expect(kinds).toEqual(
      new Set(['application/json', 'image/jpeg', 'image/png', 'application/pdf', 'audio/wav', 'video/mp4', 'video/webm']),
    );
  });

  it('leaves no partial file behind, and refuses a media original past the size cap without keeping any of it', async () => {
    expect((await readdir(path.join(dir, 'files'))).filter((f) => f.startsWith('.'))).toEqual([]);
    const capped = await mkdtemp(path.join(os.tmpdir(), 'snapshot-cap-'));
    try {
      const recorder = createSnapshotRecorder(capped);
      const manifest = await readManifest(dir);
      const big = manifest.entries.filter((e) => !e.url.includes('/v1/')).sort((a, b) => b.bytes - a.bytes)[0]!;
      await expect(recorder.download(big.url, { maxBytes: Math.floor(big.bytes / 2) })).rejects.toThrow(/more than/);
      expect(await readdir(path.join(capped, 'files'))).toEqual([]);
      const entry = await recorder.download(big.url);
      expect(entry).toMatchObject({ url: big.url, sha256: big.sha256, bytes: big.bytes });
      expect(await readdir(path.join(capped, 'files'))).toEqual([big.sha256]);
      expect(recorder.count).toBe(1);

      // Through the image pipeline's guarded opener (what `npm run snapshot` uses): a media host on
      // loopback is refused unless the API lives there, and nothing is written.
      const guarded = createSnapshotRecorder(path.join(capped, 'guarded'));
      await expect(guarded.download(big.url, { open: createGuardedOpener({ apiUrl: 'https://api.example.test' }) })).rejects.toThrow(
        /loopback|address/,
      );
      expect(guarded.count).toBe(0);
      expect(await guarded.download(big.url, { open: createGuardedOpener({ apiUrl: api.url }) })).toMatchObject({ sha256: big.sha256 });
    } finally {
      await rm(capped, { recursive: true, force: true });
    }
  });

  it('retries a media original that failed once; names one that keeps failing and leaves it out, so the command can fail', async () => {
    const flaky = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    const out = await mkdtemp(path.join(os.tmpdir(), 'snapshot-missing-'));
    try {
      const manifest = await readManifest(dir);
      const media = manifest.entries.find((e) => e.url.includes('/documents/') || e.contentType === 'application/pdf')!;
      const route = new URL(media.url).pathname;
      const fault = await fetch(`${flaky.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ route, kind: 'status', status: 500 }),
      });
      expect(fault.status).toBe(201);
      const once = manifest.entries.find((e) => e.contentType === 'image/png')!;
      const onceRoute = new URL(once.url).pathname;
      await fetch(`${flaky.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ route: onceRoute, kind: 'status', status: 503, count: 1 }),
      });
      const lines: string[] = [];
      const result = await recordSnapshot({
        config: loadConfig({ PRESSROOM_API_URL: flaky.url, PRESSROOM_ID: String(flaky.pressroom.id) }),
        out,
        log: (l) => lines.push(l),
      });
      expect(result.mediaFailures).toEqual([media.url.replace(api.url, flaky.url)]);
      expect(lines.some((l) => l.includes(route) && /could not download .*HTTP 500/.test(l))).toBe(true);
      const recorded = (await readManifest(out)).entries;
      expect(recorded.some((e) => e.url.endsWith(route))).toBe(false);
      expect(recorded.find((e) => e.url.endsWith(onceRoute))).toMatchObject({ sha256: once.sha256 });
    } finally {
      await flaky.close();
      await rm(out, { recursive: true, force: true });
    }
  });

  it('never writes the API key into the snapshot', async () => {
    const files = [path.join(dir, 'manifest.json'), ...(await readdir(path.join(dir, 'files'))).map((f) => path.join(dir, 'files', f))];
    for (const file of files) expect((await readFile(file)).includes(KEY), file).toBe(false);
  });
});

describe('replay', () => {
  it('answers a conditional request for the recorded ETag with 304, without reading the file', async () => {
    const { openSnapshot } = await import('../../content-loaders/snapshot/replay.ts');
    const copy = await mkdtemp(path.join(os.tmpdir(), 'snapshot-304-'));
    try {
      await cp(dir, copy, { recursive: true });
      const replay = await openSnapshot(copy);
      const entry = replay.manifest.entries.find((e) => e.etag && !e.url.includes('/v1/'))!;
      // Damage the file: a 304 must not touch it, a full answer must refuse it.
      await writeFile(path.join(copy, 'files', entry.sha256), 'damaged');
      const notModified = await replay.fetch(entry.url, { headers: { 'if-none-match': `"other", ${entry.etag}` } });
      expect([notModified.status, notModified.headers.get('etag')]).toEqual([304, entry.etag]);
      await expect(replay.fetch(entry.url, { headers: { 'if-none-match': '"other"' } })).rejects.toThrow(/does not match its SHA-256/);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
  it('checks every file when it opens: a truncated or missing media original stops it with a line naming the file', async () => {
    const { openSnapshot } = await import('../../content-loaders/snapshot/replay.ts');
    const copy = await mkdtemp(path.join(os.tmpdir(), 'snapshot-damaged-'));
    try {
      await cp(dir, copy, { recursive: true });
      const manifest = await readManifest(copy);
      const media = manifest.entries.find((e) => e.contentType?.startsWith('image/') && !e.url.includes('/v1/'))!;
      const file = path.join(copy, 'files', media.sha256);
      const good = await readFile(file);
      await writeFile(file, good.subarray(0, good.length - 1));
      await expect(openSnapshot(copy)).rejects.toThrow(
        new RegExp(`${media.sha256} for .* does not match its SHA-256 \\(${good.length - 1} bytes, ${good.length} recorded\\)`),
      );
      await rm(file);
      await expect(openSnapshot(copy)).rejects.toThrow(
        new RegExp(`${media.sha256} for .* is missing; the snapshot is damaged, record it again`),
      );
      await writeFile(file, good);
      await expect(openSnapshot(copy)).resolves.toMatchObject({ manifest: { format: 'pressroom-snapshot/1' } });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('loads the same entries with no socket opened', async () => {
    const connects: string[] = [];
    const original = net.Socket.prototype.connect;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      connects.push(JSON.stringify(args[0]));
      return (original as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof original;
    try {
      const replayed = await loadAll(await runtimeFor({ PRESSROOM_SNAPSHOT: dir }));
      expect(replayed.runtime.mode).toBe('snapshot');
      for (const name of Object.keys(live.stores) as Array<keyof typeof live.stores>) {
        expect(dataOf(replayed.stores[name]), name).toEqual(dataOf(live.stores[name]));
      }
      const image = Object.values(dataOf(replayed.stores.images))[0] as { sizes: { original: { url: string } } };
      const bytes = await (await replayed.runtime.fetch(image.sizes.original.url, {})).arrayBuffer();
      expect(bytes.byteLength).toBeGreaterThan(1000);
    } finally {
      net.Socket.prototype.connect = original;
    }
    expect(connects).toEqual([]);
  });

  it('names the URL that was not recorded, and refuses a damaged file', async () => {
    const runtime = await runtimeFor({ PRESSROOM_SNAPSHOT: dir });
    await expect(runtime.fetch(`${api.url}/media/not-recorded.jpg`, {})).rejects.toThrow(/not-recorded\.jpg is not in the snapshot/);
    const manifest = await readManifest(dir);
    const victim = manifest.entries.find((e) => e.contentType === 'image/png')!;
    const file = path.join(dir, 'files', victim.sha256);
    const good = await readFile(file);
    await writeFile(file, Buffer.concat([good.subarray(0, 100), Buffer.from('tampered')]));
    try {
      await expect(runtime.fetch(victim.url, {})).rejects.toThrow(/does not match its SHA-256/);
    } finally {
      await writeFile(file, good);
    }
  });
});
