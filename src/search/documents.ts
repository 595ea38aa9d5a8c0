/**
 * What the search knows about a built page: read back from the page's own
 * HTML, so the index holds exactly what a reader sees. A page takes part when
 * it marks its content with `data-pagefind-body` and says what it is with
 * <SearchMeta> (type, language, year, date, tags); `data-pagefind-ignore`
 * leaves a part out (breadcrumbs, datelines, the header's search box).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { PAGE_TEXT_BREAKS } from '../lib/block-elements.ts';
import type { PageMeta } from './format.ts';

type Node = ReturnType<typeof parseDocument>['children'][number];
type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

export interface SearchDocument extends PageMeta {
  /** The page's searchable text, whitespace collapsed. */
  text: string;
}

/** Site paths never searched: the search page itself and the 404. */
export const NOT_SEARCHED = ['search/index.html', '404.html', '404/index.html'];

/** Every searchable page of the built site in `siteDir`, in path order (the same site gives the same list). */
export async function readSearchDocuments(siteDir: string, skip: readonly string[] = NOT_SEARCHED): Promise<SearchDocument[]> {
  const excluded = new Set(skip);
  const files = (await readdir(siteDir, { recursive: true }))
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.html') && !excluded.has(f))
    .sort();
  const documents: SearchDocument[] = [];
  for (const file of files) {
    const document = searchDocument(await readFile(path.join(siteDir, file), 'utf8'), sitePathOf(file));
    if (document) documents.push(document);
  }
  return documents;
}

/** `releases/2/index.html` → `/releases/2/`. */
export function sitePathOf(file: string): string {
  return `/${file.replace(/(^|\/)index\.html$/, '$1')}`;
}

/** `sitePathOf` undone: `/releases/2/` → `releases/2/index.html`. */
export function fileOfSitePath(sitePath: string): string {
  return sitePath.endsWith('/') ? `${sitePath.slice(1)}index.html` : sitePath.slice(1);
}

type Parsed = ReturnType<typeof parseDocument>;

/** The elements the search reads, each kind in document order, from one walk of the page. */
interface PageElements {
  bodies: Element[];
  /** Elements with any `data-pagefind-*` attribute. */
  marked: Element[];
  byName: (name: 'html' | 'meta' | 'title' | 'h1' | 'img') => Element[];
}

const READ_NAMES = new Set(['html', 'meta', 'title', 'h1', 'img']);

/** One walk instead of one per kind (nine a page: at L, 4.4 s of a 20–30 s read). */
function elementsOf(doc: Parsed): PageElements {
  const bodies: Element[] = [];
  const marked: Element[] = [];
  const named = new Map<string, Element[]>();
  for (const el of DomUtils.findAll(() => true, doc.children)) {
    if (READ_NAMES.has(el.name)) {
      const list = named.get(el.name);
      if (list) list.push(el);
      else named.set(el.name, [el]);
    }
    if (!Object.keys(el.attribs).some((name) => name.startsWith('data-pagefind-'))) continue;
    marked.push(el);
    if (el.attribs['data-pagefind-body'] !== undefined) bodies.push(el);
  }
  return { bodies, marked, byName: (name) => named.get(name) ?? [] };
}

/** Whether `el` is `ancestor` or inside it. */
function isWithin(el: Element, ancestor: Element): boolean {
  for (let node: Element | null = el; node; node = node.parent as Element | null) if (node === ancestor) return true;
  return false;
}

/**
 * Whether the page can mark content: an element with `data-pagefind-body` has the attribute's name in
 * its source, in some case (the parser lower-cases names). Most pages of a site do not (lists, tags,
 * redirects: 15,000 of 26,651 at L), and are then not parsed at all.
 */
const mayMarkContent = (html: string): boolean => /data-pagefind-body/i.test(html);

/** The page as a search document, or null when it marks no content. */
export function searchDocument(html: string, url: string): SearchDocument | null {
  if (!mayMarkContent(html)) return null;
  const elements = elementsOf(parseDocument(html));
  return elements.bodies.length === 0 ? null : documentOf(elements, url);
}

