/**
 * The site's own picture (the pressroom() option `theme.logo`) as an original: read from disk and
 * derived like any download, while every other `file:` URL (one an API could send) is refused by
 * the host policy and never read; the no-change check hashes the site's file again.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revalidateOriginals } from '../../image-pipeline/revalidate.ts';
import { tempDir, testPipeline } from './helpers.ts';

const logo = pathToFileURL(path.resolve(import.meta.dirname, '..', 'fixtures', 'brand', 'logo.png')).href;
let cache: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  cache = await tempDir('local');
});
afterAll(async () => {
  await cache.remove();
});

describe("the site's own files as originals", () => {
  it('derives the named file like any picture, and refuses any other file: URL without reading it', async () => {
    const pipeline = testPipeline({ apiUrl: 'https://api.example.test', cacheDir: cache.dir, localOriginals: [logo] });
    const picture = await pipeline.picture({ sizes: { original: { url: logo, width: null, height: null } } }, { page: '/' });
    expect(picture).toMatchObject({ ok: true, width: 480, height: 160, alpha: true });
    const stranger = pathToFileURL('/etc/hostname').href;
    const refused = await pipeline.picture({ sizes: { original: { url: stranger, width: 10, height: 10 } } }, { page: '/' });
    expect(refused).toMatchObject({ ok: false, status: 'refused' });
    expect(pipeline.lines.join('\n')).toContain('file: URLs are not downloaded');
    const originals = await pipeline.originals();
    // Listed by URL, so the order depends on where the checkout lives.
    expect(originals).toHaveLength(2);
    expect(originals).toEqual(
      expect.arrayContaining([
        { url: stranger, as: 'image', refused: 'host', retryable: false },
        { url: logo, as: 'image', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ]),
    );

    // The no-change check: the same bytes are unchanged, other bytes are a change, a refusal stays one.
    const check = (expected: typeof originals) =>
      revalidateOriginals(expected, {
        fetch,
        limit: (fn) => fn(),
        apiUrl: 'https://api.example.test',
        checkAddresses: false,
        cacheDir: cache.dir,
      });
    expect((await check(originals)).difference).toBeUndefined();
    const other = originals.map((o) => ('sha256' in o ? { ...o, sha256: '0'.repeat(64) } : o));
    expect((await check(other)).difference).toMatch(/^the media original file:.*logo\.png changed/);
  });
});
