/**
 * Media kits and the media library: every kit of the API has its page, grouped on the
 * index by the category tree; protected kits show no files; every download is labelled
 * with the type and size of the real file in dist/; platform videos link out, never embed.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { zipEntryNames } from '../../helpers/zip-entries.ts';
import { useEmulator } from '../../helpers/emulator.ts';
import { formatFileSize } from '../../../src/lib/format.ts';
import { allElements, elements, loadPages, resolveInternal, text, type BuiltPage, type Element } from '../helpers.ts';

interface ApiMedia {
  id: number;
  type: string;
  title: string;
  url?: string | null;
}
interface ApiKit {
  id: number;
  title: string;
  permalink: string;
  category_id: number | null;
  position: number;
  is_locked: boolean;
  is_password_protected: boolean;
  media: ApiMedia[];
}
interface ApiCategory {
  id: number;
  name: string;
  position: number;
  children: ApiCategory[];
}

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');

let kits: ApiKit[];
let tree: ApiCategory[];
let library: Record<'images' | 'movies' | 'videos' | 'sounds' | 'documents', ApiMedia[]>;
let pages: Map<string, BuiltPage>;

beforeAll(async () => {
  const api = emulator();
  const get = async <T>(p: string) => (await api.json<{ data: T }>(p)).body.data;
  const [k, t, images, movies, videos, sounds, documents] = await Promise.all([
    get<ApiKit[]>('media_kits?limit=10000'),
    api
      .json<ApiCategory[] | { data: ApiCategory[] }>('media_kit_categories/tree')
      .then((r) => (Array.isArray(r.body) ? r.body : r.body.data)),
    get<ApiMedia[]>('images?limit=10000'),
    get<ApiMedia[]>('movies?limit=10000'),
    get<ApiMedia[]>('videos?limit=10000'),
    get<ApiMedia[]>('sounds?limit=10000'),
    get<ApiMedia[]>('documents?limit=10000'),
  ]);
  kits = k;
  tree = t;
  library = { images, movies, videos, sounds, documents };
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));
});

/** `/media_kits/840057-slug` → `/media-kits/840057-slug/` */
const kitPath = (kit: ApiKit) => `/media-kits/${kit.permalink.split('/').filter(Boolean).pop()}/`;
const locked = (kit: ApiKit) => kit.is_locked || kit.is_password_protected;
const byClass = (root: BuiltPage['doc'] | Element, name: string) =>
  allElements(root as BuiltPage['doc']).filter((el) => (el.attribs.class ?? '').split(/\s+/).includes(name));
const main = (page: BuiltPage) => elements(page.doc, 'main')[0]!;

describe('media kits', () => {
  it('has a page for every kit of the API at /media-kits/<id>-<slug>/ with its title as the h1', () => {
    expect(kits.length).toBeGreaterThan(5);
    expect(kits.some(locked)).toBe(true);
    for (const kit of kits) {
      const page = pages.get(kitPath(kit));
      expect(page, kitPath(kit)).toBeDefined();
      expect(elements(page!.doc, 'h1').map(text)).toEqual([kit.title]);
    }
  });

  it('groups the index by the category tree in its positions, each kit under its own category', () => {
    const index = pages.get('/media-kits/')!;
    expect(index).toBeDefined();
    const order: number[] = [];
    const walk = (nodes: ApiCategory[]) => {
      for (const node of [...nodes].sort((a, b) => a.position - b.position)) {
        order.push(node.id);
        walk(node.children ?? []);
      }
    };
    walk(tree);
    const sections = allElements(index.doc).filter((el) => el.name === 'section' && /^category-\d+$/.test(el.attribs.id ?? ''));
    const shown = sections.map((s) => Number(s.attribs.id!.slice('category-'.length)));
    expect(shown.length).toBeGreaterThan(3);
    expect(shown).toEqual(order.filter((id) => shown.includes(id)));
    for (const kit of kits) {
      const section =
        sections.find((s) => s.attribs.id === `category-${kit.category_id}`) ??
        allElements(index.doc).find((el) => el.attribs.id === 'category-other');
      expect(section, `section of kit ${kit.id}`).toBeDefined();
      const links = elements(section!, 'a').map((a) => a.attribs.href);
      expect(links, `kit ${kit.id} in category ${kit.category_id}`).toContain(kitPath(kit));
      // Within a category, kits follow their positions.
      const siblings = kits
        .filter((k) => k.category_id === kit.category_id)
        .sort((a, b) => a.position - b.position || a.id - b.id)
        .map(kitPath);
      expect(links.filter((href) => siblings.includes(href!))).toEqual(siblings);
    }
  });

  it('shows locked and password-protected kits as protected, with no media, no download and no zip', () => {
    for (const kit of kits.filter(locked)) {
      const page = pages.get(kitPath(kit))!;
      const body = main(page);
      expect(text(body)).toContain('This media kit is protected');
      // No file of the kit: nothing from _media/, no zip, no download but the press contacts' vCards.
      const links = elements(body, 'a').filter((a) => !isInContactCard(a));
      expect(
        links
          .filter(
            (a) => a.attribs.download !== undefined || /\/_media\//.test(a.attribs.href ?? '') || /\.zip$/i.test(a.attribs.href ?? ''),
          )
          .map((a) => a.attribs.href),
      ).toEqual([]);
      // The only pictures are the press contacts' avatars.
      const media = ['picture', 'img', 'video', 'audio', 'source']
        .flatMap((tag) => elements(body, tag))
        .filter((el) => !isInContactCard(el));
      expect(
        media.map((el) => `<${el.name} ${el.attribs.src ?? el.attribs.srcset ?? ''}>`),
        page.path,
      ).toEqual([]);
      expect(byClass(body, 'asset')).toEqual([]);
    }
  });

  it("lists every file of a public kit and offers its zip, labelled with the zip's real size", async () => {
    for (const kit of kits.filter((k) => !locked(k) && k.media.length > 0)) {
      const page = pages.get(kitPath(kit))!;
      expect(byClass(main(page), 'asset').length, page.path).toBe(kit.media.length);
      const files = kit.media.filter((m) => m.type !== 'video').length;
      const zipLink = elements(main(page), 'a').find((a) => /\.zip$/.test(a.attribs.href ?? ''));
      if (files === 0) continue;
      expect(zipLink, `zip on ${page.path}`).toBeDefined();
      const file = resolveInternal(siteDir, zipLink!.attribs.href!)!;
      expect(file, zipLink!.attribs.href).toBeTruthy();
      const { size } = await stat(file);
      const label = text(zipLink!.parent as Element);
      expect(label, page.path).toContain(formatFileSize(size, 'en'));
      const entries = await zipEntryNames(file);
      expect(entries.filter((e) => e !== 'MANIFEST.json').length, page.path).toBe(files);
      expect(label).toContain(`${files} files`);
    }
  });
});