/**
 * The page as the Pagefind index takes it: its search document and a digest of every part of it
 * Pagefind reads (equal digests, equal index entries); null when it marks no content.
 */
export function indexedPage(html: string, url: string): { document: SearchDocument; pagefindInput: string } | null {
  if (!mayMarkContent(html)) return null;
  const elements = elementsOf(parseDocument(html, { withStartIndices: true, withEndIndices: true }));
  if (elements.bodies.length === 0) return null;
  return { document: documentOf(elements, url), pagefindInput: pagefindInput(html, url, elements) };
}

function documentOf({ bodies, byName }: PageElements, url: string): SearchDocument {
  const meta = new Map<string, string[]>();
  for (const el of byName('meta')) {
    const name = el.attribs.name ?? '';
    if (name.startsWith('pagefind:')) meta.set(name.slice(9), [...(meta.get(name.slice(9)) ?? []), el.attribs.content ?? '']);
  }
  const first = (key: string) => meta.get(key)?.[0]?.trim() || null;
  const html0 = byName('html')[0];
  const h1s = byName('h1');
  const heading = bodies.map((b) => h1s.find((h1) => isWithin(h1, b))).find(Boolean) ?? h1s[0];
  const titleTag = byName('title')[0];
  const title = collapse(heading ? DomUtils.textContent(heading) : titleTag ? DomUtils.textContent(titleTag) : url);
  return {
    url,
    title,
    type: first('type') ?? 'page',
    lang: first('language') ?? html0?.attribs.lang ?? '',
    date: first('date'),
    year: first('year'),
    tags: [...new Set((meta.get('tag') ?? []).map((t) => t.trim()).filter(Boolean))],
    text: collapse(bodies.map(indexedText).join(' ')),
  };
}

/**
 * A digest of what Pagefind reads of a page, so that a bundle whose pages all have the digests they
 * had can be taken as it was instead of being indexed again. Pagefind takes the marked regions whole
 * (text, ids as anchors, headings as weights), `data-pagefind-*` attributes anywhere on the page
 * (filters, metadata and sorts in the head), the first `h1` and `<title>` as the title, the first
 * `img` after a title as the result's image (an aside's image too) unless the page names its image,
 * and `<html lang>`. The digest
 * covers more than that rather than less: a part left out would keep a bundle whose page changed.
 */
function pagefindInput(html: string, url: string, { bodies, marked, byName }: PageElements): string {
  const hash = createHash('sha256').update(url);
  const part = (el: Element) => hash.update('\0').update(html.slice(el.startIndex!, el.endIndex! + 1));
  const html0 = byName('html')[0];
  hash.update('\0').update(html0?.attribs.lang ?? '');
  for (const el of byName('title')) part(el);
  for (const el of bodies) part(el);
  for (const el of marked) if (el.attribs['data-pagefind-body'] === undefined) part(el);
  // A page that names its result image (SearchMeta names none) leaves Pagefind nothing to find after its title.
  const namesImage = marked.some((el) => /(?:^|,)\s*image[[:]/.test(el.attribs['data-pagefind-meta'] ?? ''));
  const images = namesImage ? [] : byName('img');
  const titles = [...byName('h1'), ...marked.filter((el) => el.attribs['data-pagefind-meta'] !== undefined)];
  for (const title of titles) {
    part(title);
    const image = images.find((img) => img.startIndex! > title.startIndex!);
    if (image) part(image);
  }
  return hash.digest('hex');
}

const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'svg', 'select', 'button']);

/** An element's text, without the parts marked `data-pagefind-ignore` and with blocks kept apart as words. */
function indexedText(root: Element): string {
  const out: string[] = [];
  const walk = (node: Node) => {
    if (node.type === 'text') out.push((node as unknown as { data: string }).data);
    if (!('attribs' in node)) return;
    const el = node as Element;
    if (SKIPPED.has(el.name) || el.attribs['data-pagefind-ignore'] !== undefined) return;
    const block = PAGE_TEXT_BREAKS.has(el.name);
    if (block) out.push(' ');
    for (const child of el.children) walk(child as Node);
    if (block) out.push(' ');
  };
  for (const child of root.children) walk(child as Node);
  return out.join('');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
