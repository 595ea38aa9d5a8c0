/**
 * A release's sanitized body (src/lib/release-body.ts): made once for the page and the feed
 * item, and let go by the second, so a third asks the body store again.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Release, SiteData } from '../../../src/lib/data.ts';
import { sanitizedBody } from '../../../src/lib/release-body.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'release-body-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

it('reads and sanitizes a body once for its page and feed item, then lets it go', async () => {
  const file = path.join(tmp, 'body.html');
  await writeFile(file, '<p onclick="alert(1)">Hello <script>alert(2)</script><b>world</b></p>');
  const release = { body: { file }, featured_images: [], href: '/1-hello/' } as unknown as Release;
  const site = { images: [], mediaKits: [] } as unknown as SiteData;

  const page = await sanitizedBody(release, site);
  expect(page).toBe('<p>Hello <b>world</b></p>');
  await rm(file); // the body store's file is gone: only a body already made can be given
  expect(await sanitizedBody(release, site)).toBe(page);
  // Given twice, it is no longer held: a third asks the store again.
  await expect(sanitizedBody(release, site)).rejects.toThrow(/release body .*body\.html cannot be read \(ENOENT\)/);
});

it("links the body's media-kit mention to the release's pictures, else the media kits, and sanitizes after", async () => {
  const file = path.join(tmp, 'kit.html');
  const body = '<p>High-resolution images are available in the media kit on this <span onclick="x">newsroom</span>.</p>';
  await writeFile(file, body);
  const picture = { sizes: { original: { url: 'https://cdn.example/a.jpg', width: 10, height: 10 } } };
  const withPictures = { body: { file }, featured_images: [picture], href: '/1-hello/' } as unknown as Release;
  const without = { body: { file }, featured_images: [], href: '/2-hello/' } as unknown as Release;
  const site = { images: [], mediaKits: [{ id: 1 }] } as unknown as SiteData;
  expect(await sanitizedBody(withPictures, site)).toBe(
    '<p>High-resolution images are available in the <a href="/1-hello/#images">media kit</a> on this newsroom.</p>',
  );
  expect(await sanitizedBody(without, site)).toBe(
    '<p>High-resolution images are available in the <a href="/media-kits/">media kit</a> on this newsroom.</p>',
  );
  const noKits = { images: [], mediaKits: [] } as unknown as SiteData;
  expect(await sanitizedBody({ ...without } as Release, noKits)).toBe(
    '<p>High-resolution images are available in the media kit on this newsroom.</p>',
  );
});
