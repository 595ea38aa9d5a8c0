/**
 * The site's icons (src/lib/site-icons.ts) in the built demo: every page
 * links favicon.ico, the PNG icon and the apple-touch icon; each exists and
 * decodes at its size; and they are the demo logo's, not the neutral
 * fallbacks from public/ (which are complete and decode too).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import icoEndec from 'ico-endec';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ICON_FILES, ICON_LINKS, type IconFile } from '../../../src/lib/site-icons.ts';
import { elements, loadPages, resolveInternal, type BuiltPage } from '../helpers.ts';

const siteDir = inject('siteDir');
const publicDir = path.resolve(import.meta.dirname, '..', '..', '..', 'public');
let pages: BuiltPage[];

beforeAll(async () => {
  pages = await loadPages(siteDir);
});

/** Decodes one icon file; returns the sizes it holds. */
async function decode(file: IconFile, bytes: Buffer): Promise<string[]> {
  if (file.endsWith('.ico')) {
    const entries = icoEndec.decode(bytes);
    return Promise.all(
      entries.map(async (entry) => {
        expect(entry.imageType).toBe('png');
        const { width, height } = await sharp(entry.imageData).metadata();
        expect([width, height]).toEqual([entry.width, entry.height]);
        return `${width}x${height}`;
      }),
    );
  }
  const { width, height, format } = await sharp(bytes).metadata();
  expect(format).toBe('png');
  if (file === 'apple-touch-icon.png') expect((await sharp(bytes).stats()).isOpaque, 'iOS shows transparency as black').toBe(true);
  return [`${width}x${height}`];
}

describe('site icons', () => {
  it('are linked from every page, each file exists and decodes at the sizes its link says', async () => {
    expect(pages.length).toBeGreaterThan(100);
    const linked = new Map<string, string>();
    for (const page of pages) {
      const links = elements(page.doc, 'link').filter((l) => /^(icon|apple-touch-icon)$/.test(l.attribs.rel ?? ''));
      expect(
        links.map((l) => `${l.attribs.rel} ${l.attribs.href}`),
        page.path,
      ).toEqual(ICON_LINKS.map((i) => `${i.rel} /${i.file}`));
      for (const l of links) linked.set(l.attribs.href!, l.attribs.sizes ?? '');
    }
    for (const [href, sizes] of linked) {
      const file = resolveInternal(siteDir, href);
      expect(file, `${href} is in the build`).not.toBeNull();
      const held = await decode(path.basename(href) as IconFile, await readFile(file!));
      expect(held.join(' '), href).toBe(sizes);
    }
    // Browsers ask for /favicon.ico unprompted.
    expect(resolveInternal(siteDir, '/favicon.ico')).not.toBeNull();
  });

  it("are derived from the press room's logo, over the neutral fallbacks in public/ (which are whole too)", async () => {
    for (const file of ICON_FILES) {
      const built = await readFile(path.join(siteDir, file));
      const fallback = await readFile(path.join(publicDir, file));
      expect(built.equals(fallback), `${file} is the logo's, not the fallback`).toBe(false);
      expect((await decode(file, fallback)).join(' ')).toBe(ICON_LINKS.find((l) => l.file === file)!.sizes);
    }
  });
});
