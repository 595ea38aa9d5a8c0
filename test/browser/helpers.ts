/**
 * Browser tests over the built demo site: a tiny static file server on
 * 127.0.0.1 (what any plain static host does: `dir/` → `dir/index.html`,
 * a missing path → `/404.html` with status 404), Debian's Chromium driven by
 * playwright-core (never a downloaded browser), a recorder of every request a
 * page makes, and axe-core.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const NO_CHROMIUM = `${CHROMIUM} is missing: browser tests skipped (.ci/run installs Debian's chromium; locally: apt-get install chromium)`;

/** Where Chromium is missing: a warning on a workstation, a failure in CI (which must run every browser test). */
export function noChromium(): void {
  if (process.env.CI) throw new Error(`${NO_CHROMIUM}; CI must run the browser tests`);
  console.warn(NO_CHROMIUM);
}

/** Where screenshots go (kept after the run, to look at): PRESSROOM_SCREENSHOTS or <tmp>/pressroom-screenshots. */
export const SCREENSHOT_DIR = process.env.PRESSROOM_SCREENSHOTS || path.join(os.tmpdir(), 'pressroom-screenshots');
/** Screenshots are for people to look at: under CI (nobody looks) only when PRESSROOM_SCREENSHOTS names a folder. */
const TAKE_SCREENSHOTS = !process.env.CI || !!process.env.PRESSROOM_SCREENSHOTS;

export const DESKTOP = { width: 1280, height: 900 };
export const MOBILE = { width: 390, height: 844 };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
  '.ics': 'text/calendar; charset=utf-8',
  '.vcf': 'text/vcard; charset=utf-8',
  '.zip': 'application/zip',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export interface StaticServer {
  origin: string;
  /** Extra pages served from memory (path → HTML), for pages the test makes itself. */
  pages: Map<string, string>;
  close(): Promise<void>;
}

/**
 * Serves `dir` like a plain static host; with `base` (`/press/`) the folder is served under that path,
 * as a host serving the site under a path does, and anything outside it is a 404. `folders` serves
 * other folders in place of the site's own under their paths (`{ '/pagefind/': otherIndex }`).
 */
export async function serveStatic(
  dir: string,
  { base = '/', folders = {} }: { base?: string; folders?: Record<string, string> } = {},
): Promise<StaticServer> {
  const root = path.resolve(dir);
  const pages = new Map<string, string>();
  const notFound = async (res: ServerResponse) => {
    const page = path.join(root, '404.html');
    res.writeHead(404, { 'content-type': TYPES['.html']! });
    res.end(existsSync(page) ? await readFile(page) : 'not found');
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const extra = pages.get(pathname);
      if (extra !== undefined) {
        res.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-store' }).end(extra);
        return;
      }
      if (!pathname.startsWith(base)) {
        await notFound(res);
        return;
      }
      const mounted = Object.keys(folders).find((prefix) => pathname.startsWith(prefix));
      const from = mounted === undefined ? root : path.resolve(folders[mounted]!);
      const target = path.join(from, pathname.slice(mounted === undefined ? base.length - 1 : mounted.length - 1));
      if (target !== from && !target.startsWith(from + path.sep)) {
        res.writeHead(403).end();
        return;
      }
      const file = await findFile(target, pathname.endsWith('/'));
      if (!file) {
        await notFound(res);
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': body.length,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    pages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function findFile(target: string, isDir: boolean): Promise<string | null> {
  for (const candidate of isDir ? [path.join(target, 'index.html')] : [target, path.join(target, 'index.html')]) {
    const info = await stat(candidate).catch(() => null);
    if (info?.isFile()) return candidate;
  }
  return null;
}

/** Debian's Chromium, headless, with nothing phoning home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Every URL the page requested. */
  requests: string[];
  /** Requests that went anywhere but the local server (aborted, so nothing leaves the machine). */
  foreign: string[];
  /** Sub-resources that answered 400 or more. */
  failed: string[];
  consoleErrors: string[];
  /** Every console message, whatever its level. */
  consoleMessages: string[];
  pageErrors: string[];
  dialogs: string[];
  /** Another page in the same context, recorded into the same lists. */
  openPage(): Promise<Page>;
}

/** A fresh context and page whose every request is recorded; requests to any other origin are aborted and reported. */
export async function watchedPage(browser: Browser, origin: string, viewport = DESKTOP): Promise<Watched> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', serviceWorkers: 'block' });
  const watched: Watched = {
    page: undefined as unknown as Page,
    context,
    requests: [],
    foreign: [],
    failed: [],
    consoleErrors: [],
    consoleMessages: [],
    pageErrors: [],
    dialogs: [],
    openPage: async () => watch(await context.newPage(), watched),
  };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url, origin)) await route.continue();
    else {
      watched.foreign.push(url);
      await route.abort('blockedbyclient');
    }
  });
  watched.page = await watched.openPage();
  return watched;
}

