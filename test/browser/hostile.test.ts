/**
 * Hostile upstream HTML, passed through src/lib/sanitize.ts the way pages do
 * it, renders inert in a real browser: on load, on hover, focus and click of
 * everything in it, no dialog opens, no marker reaches the console, nothing
 * sets `window.__pwned`, no script error is thrown and no request leaves the site.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sanitizeArticle, sanitizeBasic } from '../../src/lib/sanitize.ts';
import { HOSTILE } from '../helpers/hostile-html.ts';
import {
  noChromium,
  clickEveryLink,
  hasChromium,
  launchChromium,
  pwnedMarker,
  serveStatic,
  watchedPage,
  type StaticServer,
} from './helpers.ts';

const siteDir = inject('siteDir');

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  if (!hasChromium) return;
  [browser, server] = await Promise.all([launchChromium(), serveStatic(siteDir)]);
  const article = sanitizeArticle(HOSTILE.join('\n'));
  const basic = sanitizeBasic(HOSTILE.join('\n'));
  // A page like a release page: the site's own frame, the sanitized body as pages set it.
  server.pages.set(
    '/__hostile/',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hostile</title></head><body>` +
      `<main id="main"><h1>Hostile body</h1><div class="prose" id="article">${article}</div><aside id="basic">${basic}</aside></main></body></html>`,
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('hostile HTML through the sanitizer, in Chromium', () => {
  it('runs nothing and loads nothing from elsewhere, on load, hover, focus and click', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const url = `${server.origin}/__hostile/`;
      await w.page.goto(url, { waitUntil: 'load' });
      await w.page.waitForTimeout(300);
      expect(await pwnedMarker(w.page)).toBeNull();

      // Nothing but the allowed elements made it into the page.
      const tags = await w.page.evaluate(() =>
        [...new Set([...document.querySelectorAll('#article *, #basic *')].map((e) => e.localName))].sort(),
      );
      for (const tag of tags)
        expect([
          'a',
          'b',
          'blockquote',
          'br',
          'cite',
          'em',
          'figcaption',
          'figure',
          'h2',
          'h3',
          'h4',
          'i',
          'img',
          'li',
          'ol',
          'p',
          'strong',
          'table',
          'tbody',
          'td',
          'th',
          'thead',
          'tr',
          'ul',
        ]).toContain(tag);
      const handlers = await w.page.evaluate(() =>
        [...document.querySelectorAll('#article *, #basic *')].flatMap((e) =>
          [...e.attributes]
            .filter((a) => /^on|^style$|^id$|^class$|^srcdoc$|^formaction$/i.test(a.name))
            .map((a) => `${e.localName} ${a.name}`),
        ),
      );
      expect(handlers).toEqual([]);

      // Hover, focus and click every element of the sanitized HTML; links are followed one at a time.
      const count = await w.page.locator('#article *, #basic *').count();
      for (let i = 0; i < count; i++) {
        const el = w.page.locator('#article *, #basic *').nth(i);
        if (!(await el.isVisible())) continue;
        await el.hover({ timeout: 1000 }).catch(() => {});
        await el.focus({ timeout: 1000 }).catch(() => {});
      }
      const links = await w.page.locator('#article a, #basic a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(links.length).toBeGreaterThan(2);
      for (const href of links)
        expect(href, 'only http(s), mailto, tel, fragment or site links').toMatch(/^(https?:\/\/|mailto:|tel:|#|\/(?!\/))/i);
      for (const { href, pwned } of await clickEveryLink(w, url, '#article a, #basic a'))
        expect(pwned, `after clicking ${href}`).toBeNull();
      await w.page.goto(url, { waitUntil: 'load' });
      await w.page.locator('#article p, #basic p').first().click();
      await w.page.waitForTimeout(200);

      expect(await pwnedMarker(w.page)).toBeNull();
      expect(w.dialogs).toEqual([]);
      expect(w.consoleMessages.filter((m) => m.includes('PWNED'))).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      // Clicking https://example.org/ok is the one request to elsewhere (a link the reader chose, blocked by the test); nothing loads by itself.
      expect(w.foreign.filter((u) => !u.startsWith('https://example.org/ok'))).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});

it.skipIf(hasChromium)('browser tests need Chromium', noChromium);
