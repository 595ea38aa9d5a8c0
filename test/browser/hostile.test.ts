/**
 * Hostile upstream HTML, passed through src/lib/sanitize.ts the way pages do
 * it, renders inert in a real browser: on load, on hover, focus and click of
 * everything in it, no dialog opens, no marker reaches the console, nothing
 * sets `window.__pwned`, no script error is thrown and no request leaves the site.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sanitizeArticle, sanitizeBasic } from '../../src/lib/sanitize.ts';
import { NO_CHROMIUM, hasChromium, launchChromium, serveStatic, watchedPage, type StaticServer } from './helpers.ts';

const siteDir = inject('siteDir');

/** Every payload tries to call pwn(), which leaves three traces: a dialog, a console marker and window.__pwned. */
const PWN = "alert('PWNED');console.log('PWNED');window.__pwned=1";
const HOSTILE = [
  `<script>${PWN}</script>`,
  `<SCRIPT SRC="https://evil.example/x.js"></SCRIPT>`,
  `<scr<script>ipt>${PWN}</scr</script>ipt>`,
  `<img src=x onerror="${PWN}">`,
  `<img src="/_media/missing.png" onerror="${PWN}" alt="broken">`,
  `<img src="javascript:${PWN}">`,
  `<p onclick="${PWN}" onmouseover="${PWN}" onfocus="${PWN}" tabindex="0">click or hover me</p>`,
  `<a href="javascript:${PWN}">javascript link</a>`,
  `<a href="JaVaScRiPt:${PWN}">mixed case javascript link</a>`,
  `<a href="jav&#x09;ascript:${PWN}">tab javascript link</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${PWN}">entity javascript link</a>`,
  `<a href=" javascript:${PWN}">space javascript link</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgnUFdORUQnKTwvc2NyaXB0Pg==">data link</a>`,
  `<a href="vbscript:msgbox(1)">vbscript link</a>`,
  `<a href="#" onclick="${PWN}">handler link</a>`,
  `<svg onload="${PWN}"><script>${PWN}</script></svg>`,
  `<svg><a xlink:href="javascript:${PWN}"><text x="20" y="20">svg link</text></a></svg>`,
  `<svg><animate onbegin="${PWN}" attributeName="x" dur="1s"></animate></svg>`,
  `<svg><set attributeName="onmouseover" to="${PWN}"/></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${PWN}"></style></mglyph></table></mtext></math>`,
  `<math href="javascript:${PWN}">math link</math>`,
  `<iframe src="javascript:${PWN}"></iframe>`,
  `<iframe srcdoc="<script>parent.${PWN.replace(/'/g, '&quot;')}</script>"></iframe>`,
  `<object data="javascript:${PWN}"></object>`,
  `<embed src="data:text/html,<script>${PWN}</script>">`,
  `<form action="javascript:${PWN}"><input name=q value="x"><button>form button</button></form>`,
  `<button formaction="javascript:${PWN}">formaction button</button>`,
  `<details open ontoggle="${PWN}"><summary>details</summary>x</details>`,
  `<video src=x onerror="${PWN}"></video><audio src=x onerror="${PWN}"></audio>`,
  `<body onload="${PWN}">`,
  `<style>@import url(https://evil.example/x.css); body{background:url(https://evil.example/bg.png)}</style>`,
  `<p style="background:url(https://evil.example/p.png)">styled</p>`,
  `<link rel=stylesheet href="https://evil.example/x.css">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${PWN}">`,
  `<base href="https://evil.example/">`,
  `<noscript><p title="</noscript><img src=x onerror=${PWN}>"></noscript>`,
  `<template><img src=x onerror="${PWN}"></template>`,
  `<table background="javascript:${PWN}"><tr><td>table</td></tr></table>`,
  `<div id="x" class="y" data-x="1" style="position:fixed;inset:0">overlay</div>`,
  `<a href="https://example.org/ok" onclick="${PWN}">a fine link with a handler</a>`,
  `<a href="/releases/">a site link</a>`,
  `<img src="https://evil.example/tracker.gif" alt="remote">`,
  `<!--><img src=x onerror="${PWN}">-->`,
  `<![CDATA[><img src=x onerror="${PWN}">]]>`,
  `<textarea><img src=x onerror="${PWN}"></textarea>`,
  `<xmp><img src=x onerror="${PWN}"></xmp>`,
  `<select><option><img src=x onerror="${PWN}"></option></select>`,
  `<h1 onmouseenter="${PWN}">heading</h1>`,
];

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
    const markers: string[] = [];
    w.page.on('console', (m) => {
      if (m.text().includes('PWNED')) markers.push(m.text());
    });
    try {
      const url = `${server.origin}/__hostile/`;
      await w.page.goto(url, { waitUntil: 'load' });
      await w.page.waitForTimeout(300);
      // window.__pwned of the hostile page (after a click that navigated away, of the page it landed on).
      const pwned = async () => {
        await w.page.waitForLoadState('load');
        return w.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null).catch(async () => {
          await w.page.waitForLoadState('load');
          return w.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null);
        });
      };
      expect(await pwned()).toBeNull();

      // Nothing but the allowed elements made it into the page.
      const tags = await w.page.evaluate(() => [...new Set([...document.querySelectorAll('#article *, #basic *')].map((e) => e.localName))].sort());
      for (const tag of tags) expect(['a', 'b', 'blockquote', 'br', 'cite', 'em', 'figcaption', 'figure', 'h2', 'h3', 'h4', 'i', 'img', 'li', 'ol', 'p', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul']).toContain(tag);
      const handlers = await w.page.evaluate(() =>
        [...document.querySelectorAll('#article *, #basic *')].flatMap((e) => [...e.attributes].filter((a) => /^on|^style$|^id$|^class$|^srcdoc$|^formaction$/i.test(a.name)).map((a) => `${e.localName} ${a.name}`)),
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
      for (const href of links) expect(href, 'only http(s), mailto, tel, fragment or site links').toMatch(/^(https?:\/\/|mailto:|tel:|#|\/(?!\/))/i);
      for (let i = 0; i < links.length; i++) {
        if (w.page.url() !== url) await w.page.goto(url, { waitUntil: 'load' });
        await w.page.locator('#article a, #basic a').nth(i).click({ timeout: 2000, noWaitAfter: true }).catch(() => {});
        await w.page.waitForTimeout(100);
        expect(await pwned(), `after clicking ${links[i]}`).toBeNull();
      }
      await w.page.goto(url, { waitUntil: 'load' });
      await w.page.locator('#article p, #basic p').first().click();
      await w.page.waitForTimeout(200);

      expect(await pwned()).toBeNull();
      expect(w.dialogs).toEqual([]);
      expect(markers).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      // Clicking https://example.org/ok is the one request to elsewhere (a link the reader chose, blocked by the test); nothing loads by itself.
      expect(w.foreign.filter((u) => !u.startsWith('https://example.org/ok'))).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});

it.skipIf(hasChromium)('browser tests need Chromium', () => {
  console.warn(NO_CHROMIUM);
});
