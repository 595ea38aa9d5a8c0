/**
 * The demo press room is reached at one fixed origin whatever loopback port
 * its emulator got, so the media URLs a build sees (and the HTTP and image
 * caches keyed by them) stay the same when port 4319 is taken.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createLoaderRuntime, mediaOriginalUrls } from '@pressroom-static/content-loaders';
import { DEMO_ORIGIN } from '../../emulator/embedded.ts';
import { closeDemoApis, demoUpstream, startDemoApi } from '../../src/config/demo-upstream.ts';
import { loadConfig } from '../../src/config/environment.ts';
import { loaderOptionsOf } from '../../src/config/loader-options.ts';

const cacheDirs: string[] = [];
afterAll(async () => {
  await closeDemoApis();
  for (const dir of cacheDirs) await rm(dir, { recursive: true, force: true });
});

/** The media URLs of the demo's image library as a build's runtime sees them, with the emulator's real URL. */
async function demoAsABuildSeesIt() {
  const env: Record<string, string | undefined> = {};
  const embedded = await startDemoApi({ stableOrigin: true });
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'demo-origin-'));
  cacheDirs.push(cacheDir);
  // As a build makes its options: nothing configured, the demo this process serves.
  const options = loaderOptionsOf(loadConfig(env), Date.now(), demoUpstream());
  const runtime = await createLoaderRuntime({ ...options, cacheDir });
  const { apiUrl, pressroomId } = runtime.options;
  const list = await runtime.fetch(`${apiUrl}/v1/pressrooms/${pressroomId}/images?limit=100`, {});
  const urls = [...mediaOriginalUrls(await list.json())];
  const media = await runtime.fetch(urls[0]!, {});
  return {
    actual: embedded.emulator.url,
    apiUrl,
    env,
    mode: runtime.mode,
    urls,
    media: { status: media.status, bytes: (await media.arrayBuffer()).byteLength },
  };
}

it('gives builds the same media URLs on whichever port the demo API listens', async () => {
  const first = await demoAsABuildSeesIt();
  // The first one still holds its port (4319, or another when 4319 was taken): the second cannot get it.
  const second = await demoAsABuildSeesIt();
  expect(second.actual).not.toBe(first.actual);
  expect([first.apiUrl, first.mode, second.apiUrl, second.mode]).toEqual([DEMO_ORIGIN, 'supplied', DEMO_ORIGIN, 'supplied']);
  // Nothing is written into the environment for the loaders to read.
  expect([first.env, second.env]).toEqual([{}, {}]);
  expect(first.urls.length).toBeGreaterThan(10);
  expect(first.urls.every((url) => url.startsWith(`${DEMO_ORIGIN}/media/`))).toBe(true);
  expect(second.urls).toEqual(first.urls);
  expect(first.media.status).toBe(200);
  expect(first.media.bytes).toBeGreaterThan(1000);
});
