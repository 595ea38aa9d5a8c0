/**
 * What is not public changes not one byte of the site: the hostile upstream's
 * site (its key sees every draft, private, embargoed and locked item, their
 * visibility spelled as other upstreams spell it) is built again from the same
 * press room answered to the public view, and the two trees are identical but
 * for what the public answer itself leaves out (a legacy kit's lock flag).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startEmulator } from '../../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../../helpers/emulator.ts';
import { UPSTREAM_OPTIONS, runBuild, upstreamBuildEnv } from '../global-setup.ts';
import { fileDigests } from '../../helpers/file-tree.ts';

const leaky = inject('upstreamSite');
let tmp: string;
let publicDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'hidden-bytes-'));
  publicDir = path.join(tmp, 'public-view');
  const api = await startEmulator({ ...UPSTREAM_OPTIONS, leakHidden: false, cacheDir: TEST_MEDIA_CACHE });
  try {
    const built = await runBuild(publicDir, upstreamBuildEnv(api));
    if (built.code !== 0) throw new Error(`the public view's site did not build (exit ${built.code}):\n${built.output.slice(-4000)}`);
  } finally {
    await api.close();
  }
}, 300_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

it('is the same site, byte for byte, whether the API leaks hidden items or keeps them back (but for the lock flag the public legacy answer omits)', async () => {
  const [withLeaks, publicView] = [await fileDigests(leaky.dir), await fileDigests(publicDir)];
  expect(Object.keys(withLeaks).length).toBeGreaterThan(500);
  const differing = [...new Set([...Object.keys(withLeaks), ...Object.keys(publicView)])].filter((f) => withLeaks[f] !== publicView[f]);
  // One difference is the API's, not the site's: the old /presskits shape answers the public with a
  // locked kit's id, title and no media and no lock flag, so that site shows it as a kit of 0 files;
  // the leaky answer carries the flag, and its site says "protected". Only the pages that show kits
  // (and the search index of their text) may differ for that; every other file must be the same.
  const showsKits = (f: string) => f.startsWith('media-kits/') || f === 'llms.txt' || f.startsWith('pagefind/');
  expect(differing.filter((f) => !showsKits(f))).toEqual([]);
  expect(differing.filter((f) => f.startsWith('media-kits/') && f !== 'media-kits/index.html').length).toBeLessThanOrEqual(2);
});
