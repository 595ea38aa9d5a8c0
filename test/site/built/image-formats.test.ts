/**
 * Formats per role in the built demo (image-pipeline/roles.ts): browsers get
 * WebP from every `srcset` and one JPEG or PNG as the `<img src>`; Open Graph,
 * feed images and enclosures and the `src` of body images are JPEG or PNG
 * (what feed readers, mail clients and social cards show); zips hold the
 * originals; no rendition is larger than MAX_SHOWN_SIDE, and no JPEG or PNG
 * rendition is wider than the default `src` width.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { zipEntryNames } from '../../helpers/zip-entries.ts';
import { MAX_SHOWN_SIDE } from '../../../image-pipeline/encode.ts';
import { DEFAULT_SRC_WIDTH } from '../../../image-pipeline/roles.ts';
import { parseSrcset } from '../../../src/lib/srcset.ts';
import { elements, listFiles, loadPages, meta, resolveInternal, type BuiltPage } from '../helpers.ts';

const siteDir = inject('siteDir');
let pages: BuiltPage[];

beforeAll(async () => {
  pages = await loadPages(siteDir);
});

const FALLBACK = /\.(jpg|png)$/;
const sitePath = (url: string) => (/^https?:/.test(url) ? new URL(url).pathname : url);

/** The format sharp reads from the file behind a site URL. */
async function formatOf(url: string): Promise<string | undefined> {
  const file = resolveInternal(siteDir, sitePath(url));
  expect(file, `${url} is in the build`).not.toBeNull();
  return (await sharp(file!).metadata()).format;
}

describe('image formats per reader', () => {
  it('gives browsers WebP in every <picture> srcset and one JPEG or PNG as its <img src>', async () => {
    let pictures = 0;
    const fallbacks = new Set<string>();
    for (const page of pages) {
      for (const picture of elements(page.doc, 'picture')) {
        pictures++;
        const sources = elements(picture, 'source');
        expect(
          sources.map((s) => s.attribs.type),
          page.path,
        ).toEqual(['image/webp']);
        for (const { url } of parseSrcset(sources[0]!.attribs.srcset ?? '')) expect(url, page.path).toMatch(/\.webp$/);
        const img = elements(picture, 'img')[0]!;
        expect(img.attribs.src, page.path).toMatch(FALLBACK);
        // The <img srcset> lists the one fallback only: a reader that takes srcset takes WebP.
        expect(
          parseSrcset(img.attribs.srcset ?? '').map(({ url }) => url),
          page.path,
        ).toEqual([img.attribs.src]);
        fallbacks.add(img.attribs.src!);
      }
    }
    expect(pictures).toBeGreaterThan(100);
    for (const src of [...fallbacks].slice(0, 20)) expect(['jpeg', 'png'], src).toContain(await formatOf(src));
  });

  it('gives Open Graph and body images a JPEG or PNG src, with WebP only in srcset', async () => {
    const shared = new Set<string>();
    let bodyImages = 0;
    for (const page of pages) {
      const og = meta(page.doc, 'og:image');
      if (og && og.includes('/_media/')) shared.add(og);
      for (const img of elements(page.doc, 'img')) {
        if ((img.parent as { name?: string } | null)?.name === 'picture' || !img.attribs.src?.startsWith('/_media/')) continue;
        bodyImages++;
        expect(img.attribs.src, page.path).toMatch(FALLBACK);
        for (const { url } of parseSrcset(img.attribs.srcset ?? '')) expect(url, page.path).toMatch(/\.webp$/);
      }
    }
    expect(shared.size).toBeGreaterThan(10);
    expect(bodyImages).toBeGreaterThan(0);
    for (const og of shared) expect(['jpeg', 'png'], og).toContain(await formatOf(og));
  });

  it('gives feed readers JPEG or PNG images and enclosures', async () => {
    const feeds = (await listFiles(siteDir)).filter((f) => /\/(rss|atom)\.xml$|\/feed\.json$/.test(f));
    expect(feeds.length).toBeGreaterThan(0);
    let images = 0;
    for (const feed of feeds) {
      const body = await readFile(feed, 'utf8');
      // Media RSS content, enclosures, JSON Feed images and attachments, img src in content: every image URL a reader fetches.
      const urls = [
        ...body.matchAll(/<(?:media:content|enclosure|link)\b[^>]*?(?:url|href)="([^"]+\/_media\/[^"]+)"[^>]*?type="image\/[^"]+"/g),
        ...body.matchAll(/"(?:image|banner_image|url)":\s*"([^"]+\/_media\/[^"]+\.(?:jpg|png|webp))"/g),
        ...body.matchAll(/<img\b[^>]*?\ssrc=(?:"|&quot;)([^"&]+\/_media\/[^"&]+)/g),
      ].map((m) => m[1]!);
      for (const url of urls) expect(url, feed).toMatch(FALLBACK);
      images += urls.length;
    }
    expect(images).toBeGreaterThan(10);
  });

  it('keeps renditions within MAX_SHOWN_SIDE and fallbacks within the default src width; zips hold no WebP', async () => {
    const files = await listFiles(path.join(siteDir, '_media'));
    const media = files.map((f) => path.basename(f));
    const renditions = media.map((name) => /^[0-9a-f]{16}-(\d+)x(\d+)\.(webp|jpg|png)$/.exec(name)).filter((m) => m !== null);
    expect(renditions.length).toBeGreaterThan(100);
    for (const [name, w, h, ext] of renditions) {
      expect(Math.max(Number(w), Number(h)), name).toBeLessThanOrEqual(MAX_SHOWN_SIDE);
      if (ext !== 'webp') expect(Number(w), name).toBeLessThanOrEqual(DEFAULT_SRC_WIDTH);
    }
    const webp = renditions.filter((m) => m[3] === 'webp').length;
    expect(webp, 'a WebP per width, a fallback per shape').toBeGreaterThan(renditions.length - webp);
    const zips = files.filter((f) => f.endsWith('.zip'));
    expect(zips.length).toBeGreaterThan(0);
    for (const zip of zips) {
      const entries = await zipEntryNames(zip);
      for (const entry of entries) expect(entry, zip).not.toMatch(/\.webp$/);
    }
  });
});
