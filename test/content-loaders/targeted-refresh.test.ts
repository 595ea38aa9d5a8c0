/**
 * A targeted refresh: a sync whose context names some releases (`TARGETED_ITEMS`) fetches those
 * alone, each admitted as the list would admit it, removes the ones no longer shown, and leaves every
 * other entry as it was; a collection the context does not name, or one whose entries depend on
 * their place, loads whole.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TARGETED_ITEMS } from '../../content-loaders/loaders/newsroom-loader.ts';
import { TEST_MEDIA_CACHE, manageEmulator } from '../helpers/emulator.ts';
import { dataOf, loadAll, runtimeFor } from '../helpers/loader-context.ts';

let api: RunningEmulator;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'targeted-refresh-'));
  api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE, scale: 20 });
});
afterAll(async () => {
  await api.close();
  await rm(tmp, { recursive: true, force: true });
});

const runtime = (name: string) => runtimeFor({ PRESSROOM_API_URL: api.url, PRESSROOM_ID: String(api.pressroom.id) }, path.join(tmp, name));

describe('a targeted refresh', () => {
  it('fetches the named releases alone, as the list admits them, removes the ones not shown, and keeps the rest', async () => {
    const loaded = await loadAll(await runtime('named'), {}, ['pressReleases', 'clippings', 'timeline']);
    const releases = loaded.stores.pressReleases;
    const before = dataOf(releases);
    const [edited, withdrawn, untouched] = Object.keys(before);
    const title = `${(before[edited!] as { title: string }).title}, edited`;
    await manageEmulator(api, 'PUT', `/v1/campaigns/${edited}`, { campaign: { title } });
    await manageEmulator(api, 'PUT', `/v1/campaigns/${withdrawn}/cancel`);
    await manageEmulator(api, 'PUT', `/v1/campaigns/${untouched}`, { campaign: { title: 'changed, but not named' } });
    const [writes, deletes] = [releases.writes, releases.deletes];

    const named = { [TARGETED_ITEMS]: { pressReleases: [edited, withdrawn, '999999999'], timeline: ['1'] } };
    const refreshed = await loadAll(await runtime('named'), loaded.stores, ['pressReleases', 'clippings', 'timeline'], {}, named);

    // One request a named release; one entry written, one removed, an unknown id nothing.
    const report = refreshed.runtime.reports.find((r) => r.collection === 'pressReleases')!;
    expect(report).toMatchObject({ named: 3, added: 0, changed: 1, removed: 1, requests: 3 });
    expect([releases.writes - writes, releases.deletes - deletes]).toEqual([1, 1]);
    const after = dataOf(releases);
    expect(after[withdrawn!]).toBeUndefined();
    expect(after[untouched!]).toEqual(before[untouched!]);
    // The edited one is the entry a whole load makes of it now.
    const whole = await loadAll(await runtime('whole'), {}, ['pressReleases']);
    expect(after[edited!]).toEqual(dataOf(whole.stores.pressReleases)[edited!]);
    expect((after[edited!] as { title: string }).title).toBe(title);
    // A collection the context does not name, and one whose entries depend on their place, load whole.
    for (const collection of ['clippings', 'timeline']) {
      const whole = refreshed.runtime.reports.find((r) => r.collection === collection)!;
      expect(whole.named, collection).toBeUndefined();
      expect(whole.entries, collection).toBeGreaterThan(1);
    }
  });
});
