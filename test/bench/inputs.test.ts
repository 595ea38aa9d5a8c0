/** What the bench measures: its scales, and which files of a built site count as routes for the bare-Astro ideal. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeFiles } from '../../bench/bare-astro.ts';
import { routeGenerationMs } from '../../bench/measure.ts';
import { emulatorFlags, profileOf } from '../../bench/profiles.ts';
import { inSample, parseSample } from '../../bench/sample.ts';

describe('bench scales', () => {
  it('demo by default, L as the issue defines it, a number of releases, nothing else', () => {
    expect(profileOf(undefined)).toEqual({ name: 'demo', scale: 60 });
    expect(emulatorFlags(profileOf('L')!)).toEqual(['--scale', '10000', '--images', '5000', '--kits', '1000']);
    expect(emulatorFlags(profileOf('1000')!)).toEqual(['--scale', '1000']);
    for (const bad of ['0', '-5', 'XL', '1e3', '']) expect(profileOf(bad), bad).toBeUndefined();
  });
});

describe('routes of a built site', () => {
  let dir: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('are the files routes rendered: not bundles, images, search indexes, sitemaps, dotfiles or copies of public/', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bench-routes-'));
    const files = [
      'index.html',
      'releases/a/index.html',
      'releases/a/index.md',
      'rss.xml',
      'feed.json',
      'events/e.ics',
      'robots.txt',
      '_astro/app.js',
      '_media/x/1.webp',
      '_search/index.js',
      'pagefind/pagefind.js',
      'sitemap-0.xml',
      'sitemap-index.xml',
      '.pressroom-build.json',
      'favicon.ico',
    ];
    for (const f of files) {
      await mkdir(path.dirname(path.join(dir, 'site', f)), { recursive: true });
      await writeFile(path.join(dir, 'site', f), f);
    }
    await mkdir(path.join(dir, 'public'));
    await writeFile(path.join(dir, 'public', 'favicon.ico'), '');
    expect(await routeFiles(path.join(dir, 'site'), path.join(dir, 'public'))).toEqual([
      'events/e.ics',
      'feed.json',
      'index.html',
      'releases/a/index.html',
      'releases/a/index.md',
      'robots.txt',
      'rss.xml',
    ]);
  });
});

describe("Astro's route generation time, from its build log", () => {
  it('reads milliseconds, seconds and minutes, and only the route generation step', () => {
    const log = (took: string) =>
      `12:00:00 [build] ✓ Completed in 685ms.\n12:00:01 generating static routes\n12:00:01 ├─ /index.html (+2ms)\n12:00:09 ✓ Completed in ${took}.\n`;
    expect(routeGenerationMs(log('297ms'))).toBe(297);
    expect(routeGenerationMs(log('3.67s'))).toBe(3670);
    expect(routeGenerationMs(log('2m 58s'))).toBe(178_000);
    expect(routeGenerationMs('no such step')).toBeNaN();
  });
});

describe('--sample N of the images benchmark', () => {
  const urls = Array.from({ length: 2000 }, (_, i) => `https://media.example/images/${i}/original.jpg`);

  it('keeps about one original in N, the same ones whatever the order', () => {
    const kept = urls.filter((url) => inSample(url, 10));
    expect(kept.length).toBeGreaterThan(150);
    expect(kept.length).toBeLessThan(250);
    expect([...urls].reverse().filter((url) => inSample(url, 10))).toEqual([...kept].reverse());
    expect(urls.filter((url) => inSample(url, 1))).toEqual(urls);
  });

  it('takes a whole number from 1 to 1000, 1 when absent', () => {
    expect(parseSample(undefined)).toBe(1);
    expect(parseSample('10')).toBe(10);
    for (const bad of ['0', '-3', '2.5', 'ten', '', '1001']) expect(parseSample(bad), bad).toBeUndefined();
  });
});
