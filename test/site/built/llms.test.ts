/**
 * The AI files of the built demo press room (src/lib/llms.ts): llms.txt, llms-full.txt and every
 * release's Markdown twin parse as CommonMark (commonmark.js) with no raw HTML; every link in them
 * that points into the site resolves to a built file (and an anchor to an element of that page);
 * every release page links its twin; the files keep to their budgets, newest first; robots.txt
 * lets crawlers fetch them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Parser, type Node } from 'commonmark';
import robotsParser from 'robots-parser';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { LLMS_FULL_BUDGET, LLMS_TXT_BUDGET } from '../../../src/lib/llms-rules.ts';
import { allElements, elements, listFiles, loadPages, resolveInternal, text, type BuiltPage } from '../helpers.ts';

const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');

interface MarkdownFile {
  path: string;
  text: string;
  root: Node;
}

interface Found {
  links: string[];
  images: string[];
  html: string[];
  headings: Array<{ level: number; text: string }>;
}

function walk(root: Node): Found {
  const found: Found = { links: [], images: [], html: [], headings: [] };
  const walker = root.walker();
  for (let event = walker.next(); event; event = walker.next()) {
    const node = event.node;
    if (!event.entering) continue;
    if (node.type === 'link') found.links.push(node.destination ?? '');
    if (node.type === 'image') found.images.push(node.destination ?? '');
    if (node.type === 'html_block' || node.type === 'html_inline') found.html.push(node.literal ?? '');
    if (node.type === 'heading') {
      let text = '';
      const inner = node.walker();
      for (let e = inner.next(); e; e = inner.next()) if (e.entering && e.node.literal && e.node.type === 'text') text += e.node.literal;
      found.headings.push({ level: node.level, text });
    }
  }
  return found;
}

const sitePath = (file: string) => `/${path.relative(siteDir, file).split(path.sep).join('/')}`;
let pages: BuiltPage[];
let twins: MarkdownFile[];
let llms: MarkdownFile;
let full: MarkdownFile;
let releasePages: BuiltPage[];

async function readMarkdown(file: string): Promise<MarkdownFile> {
  const text = await readFile(file, 'utf8');
  return { path: sitePath(file), text, root: new Parser().parse(text) };
}

beforeAll(async () => {
  pages = await loadPages(siteDir);
  const files = await listFiles(siteDir);
  twins = await Promise.all(files.filter((f) => f.endsWith('.md')).map(readMarkdown));
  llms = await readMarkdown(path.join(siteDir, 'llms.txt'));
  full = await readMarkdown(path.join(siteDir, 'llms-full.txt'));
  releasePages = pages.filter((p) => p.html.includes('"@type":"NewsArticle"'));
});

describe('llms.txt, llms-full.txt and the Markdown twins', () => {
  it('gives every release page a twin in its folder, linked from its head as text/markdown', () => {
    expect(releasePages.length).toBeGreaterThan(20);
    expect(twins.map((t) => t.path).sort()).toEqual(releasePages.map((p) => `${p.path}index.md`).sort());
    for (const page of releasePages) {
      const alternates = elements(page.doc, 'link').filter((l) => l.attribs.rel === 'alternate' && l.attribs.type === 'text/markdown');
      expect(
        alternates.map((l) => l.attribs.href),
        page.path,
      ).toEqual([`${page.path}index.md`]);
    }
  });

  it('parse as CommonMark with no raw HTML, links only to http(s), mailto and tel', () => {
    for (const file of [llms, full, ...twins]) {
      const { html, links, images } = walk(file.root);
      expect(html, file.path).toEqual([]);
      for (const url of links) expect(url, file.path).toMatch(/^(https?:\/\/|mailto:|tel:)/);
      for (const url of images) expect(url, `${file.path}: ${url}`).toMatch(new RegExp(`^${siteUrl}/_media/`));
    }
  });

  it('resolve every link into the site to a built file, and every anchor to an element of that page', () => {
    const idsByFile = new Map(
      pages.map((p) => [
        p.file,
        new Set(
          allElements(p.doc)
            .map((el) => el.attribs.id)
            .filter(Boolean),
        ),
      ]),
    );
    const broken: string[] = [];
    let checked = 0;
    for (const file of [llms, full, ...twins]) {
      const { links, images } = walk(file.root);
      for (const url of [...links, ...images]) {
        if (!url.startsWith(`${siteUrl}/`)) continue;
        checked++;
        const internal = url.slice(siteUrl.length);
        const target = resolveInternal(siteDir, internal);
        const fragment = internal.includes('#') ? internal.slice(internal.indexOf('#') + 1) : '';
        if (!target) broken.push(`${file.path}: ${url}`);
        else if (fragment && !idsByFile.get(target)?.has(fragment)) broken.push(`${file.path}: ${url} (no #${fragment})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(twins.length * 5);
  });

  it('give each twin its release: title, body text, the canonical page, the contacts', () => {
    for (const page of releasePages) {
      const twin = twins.find((t) => t.path === `${page.path}index.md`)!;
      const { headings, links } = walk(twin.root);
      expect(headings[0], twin.path).toEqual({ level: 1, text: text(elements(page.doc, 'h1')[0]!) });
      expect(
        headings.filter((h) => h.level === 1),
        twin.path,
      ).toHaveLength(1);
      expect(links, twin.path).toContain(`${siteUrl}${page.path}`);
      expect(
        links.some((l) => l.startsWith(`${siteUrl}/contacts/`)),
        twin.path,
      ).toBe(true);
    }
  });

  it('keeps llms.txt within its budget: the newest releases first, each linked to its twin', () => {
    expect(Buffer.byteLength(llms.text)).toBeLessThanOrEqual(LLMS_TXT_BUDGET.bytes);
    const { headings, links } = walk(llms.root);
    expect(headings[0]?.level).toBe(1);
    expect(headings.map((h) => h.text)).toEqual(
      expect.arrayContaining(['Press releases', 'Media kits', 'Press contacts', 'Feeds', 'Optional']),
    );
    const listed = links.filter((l) => l.endsWith('/index.md'));
    expect(listed.length).toBe(Math.min(LLMS_TXT_BUDGET.releases, releasePages.length));
    const dates = [...llms.text.matchAll(/\/index\.md\): (\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]);
    expect(dates).toHaveLength(listed.length);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const url of [`${siteUrl}/llms-full.txt`, `${siteUrl}/rss.xml`, `${siteUrl}/archive/`]) expect(links).toContain(url);
  });

  it('keeps llms-full.txt within its budget, newest first, ending with a link to the archive', () => {
    expect(Buffer.byteLength(full.text)).toBeLessThanOrEqual(LLMS_FULL_BUDGET.bytes);
    const { headings, links } = walk(full.root);
    expect(headings.filter((h) => h.level === 1)).toHaveLength(1);
    const published = full.text.match(/^- Published: (.+)$/gm)!;
    expect(published.length).toBe(Math.min(LLMS_FULL_BUDGET.releases, releasePages.length));
    expect(published).toEqual([...published].sort().reverse());
    expect(links.at(-2)).toBe(`${siteUrl}/archive/`);
  });

  it('are allowed by robots.txt', async () => {
    const robots = robotsParser(`${siteUrl}/robots.txt`, await readFile(path.join(siteDir, 'robots.txt'), 'utf8'));
    for (const file of [llms, full, twins[0]!]) expect(robots.isAllowed(`${siteUrl}${file.path}`, 'GPTBot'), file.path).toBe(true);
  });
});
