/**
 * The upstream site is served under a path (PRESSROOM_SITE_URL `https://press.example.test/press/`,
 * test/site/global-setup.ts). Every URL of every file it writes that points at its own host —
 * HTML attributes (srcset too), refresh targets, JSON-LD, feeds, sitemaps, robots.txt, llms files,
 * Markdown twins, calendars, vCards, stylesheets — lives under `/press/` and names a file of the build.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'htmlparser2';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { listFiles, resolveInternal, urlsOf } from '../helpers.ts';

const site = inject('upstreamSite');
const siteUrl = new URL(site.siteUrl);

/** Files whose text can hold URLs; images, zips, PDFs and the search index's binary parts are not read. */
const TEXT_FILES = /\.(html|xml|json|txt|md|ics|vcf|css|webmanifest)$/;
/** Absolute http(s) URLs in any text: up to a quote, a bracket, white space or an entity. */
const ABSOLUTE_URL = /https?:\/\/[^\s"'<>()[\]\\&]+/g;
/** `url(/x)` in a stylesheet. */
const CSS_URL = /url\((['"]?)([^)'"]+)\1\)/g;

interface FoundUrl {
  file: string;
  url: string;
}

/** The site's own URLs in one file, resolved against the file's own address. */
function urlsInFile(rel: string, text: string): string[] {
  const pageUrl = new URL(rel.replace(/(^|\/)index\.html$/, '$1'), siteUrl.href.replace(/\/?$/, '/'));
  // Calendars and vCards fold long lines (RFC 5545/6350): a URL may be cut by CRLF + one space.
  const unfolded = /\.(ics|vcf)$/.test(rel) ? text.replace(/\r?\n[ \t]/g, '') : text;
  const found = [...unfolded.matchAll(ABSOLUTE_URL)].map((m) => m[0].replace(/[.,;:]+$/, ''));
  if (rel.endsWith('.html')) found.push(...urlsOf(parseDocument(text)).map((u) => u.url));
  if (rel.endsWith('.css')) found.push(...[...text.matchAll(CSS_URL)].map((m) => m[2]!));
  const own: string[] = [];
  for (const raw of found) {
    const value = raw.trim();
    if (value === '' || value.startsWith('#') || /^(mailto|tel|data|javascript):/i.test(value)) continue;
    let url: URL;
    try {
      url = new URL(value, pageUrl);
    } catch {
      continue;
    }
    if (url.host === siteUrl.host) own.push(url.pathname);
  }
  return own;
}

const found: FoundUrl[] = [];
let files: string[] = [];

beforeAll(async () => {
  files = (await listFiles(site.dir)).map((f) => path.relative(site.dir, f).split(path.sep).join('/'));
  for (const rel of files.filter((f) => TEXT_FILES.test(f) && !f.startsWith('pagefind/'))) {
    for (const url of urlsInFile(rel, await readFile(path.join(site.dir, rel), 'utf8'))) found.push({ file: rel, url });
  }
});

describe('a site under a path', () => {
  it('writes every URL to its own host under the base path', () => {
    const outside = found.filter((f) => !f.url.startsWith(site.base));
    expect(outside.slice(0, 20).map((f) => `${f.file}: ${f.url}`)).toEqual([]);
  });

  it('names files that exist in the build with every one of them', () => {
    const missing = found.filter(
      (f) => f.url.startsWith(site.base) && resolveInternal(site.dir, `/${f.url.slice(site.base.length)}`) === null,
    );
    expect([...new Set(missing.map((f) => `${f.file}: ${f.url}`))].slice(0, 20)).toEqual([]);
  });

  it('reads URLs from every kind of file it writes', () => {
    const kinds = new Set(found.map((f) => (f.file.endsWith('/index.md') ? 'md' : path.extname(f.file).slice(1))));
    // vCards carry no URL of the site (their photo is inline); stylesheets here name no file.
    for (const kind of ['html', 'xml', 'json', 'txt', 'md', 'ics']) expect(kinds, kind).toContain(kind);
    const from = (file: string) => found.filter((f) => f.file === file).map((f) => f.url);
    // The files crawlers and readers start from, each with what must be in it.
    expect(from('robots.txt')).toEqual([`${site.base}sitemap-index.xml`, `${site.base}sitemap-news.xml`]);
    expect(from('sitemap-index.xml')).toContain(`${site.base}sitemap-0.xml`);
    expect(from('sitemap-0.xml')).toContain(`${site.base}releases/`);
    // Redirect pages at the hosted newsroom's addresses stay out of the sitemap under the path too.
    expect(from('sitemap-0.xml').filter((url) => /^\/press\/(videos|images|media_kits)\//.test(url))).toEqual([]);
    expect(from('rss.xml')).toContain(`${site.base}rss.xml`);
    expect(from('feed.json')).toContain(`${site.base}feed.json`);
    expect(from('llms.txt')).toContain(`${site.base}llms-full.txt`);
    expect(from('index.html')).toEqual(
      expect.arrayContaining([site.base, `${site.base}releases/`, `${site.base}favicon.ico`, `${site.base}search/`]),
    );
    expect(found.some((f) => f.file === 'index.html' && f.url.startsWith(`${site.base}_astro/`))).toBe(true);
    expect(found.some((f) => f.url.startsWith(`${site.base}_media/`))).toBe(true);
    expect(found.some((f) => /archive\/\d+\/atom\.xml$/.test(f.url) && f.file.endsWith('atom.xml'))).toBe(true);
    expect(found.some((f) => f.file === 'contacts/index.html' && f.url.endsWith('.vcf'))).toBe(true);
    expect(found.some((f) => f.file === 'events/index.html' && f.url === `${site.base}events/calendar.ics`)).toBe(true);
    expect(found.some((f) => f.file.endsWith('.ics') && f.url.startsWith(`${site.base}events/`))).toBe(true);
    expect(found.some((f) => f.file.endsWith('/index.md') && f.url.startsWith(`${site.base}_media/`))).toBe(true);
    expect(found.filter((f) => f.file.startsWith('videos/')).length).toBeGreaterThan(0); // redirect pages: refresh and canonical
    expect(found.some((f) => f.file === 'search/index.html' && f.url.startsWith(`${site.base}_search/`))).toBe(true);
  });

  it('keeps the built files at the root of the output folder, not under the base path', () => {
    expect(files).toContain('index.html');
    expect(files.some((f) => f.startsWith(site.base.slice(1)))).toBe(false);
  });

  it('says in robots.txt that its rules cover the base path', async () => {
    const robots = await readFile(path.join(site.dir, 'robots.txt'), 'utf8');
    expect(robots).toMatch(new RegExp(`^(Allow|Disallow): ${site.base}$`, 'm'));
    expect(robots).not.toMatch(/^(Allow|Disallow): \/$/m);
  });
});
