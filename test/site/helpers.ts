/** Reading the built site: its files, pages, links and JSON-LD. */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseDocument, DomUtils } from 'htmlparser2';
import { parseSrcset } from '../../src/lib/srcset.ts';

export type Document = ReturnType<typeof parseDocument>;
export type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export interface BuiltPage {
  /** Site path, e.g. `/releases/2/` or `/404.html`. */
  path: string;
  file: string;
  html: string;
  doc: Document;
  /** Where a redirect page sends the reader (its `<meta http-equiv="refresh">` URL); undefined on real pages. */
  redirectTo?: string;
}

/** The URL of a `<meta http-equiv="refresh" content="0; url=…">`, if the page has one. */
export function refreshTarget(doc: Document): string | undefined {
  const refresh = elements(doc, 'meta').find((m) => (m.attribs['http-equiv'] ?? '').toLowerCase() === 'refresh');
  return refresh ? /url=(.*)$/i.exec(refresh.attribs.content ?? '')?.[1]?.trim() : undefined;
}

/** Every HTML page of the build, parsed. */
export async function loadPages(siteDir: string): Promise<BuiltPage[]> {
  const files = (await listFiles(siteDir)).filter((f) => f.endsWith('.html'));
  return Promise.all(
    files.map(async (file) => {
      const rel = path.relative(siteDir, file).split(path.sep).join('/');
      const sitePath = rel === 'index.html' ? '/' : rel.endsWith('/index.html') ? `/${rel.slice(0, -'index.html'.length)}` : `/${rel}`;
      const html = await readFile(file, 'utf8');
      const doc = parseDocument(html);
      const redirectTo = refreshTarget(doc);
      return { path: sitePath, file, html, doc, ...(redirectTo === undefined ? {} : { redirectTo }) };
    }),
  );
}

export const elements = (root: Document | Element, name: string): Element[] => DomUtils.getElementsByTagName(name, root, true);
export const allElements = (doc: Document): Element[] => DomUtils.findAll(() => true, doc.children);
export const text = (el: Element): string => DomUtils.textContent(el).replace(/\s+/g, ' ').trim();

export function meta(doc: Document, key: string): string | undefined {
  return elements(doc, 'meta').find((m) => m.attribs.name === key || m.attribs.property === key)?.attribs.content;
}

/** Every JSON-LD block of a page, parsed. */
export function jsonLd(doc: Document): unknown[] {
  return elements(doc, 'script')
    .filter((s) => s.attribs.type === 'application/ld+json')
    .map((s) => JSON.parse(DomUtils.textContent(s)) as unknown);
}

/** The file an internal URL path resolves to in the build, or null. */
export function resolveInternal(siteDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split(/[?#]/)[0] ?? '');
  } catch {
    return null;
  }
  const target = path.join(siteDir, decoded);
  if (!target.startsWith(siteDir)) return null;
  const candidates = decoded.endsWith('/')
    ? [path.join(target, 'index.html')]
    : [target, path.join(target, 'index.html'), `${target}.html`];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Every URL a page refers to, with where it was found. */
export function urlsOf(doc: Document): Array<{ url: string; where: string }> {
  const out: Array<{ url: string; where: string }> = [];
  for (const el of allElements(doc)) {
    for (const attr of ['href', 'src', 'poster', 'action', 'data', 'cite']) {
      const value = el.attribs[attr];
      if (value !== undefined) out.push({ url: value, where: `<${el.name} ${attr}>` });
    }
    for (const attr of ['srcset', 'imagesrcset']) {
      const value = el.attribs[attr];
      if (value) for (const { url } of parseSrcset(value)) out.push({ url, where: `<${el.name} ${attr}>` });
    }
    if (el.name === 'meta' && (el.attribs['http-equiv'] ?? '').toLowerCase() === 'refresh') {
      const target = refreshTarget(doc);
      if (target !== undefined) out.push({ url: target, where: '<meta http-equiv=refresh>' });
    }
    if (
      el.name === 'meta' &&
      el.attribs.content &&
      /^(og:image|og:url|twitter:image)$/.test(el.attribs.property ?? el.attribs.name ?? '')
    ) {
      out.push({ url: el.attribs.content, where: `<meta ${el.attribs.property ?? el.attribs.name}>` });
    }
  }
  return out;
}

/** What Pagefind keeps of a page for its result. */
export interface PagefindFragment {
  url: string;
  content: string;
  meta: Record<string, string>;
}

/** The fragments of a written Pagefind bundle (gzipped, after Pagefind's signature), one per page. */
export async function bundleFragments(dir: string): Promise<PagefindFragment[]> {
  const fragments = path.join(dir, 'fragment');
  const read: PagefindFragment[] = [];
  for (const file of await readdir(fragments)) {
    const json = gunzipSync(await readFile(path.join(fragments, file)))
      .toString('utf8')
      .replace(/^pagefind_dcd/, '');
    read.push(JSON.parse(json) as PagefindFragment);
  }
  return read;
}

/** The URLs of the pages a written Pagefind bundle holds, read from its fragments. */
export async function bundleUrls(dir: string): Promise<string[]> {
  return (await bundleFragments(dir)).map((fragment) => fragment.url).sort();
}