function isInContactCard(el: Element): boolean {
  for (let p = el.parent as Element | null; p; p = p.parent as Element | null)
    if ((p.attribs?.class ?? '').split(/\s+/).includes('contact')) return true;
  return false;
}

/** The file type a label claims, checked against the file's first bytes. */
const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'JPEG image': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'PNG image': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'PDF document': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'WAV audio': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WAVE',
  'MP4 video': (b) => b.subarray(4, 8).toString('latin1') === 'ftyp',
  'WebM video': (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])),
  // A release's pictures in one zip: "ZIP archive, 3 files, 219.1 kB" (ZIP-archief, ZIP-Archiv, Archive ZIP).
  ZIP: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
};

describe('downloads', () => {
  it('labels every download with the type and size of the real file in dist/', async () => {
    let checked = 0;
    const problems: string[] = [];
    for (const page of pages.values()) {
      const lang = elements(page.doc, 'html')[0]?.attribs.lang ?? 'en';
      for (const link of byClass(page.doc, 'download-link')) {
        const href = link.attribs.href ?? '';
        const file = resolveInternal(siteDir, href);
        if (!file) {
          problems.push(`${page.path}: ${href} is not in dist/`);
          continue;
        }
        const bytes = await readFile(file);
        const label = text(link.parent as Element);
        const type = Object.keys(MAGIC).find((t) => label.includes(t));
        if (!label.includes(formatFileSize(bytes.length, lang))) problems.push(`${page.path}: "${label}" for ${bytes.length} bytes`);
        if (!type || !MAGIC[type]!(bytes)) problems.push(`${page.path}: "${label}" does not match the bytes of ${href}`);
        if (!link.attribs.download || path.extname(link.attribs.download) === '')
          problems.push(`${page.path}: ${href} has no download file name`);
        checked++;
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });
});

describe('media library', () => {
  const sectionItems = (section: string) => {
    // The front page, then the pages numbered from the oldest (src/lib/listing-pages.ts).
    const found: Element[] = [];
    const front = pages.get(`/media/${section}/`);
    if (front) found.push(...byClass(main(front), 'asset'));
    for (let n = 1; pages.has(`/media/${section}/${n}/`); n++) found.push(...byClass(main(pages.get(`/media/${section}/${n}/`)!), 'asset'));
    return found;
  };

  it('lists every image, video, sound and document of the API in its section', () => {
    expect(pages.has('/media/')).toBe(true);
    expect(sectionItems('images').length).toBe(library.images.length);
    expect(sectionItems('videos').length).toBe(library.videos.length + library.movies.length);
    expect(sectionItems('audio').length).toBe(library.sounds.length);
    expect(sectionItems('documents').length).toBe(library.documents.length);
  });

  it('links platform videos out to the platform, with their poster, and embeds nothing', () => {
    const videos = sectionItems('videos');
    for (const video of library.videos) {
      const links = videos.flatMap((v) => elements(v, 'a')).filter((a) => a.attribs.href === video.url);
      expect(links.length, `${video.url}`).toBeGreaterThan(0);
      for (const a of links) expect((a.attribs.rel ?? '').split(/\s+/)).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }
    for (const page of pages.values()) expect(elements(page.doc, 'iframe'), page.path).toEqual([]);
  });

  it('plays sounds and video files from the site itself', () => {
    const players = [...sectionItems('audio'), ...sectionItems('videos')].flatMap((a) => [
      ...elements(a, 'audio'),
      ...elements(a, 'video').flatMap((v) => elements(v, 'source')),
    ]);
    expect(players.length).toBe(library.sounds.length + library.movies.length);
    for (const el of players) {
      expect(el.attribs.src, el.name).toMatch(/^\/_media\//);
      expect(resolveInternal(siteDir, el.attribs.src!), el.attribs.src).toBeTruthy();
    }
  });
});
