/** The check a staged site passes before it replaces the live one (src/output/site-check.ts). */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { checkSite } from '../../../src/output/site-check.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-site-check-'));
  await mkdir(path.join(dir, 'releases', '1-a'), { recursive: true });
  await mkdir(path.join(dir, '_astro'));
  await writeFile(path.join(dir, 'index.html'), '<link rel="stylesheet" href="/_astro/site.css"><p>Home</p>');
  await writeFile(path.join(dir, '_astro', 'site.css'), 'p{}');
  await writeFile(path.join(dir, 'releases', '1-a', 'index.html'), '<p>A</p>');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('passes a site with every planned file there and not empty, and every asset the home page names', async () => {
  await expect(checkSite(dir, ['index.html', 'releases/1-a/index.html'])).resolves.toBeUndefined();
});

it('names a planned file that is missing, empty or a folder, and an asset the home page names that is missing', async () => {
  await expect(checkSite(dir, ['releases/2-b/index.html'])).rejects.toThrow(
    /1 of 1 pages missing or empty \(first: releases\/2-b\/index.html\)/,
  );
  await writeFile(path.join(dir, 'releases', '1-a', 'index.html'), '');
  await expect(checkSite(dir, ['releases/1-a/index.html'])).rejects.toThrow(/first: releases\/1-a\/index.html/);
  await expect(checkSite(dir, ['releases/1-a'])).rejects.toThrow(/first: releases\/1-a\)/);
  await rm(path.join(dir, '_astro', 'site.css'));
  await expect(checkSite(dir, [])).rejects.toThrow(/index.html names 1 missing files \(first: _astro\/site.css\)/);
  await expect(checkSite(dir, undefined)).rejects.toThrow(/did not report the pages it wrote/);
});
