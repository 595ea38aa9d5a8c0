/**
 * Nothing hidden upstream reaches dist/, nothing runs, nothing is fetched from
 * elsewhere. The demo's hidden items are recognisable: titles with EMBARGOED,
 * PRIVATE, DRAFT; media of locked kits named LOCKED-KIT / PROTECTED-KIT;
 * unpublished edits with "DRAFT EDIT".
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DomUtils } from 'htmlparser2';
import { beforeAll, expect, inject, it } from 'vitest';
import { allElements, listFiles, loadPages, urlsOf, type BuiltPage } from '../helpers.ts';
import { parseSrcset } from '../../../src/lib/srcset.ts';
import { eventPhasesScript } from '../../../src/lib/event-phases-script.ts';
import { hiddenMarkers, startEmulator } from '../../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../../helpers/emulator.ts';

const siteDir = inject('siteDir');
let pages: BuiltPage[];
let textFiles: Array<{ rel: string; content: string }>;

beforeAll(async () => {
  pages = await loadPages(siteDir);
  const files = (await listFiles(siteDir)).filter((f) => /\.(html|xml|json|txt|css|js|mjs|svg|ics|vcf|webmanifest)$/i.test(f));
  textFiles = await Promise.all(files.map(async (f) => ({ rel: path.relative(siteDir, f), content: await readFile(f, 'utf8') })));
});

it('writes nothing embargoed, private, draft or locked', async () => {
  // The premise: the press room the site was built from (the demo, as build-site.ts serves it) has
  // hidden items carrying each marker, so a leak of any of them would be found below.
  const api = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  try {
    const { world } = api.store();
    const upstream = JSON.stringify(Object.values(world).filter(Array.isArray));
    for (const marker of hiddenMarkers()) expect(upstream, `no hidden item upstream carries ${marker}`).toContain(marker);
  } finally {
    await api.close();
  }
  const hits: string[] = [];
  for (const { rel, content } of textFiles) {
    for (const marker of new Set([...hiddenMarkers(), 'PRIVATE', 'DRAFT', 'draft_content'])) {
      if (content.includes(marker))
        hits.push(`${rel}: ${marker} …${content.slice(Math.max(0, content.indexOf(marker) - 60), content.indexOf(marker) + 60)}…`);
    }
  }
  expect(textFiles.length).toBeGreaterThan(100);
  expect(hits).toEqual([]);
});

it("ships no script that runs but its own: no <script> but JSON-LD and the site's own, no event handler attributes, no javascript: URLs", () => {
  const problems: string[] = [];
  let eventScripts = 0;
  for (const page of pages) {
    for (const el of allElements(page.doc)) {
      // The site's own code only: the search page's bundled controller (a classic script), and GET forms to the search page.
      const searchScript =
        page.path === '/search/' && el.attribs.type === undefined && /^\/_search\/search\.[0-9a-f]+\.js$/.test(el.attribs.src ?? '');
      const searchForm = el.name === 'form' && el.attribs.action === '/search/' && el.attribs.method === 'get';
      // The events' view-time script, inlined: exactly the site's own source, nothing from the API.
      const eventScript =
        el.name === 'script' && 'data-event-phases' in el.attribs && !el.attribs.src && DomUtils.textContent(el) === eventPhasesScript;
      if (eventScript) eventScripts++;
      if (el.name === 'script' && el.attribs.type !== 'application/ld+json' && !searchScript && !eventScript)
        problems.push(`${page.path}: <script ${JSON.stringify(el.attribs)}>`);
      if (['iframe', 'object', 'embed', 'form', 'svg', 'math', 'base'].includes(el.name) && !searchForm)
        problems.push(`${page.path}: <${el.name}>`);
      for (const attr of Object.keys(el.attribs)) if (/^on/i.test(attr)) problems.push(`${page.path}: <${el.name} ${attr}>`);
    }
    for (const { url, where } of urlsOf(page.doc))
      if (/^\s*(javascript|data|vbscript):/i.test(url)) problems.push(`${page.path}: ${where} ${url}`);
  }
  expect(problems).toEqual([]);
  expect(eventScripts).toBeGreaterThan(10);
});

it('loads every picture and stylesheet from the site itself (no third-party request on view)', () => {
  const problems: string[] = [];
  for (const page of pages) {
    for (const el of allElements(page.doc)) {
      const loads =
        el.name === 'img' ||
        el.name === 'source' ||
        el.name === 'video' ||
        el.name === 'audio' ||
        (el.name === 'link' && /stylesheet|preload|icon|modulepreload/.test(el.attribs.rel ?? ''));
      if (!loads) continue;
      for (const attr of ['src', 'href', 'srcset', 'poster']) {
        const value = el.attribs[attr];
        if (!value) continue;
        for (const part of attr === 'srcset' ? parseSrcset(value).map(({ url }) => url) : [value]) {
          if (!part.startsWith('/') || part.startsWith('//')) problems.push(`${page.path}: <${el.name} ${attr}="${part}">`);
        }
      }
    }
  }
  expect(problems).toEqual([]);
});

it('writes no URL of the API host (127.0.0.1 / localhost) into any page or file', () => {
  const hits = textFiles
    .filter(({ content }) => /https?:\/\/(127\.0\.0\.1|localhost|\[::1\])/.test(content))
    .map(({ rel, content }) => `${rel}: ${/https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[^"'\s<]*/.exec(content)?.[0]}`);
  expect(hits).toEqual([]);
});

it('marks every external link rel="noopener noreferrer"', () => {
  const problems: string[] = [];
  for (const page of pages) {
    for (const el of allElements(page.doc)) {
      if (el.name === 'a' && /^https?:/i.test(el.attribs.href ?? '') && !el.attribs.href!.startsWith(inject('siteUrl'))) {
        const rel = (el.attribs.rel ?? '').split(/\s+/);
        if (!rel.includes('noopener') || !rel.includes('noreferrer')) problems.push(`${page.path}: ${el.attribs.href}`);
      }
    }
  }
  expect(problems).toEqual([]);
});
