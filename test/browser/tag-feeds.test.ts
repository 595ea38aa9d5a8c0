/**
 * A topic can be followed from its page, in Debian's Chromium: every tag page shows
 * links to that tag's own RSS, Atom and JSON feeds, each a file of the site whose
 * self link is that feed and whose items are the tag's releases.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hasChromium, launchChromium, noChromium, serveStatic, watchedPage, type StaticServer } from './helpers.ts';

const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  if (!hasChromium) return noChromium();
  [browser, server] = await Promise.all([launchChromium(), serveStatic(siteDir)]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('following a topic, in Chromium', () => {
  it("links each tag page to the tag's own feeds, which lead to themselves", async () => {
    const tags = readdirSync(path.join(siteDir, 'tags'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(tags.length).toBeGreaterThan(3);
    const w = await watchedPage(browser, server.origin);
    try {
      for (const slug of tags.slice(0, 3)) {
        await w.page.goto(`${server.origin}/tags/${slug}/`);
        const links = await w.page
          .locator('.tag-feeds a')
          .evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href')!, type: a.getAttribute('type'), text: a.textContent })));
        expect(links.map((l) => l.text)).toEqual(['RSS', 'Atom', 'JSON Feed']);
        expect(await w.page.locator('.tag-feeds').isVisible()).toBe(true);
        for (const link of links) {
          expect(link.href).toBe(`/feeds/tags/${slug}/${link.href.split('/').pop()}`);
          const response = await w.page.request.get(`${server.origin}${link.href}`);
          expect(response.status(), link.href).toBe(200);
          const body = await response.text();
          const self = `${siteUrl}${link.href}`;
          if (link.type === 'application/feed+json') expect((JSON.parse(body) as { feed_url: string }).feed_url).toBe(self);
          else expect(/<(?:atom:)?link\b[^>]*rel="self"[^>]*>/.exec(body)?.[0], link.href).toContain(`href="${self}"`);
        }
      }
      expect(w.failed).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});
