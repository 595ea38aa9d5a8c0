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
  const site = { images: [] } as unknown as SiteData;

  const page = await sanitizedBody(release, site);
  expect(page).toBe('<p>Hello <b>world</b></p>');
  await rm(file); // the body store's file is gone: only a body already made can be given
  expect(await sanitizedBody(release, site)).toBe(page);
  // Given twice, it is no longer held: a third asks the store again.
  await expect(sanitizedBody(release, site)).rejects.toThrow(/release body .*body\.html cannot be read \(ENOENT\)/);
});
