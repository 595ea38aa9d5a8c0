/**
 * `npm run dev` works as the site: the dev server (`astro dev`, the bundled demo press room) in
 * Chromium. Every page type answers and loads what it asks for (images from the pipeline's cache,
 * styles, scripts), and the search page searches: its controller is served and the pages the dev
 * server renders are indexed on the first search (src/search/dev-search.ts), in a temporary folder
 * that also clears those left by dev servers killed before they could. It watches the project, not
 * the caches the build writes into it (src/integrations/dev-watch.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, watchedPage } from './helpers.ts';
import { searchAfter } from './search-helpers.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
let dev: ChildProcess | undefined;
let origin = '';
let browser: Browser;
let log = '';
// The dev server's TMPDIR, holding the index folder of a dev server that no longer runs.
let tmp = '';
let orphan = '';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  if (!hasChromium) return;
  const port = await freePort();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'dev-server-test-'));
  orphan = `pressroom-dev-search-${spawnSync(process.execPath, ['-e', '']).pid}-killed`;
  await mkdir(path.join(tmp, orphan, 'site'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
  // The demo press room, as a developer starts it: no PRESSROOM_*, and none of the test runner's own
  // variables (under NODE_ENV=test the dev server answers "Cannot GET /").
  for (const name of Object.keys(env))
    if (name.startsWith('PRESSROOM_') || name.startsWith('VITEST') || ['SOURCE_DATE_EPOCH', 'NODE_ENV', 'TEST'].includes(name))
      delete env[name];
  env.TMPDIR = tmp;
  dev = spawn(
    process.execPath,
    [
      SOURCE_CONDITION_FLAG,
      path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'),
      'dev',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  origin = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    // Without colours (under CI=true the dev server prints them), as the lines read in a terminal.
    const seen = (chunk: Buffer) => {
      log += stripVTControlCharacters(chunk.toString());
      if (log.includes(origin)) resolve();
    };
    dev!.stdout!.on('data', seen);
    dev!.stderr!.on('data', seen);
    dev!.on('exit', (code) => reject(new Error(`astro dev exited (${code}):\n${log.slice(-3000)}`)));
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once('exit', resolve));
    dev.kill('SIGTERM');
    await exited;
  }
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/**
 * Opens `pathname` in `page`. The dev server may reload the open page on its own (Vite does when it
 * optimizes a dependency it found late), which aborts a navigation under way: that one is tried
 * once more, and what the dev server and Vite's client said meanwhile is printed.
 */
async function visit(page: Page, pathname: string) {
  const from = log.length;
  const said: string[] = [];
  const listen = (message: { text(): string }) => said.push(message.text());
  page.on('console', listen);
  try {
    return await page.goto(`${origin}${pathname}`, { waitUntil: 'load' });
  } catch (error) {
    if (!String(error).includes('net::ERR_ABORTED')) throw error;
    console.warn(`${pathname}: navigation aborted; the page said ${JSON.stringify(said)}, the dev server:\n${log.slice(from)}`);
    return page.goto(`${origin}${pathname}`, { waitUntil: 'load' });
  } finally {
    page.off('console', listen);
  }
}

describe.skipIf(!hasChromium)('the dev server', () => {
  it('serves every page type with its images, styles and scripts', async () => {
    const w = await watchedPage(browser, origin);
    w.page.setDefaultTimeout(60_000);
    try {
      await visit(w.page, '/');
      const first = (selector: string) => w.page.locator(selector).first().getAttribute('href');
      const pages = [
        '/',
        '/releases/',
        (await first('main a[href^="/1"][href$="/"]'))!,
        '/tags/',
        '/archive/',
        '/media-kits/',
        '/media/',
        '/events/',
        '/contacts/',
        '/coverage/',
        '/nl/',
        '/search/',
      ];
      for (const page of ['/tags/', '/media-kits/', '/events/']) {
        await visit(w.page, page);
        pages.push((await first(`main a[href^="${page}"][href$="/"]:not([href="${page}"])`))!);
      }
      for (const page of pages) {
        const response = await visit(w.page, page);
        expect(response?.status(), page).toBe(200);
        expect(await w.page.locator('h1').count(), page).toBeGreaterThan(0);
        const broken = await w.page.evaluate(() =>
          [...document.images].filter((img) => img.loading !== 'lazy' && img.complete && img.naturalWidth === 0).map((img) => img.src),
        );
        expect(broken, page).toEqual([]);
      }
      // The header's logo comes from the image pipeline, served by the dev server from its cache.
      await visit(w.page, '/');
      const logo = await w.page.locator('header a.brand img').evaluate((img) => ({
        src: (img as HTMLImageElement).currentSrc,
        width: (img as HTMLImageElement).naturalWidth,
      }));
      expect(new URL(logo.src).pathname).toMatch(/^\/_media\//);
      expect(logo.width).toBeGreaterThan(0);
      // The bundled demo: its note is marked, and sits in a landmark like all content (the dev toolbar aside).
      expect(await w.page.locator('aside .demo-note[role="note"]').count()).toBe(1);
      const axe = await new AxeBuilder({ page: w.page }).withRules(['region', 'landmark-unique']).exclude('astro-dev-toolbar').analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(w.failed).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      expect(w.foreign).toEqual([]);
    } finally {
      await w.context.close();
    }
  }, 240_000);

  it('watches the project, not the caches the build writes into it', async () => {
    const name = `dev-watch-${process.pid}.html`;
    // A release body as the loaders cache it (an `.html` file), then an `.html` file of the project:
    // Vite names each `.html` file that changes under what it watches, the second shows it has looked.
    const cached = path.join(root, '.cache', 'bodies', name);
    const project = path.join(root, name);
    const from = log.length;
    try {
      await writeFile(cached, '<p>a cached body</p>');
      await writeFile(project, '<p>a page of the project</p>');
      await expect.poll(() => log.slice(from), { timeout: 30_000 }).toContain(`[watch] ${name}`);
      expect(log.slice(from)).not.toContain('[watch] .cache/');
    } finally {
      await rm(project, { force: true });
      await rm(cached, { force: true });
    }
  });

  it('searches: the controller loads, the dev index answers and a result opens', async () => {
    const w = await watchedPage(browser, origin);
    w.page.setDefaultTimeout(150_000);
    try {
      await visit(w.page, '/search/');
      const results = await searchAfter(w.page, () => w.page.locator('#search-q').fill('battery'));
      expect(results.count).toBeGreaterThan(0);
      expect(await w.page.locator('[data-search-status]').textContent()).not.toMatch(/needs JavaScript/i);
      const href = results.hrefs[0]!;
      await w.page.locator(`[data-search-results] a[href="${href}"]`).first().click();
      await w.page.waitForURL(`${origin}${href}`);
      expect(await w.page.locator('h1').count()).toBeGreaterThan(0);
      expect(w.requests.some((u) => new URL(u).pathname.startsWith('/_search/'))).toBe(true);
      expect(w.requests.some((u) => new URL(u).pathname.startsWith('/pagefind/'))).toBe(true);
      expect(w.failed).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      expect(log).toMatch(/search \(dev\): \d+ of \d+ pages indexed/);
      const folders = await readdir(tmp);
      expect(folders).not.toContain(orphan);
      expect(folders.filter((name) => name.startsWith(`pressroom-dev-search-${dev!.pid}-`))).toHaveLength(1);
    } finally {
      await w.context.close();
    }
  }, 240_000);
});
