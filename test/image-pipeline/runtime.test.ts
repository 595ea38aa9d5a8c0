/**
 * The build's own pipeline (`picture()`, `download()`, `mediaKitZip()` from
 * src/lib/image-pipeline.ts) runs on the loaders' runtime: in snapshot mode it
 * downloads through the snapshot's fetch, so with the API gone every picture,
 * download and zip still comes out, and originals are exactly what the
 * snapshot recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/environment.ts';
import { buildRuntime, resetBuildRuntime } from '../../src/config/build-runtime.ts';
import { closeBuildSession, openBuildSession } from '../../src/config/session.ts';
import { recordSnapshot } from '../../content-loaders/snapshot/record-press-room.ts';
import { startEmulator } from '../../emulator/server.ts';
import { configureImagePipeline, download, mediaKitZip, picture, resetImagePipeline, stats } from '../../src/lib/image-pipeline.ts';
import type { MediaKitInput } from '@pressroom-static/image-pipeline';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { readManifest, recordedUrl } from '../../content-loaders/snapshot/manifest.ts';
import { tempDir } from './helpers.ts';

describe('the build pipeline on the loaders runtime', () => {
  let snapshot: Awaited<ReturnType<typeof tempDir>>;
  let cache: Awaited<ReturnType<typeof tempDir>>;
  let image: MediaKitInput['media'] extends (infer T)[] | null | undefined ? T : never;
  let kit: MediaKitInput;
  const warnings: string[] = [];

  beforeAll(async () => {
    snapshot = await tempDir('snapshot');
    cache = await tempDir('runtime');
    const api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    try {
      const env = { PRESSROOM_API_URL: api.url, PRESSROOM_ID: String(api.pressroom.id) };
      const result = await recordSnapshot({ config: loadConfig(env), out: snapshot.dir });
      expect(result.mediaFailures).toEqual([]);
      const base = `${api.url}/v1/pressrooms/${api.pressroom.id}`;
      image = ((await (await fetch(`${base}/images?limit=1`)).json()) as { data: [typeof image] }).data[0];
      const kits = ((await (await fetch(`${base}/media_kits?limit=100`)).json()) as { data: MediaKitInput[] }).data;
      kit = kits.find((k) => !k.is_locked && !k.is_password_protected && (k.media?.length ?? 0) > 0)!;
    } finally {
      await api.close(); // from here on, only the snapshot can answer
    }
    resetBuildRuntime();
    resetImagePipeline();
    // The build's runtime comes from the session's configuration, as in a build.
    openBuildSession(loadConfig({ ...process.env, PRESSROOM_SNAPSHOT: snapshot.dir }));
    await buildRuntime();
    configureImagePipeline({ cacheDir: cache.dir, publicPath: '/base/_media/', log: { warn: (line) => warnings.push(line) } });
  }, 60_000);

  afterAll(async () => {
    closeBuildSession();
    await snapshot?.remove();
    await cache?.remove();
  });

  it('renders pictures, downloads and zips from the snapshot with the API closed', async () => {
    const pic = await picture(image, { page: '/images/x' });
    expect(pic.ok).toBe(true);
    if (pic.ok) expect(pic.src).toMatch(/^\/base\/_media\/[0-9a-f]{16}-\d+x\d+\.jpg$/);
    const file = await download(image);
    expect(file).toMatchObject({ type: 'JPEG image' });
    // The original is exactly what the snapshot recorded for it, byte for byte.
    const original = (image.sizes as Record<string, { url: string }>).original!.url;
    const recorded = (await readManifest(snapshot.dir)).entries.find((e) => e.url === recordedUrl(original));
    expect(recorded?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file?.sha256).toBe(recorded?.sha256);
    const zip = await mediaKitZip(kit, { page: '/media_kits/x' });
    expect(zip?.files).toBe((kit.media ?? []).filter((m) => m.type !== 'video').length);
    expect(warnings).toEqual([]);
    expect((await stats()).refused).toBe(0);
  });
});