function watch(page: Page, watched: Watched): Page {
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== 'document')
      watched.failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    watched.consoleMessages.push(message.text());
    if (message.type() === 'error') watched.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  return page;
}

/** `window.__pwned` of whatever document the page shows once it has settled (null when unset). */
export async function pwnedMarker(page: Page): Promise<unknown> {
  const read = () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null);
  await page.waitForLoadState('load').catch(() => {});
  return read().catch(async () => {
    await page.waitForLoadState('load').catch(() => {});
    return read();
  });
}

/**
 * Clicks each link matching `selector` on `url`, every click on a fresh page of the watched context, so a click's
 * navigation can never race the next one; returns the links' hrefs with the marker seen after each click.
 */
export async function clickEveryLink(w: Watched, url: string, selector: string): Promise<Array<{ href: string; pwned: unknown }>> {
  const hrefs = await w.page.locator(selector).evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  const seen: Array<{ href: string; pwned: unknown }> = [];
  for (let i = 0; i < hrefs.length; i++) {
    const page = await w.openPage();
    try {
      await page.goto(url, { waitUntil: 'load' });
      await page
        .locator(selector)
        .nth(i)
        .click({ timeout: 2000, noWaitAfter: true })
        .catch(() => {});
      await page.waitForTimeout(100);
      seen.push({ href: hrefs[i]!, pwned: await pwnedMarker(page) });
    } finally {
      await page.close();
    }
  }
  return seen;
}

/** The page's own server, or a URL that never leaves the page (data:, blob:, about:). */
export function isLocal(url: string, origin: string): boolean {
  if (/^(data|blob|about):/i.test(url)) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export interface AxeViolation {
  rule: string;
  impact: string | null | undefined;
  help: string;
  nodes: Array<{ target: string; html: string; summary: string }>;
}

/** axe-core over the page for WCAG 2.0/2.1 A and AA. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Only violations are collected (passes and incomplete results cost as much again). A page without
  // frames runs axe in its own document (legacy mode): the frame-merging mode opens a second page per
  // call to combine frame results, 3.2 s against 1.0 s a page.
  const framed = page.frames().length > 1;
  const results = await new AxeBuilder({ page })
    .setLegacyMode(!framed)
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({
      target: n.target.join(' '),
      html: n.html.slice(0, 200),
      summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
    })),
  }));
}

/** A screenshot file name for a page label and viewport. */
export function screenshotPath(label: string, viewport: { width: number }): string {
  return path.join(SCREENSHOT_DIR, `${label.replace(/[^a-z0-9-]+/gi, '-').replace(/^-|-$/g, '')}-${viewport.width}.jpg`);
}

/**
 * A full-page screenshot with every lazy image loaded (a full-page capture does not scroll, so lazy
 * images would stay blank). The images are loaded even when no screenshot is taken (TAKE_SCREENSHOTS):
 * the callers' checks of failed requests then cover every image of the page.
 */
export async function screenshot(page: Page, file: string): Promise<void> {
  await page.evaluate(async () => {
    for (const img of document.images) img.loading = 'eager';
    await Promise.all([...document.images].map((img) => img.decode().catch(() => {})));
    (document.activeElement as HTMLElement | null)?.blur();
  });
  if (TAKE_SCREENSHOTS) await page.screenshot({ path: file, fullPage: true, type: 'jpeg', quality: 80 });
}
