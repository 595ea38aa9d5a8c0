/**
 * A release page as a journalist on deadline uses it, in Debian's Chromium: every
 * picture's download saves a file of the site under the name it promises (in the
 * path and the `download` attribute), with the pixel size and file size the page
 * states; the zip of all pictures holds exactly those files and a MANIFEST.json
 * that matches them; the body's "media kit" sentence leads to the pictures; and
 * printed (print media emulated) the page is a press release: headline, dateline,
 * address, body, pictures and contacts, no navigation, buttons, downloads or
 * share links, on a few A4 pages.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import yauzl from 'yauzl';
import { formatFileSize } from '../../src/lib/format.ts';
import { hasChromium, launchChromium, noChromium, serveStatic, watchedPage, type StaticServer } from './helpers.ts';

const siteDir = inject('siteDir');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The release page with the most pictures in its gallery (and a zip), as a site path. */
function releaseWithPictures(): string {
  let best: { path: string; count: number } | null = null;
  for (const dir of readdirSync(siteDir).filter((d) => /^\d+-/.test(d))) {
    const html = readFileSync(path.join(siteDir, dir, 'index.html'), 'utf8');
    if (!html.includes('class="release-pictures__zip"')) continue;
    const count = html.split('class="picture-file"').length - 1;
    if (!best || count > best.count) best = { path: `/${dir}/`, count };
  }
  if (!best) throw new Error('no release page of the demo offers its pictures as a zip');
  return best.path;
}

async function unzip(bytes: Buffer): Promise<Array<{ name: string; bytes: Buffer }>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const out: Array<{ name: string; bytes: Buffer }> = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      out.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
    }
  } finally {
    zip.close();
  }
  return out;
}

/** A release page whose body says where the high-resolution images are (the demo's closing sentence), with or without pictures. */
function releaseMentioningTheKit(withPictures: boolean): string {
  for (const dir of readdirSync(siteDir).filter((d) => /^\d+-/.test(d))) {
    const html = readFileSync(path.join(siteDir, dir, 'index.html'), 'utf8');
    if (html.includes('class="release-pictures__zip"') === withPictures && html.includes('High-resolution images are available in the'))
      return `/${dir}/`;
  }
  throw new Error(`no release page of the demo ${withPictures ? 'with' : 'without'} pictures says where the high-resolution images are`);
}

/** Clicks `link` and returns the saved download: its suggested name and bytes. */
async function downloadBy(page: Page, selector: string, index: number): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(selector).nth(index).click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(file) };
}

let browser: Browser;
let server: StaticServer;
let releasePath: string;

beforeAll(async () => {
  if (!hasChromium) return noChromium();
  releasePath = releaseWithPictures();
  [browser, server] = await Promise.all([launchChromium(), serveStatic(siteDir)]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('a release page for a journalist, in Chromium', () => {
  it('downloads every picture under the name it promises, with the bytes, size and pixels it states', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const { page } = w;
      await page.goto(`${server.origin}${releasePath}`);
      const selector = 'figcaption.picture-file a.download-link';
      const links = await page.locator(selector).evaluateAll((as) =>
        as.map((a) => ({
          href: a.getAttribute('href')!,
          download: a.getAttribute('download')!,
          meta: a.closest('.picture-file__download')!.querySelector('.asset__meta')!.textContent!.replace(/\s+/g, ' ').trim(),
        })),
      );
      expect(links.length).toBeGreaterThan(1);
      for (const [i, link] of links.entries()) {
        // Named for people, in the path as well as the attribute: a camera file name or a hash never is the name.
        expect(link.href).toMatch(/^\/_media\/[0-9a-f]{16}\/[a-z0-9-]+\.(jpg|png)$/);
        expect(path.posix.basename(link.href)).toBe(link.download);
        expect(link.download).not.toMatch(/^(dsc|img)[-_]?\d+/i);
        const saved = await downloadBy(page, selector, i);
        expect(saved.name).toBe(link.download);
        const onDisk = await readFile(path.join(siteDir, link.href));
        expect(sha256(saved.bytes)).toBe(sha256(onDisk));
        const { width, height } = await sharp(saved.bytes).metadata();
        expect(link.meta).toBe(
          `${saved.name.endsWith('.png') ? 'PNG' : 'JPEG'} image · ${formatFileSize(saved.bytes.length, 'en')} · ${width} × ${height} px`,
        );
      }
      expect(w.failed).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('zips all pictures of the release with a MANIFEST.json that matches the files', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const { page } = w;
      await page.goto(`${server.origin}${releasePath}`);
      const pictures = await page
        .locator('figcaption.picture-file a.download-link')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      const selector = '.release-pictures__zip a.download-link';
      const promised = await page.locator(selector).getAttribute('download');
      expect(promised).toMatch(/^[a-z0-9-]+-images\.zip$/);
      const saved = await downloadBy(page, selector, 0);
      expect(saved.name).toBe(promised);
      const meta = await page.locator('.release-pictures__zip .asset__meta').textContent();
      expect(meta?.replace(/\s+/g, ' ').trim()).toBe(`ZIP archive, ${pictures.length} files, ${formatFileSize(saved.bytes.length, 'en')}`);

      const entries = await unzip(saved.bytes);
      expect(entries.at(-1)!.name).toBe('MANIFEST.json');
      const manifest = JSON.parse(entries.at(-1)!.bytes.toString('utf8')) as {
        press_release: { id: number; title: string; url: string };
        files: Array<{ name: string; sha256: string; bytes: number; width: number; height: number }>;
      };
      const h1 = await page.locator('h1').textContent();
      expect(manifest.press_release.title).toBe(h1);
      expect(manifest.press_release.url).toBe(`https://press.example.test${releasePath}`);
      const files = entries.slice(0, -1);
      // The same files as the page's downloads, under the same names.
      expect(files.map((f) => f.name).sort()).toEqual(pictures.map((href) => path.posix.basename(href)).sort());
      expect(manifest.files.map((f) => [f.name, f.sha256, f.bytes])).toEqual(files.map((f) => [f.name, sha256(f.bytes), f.bytes.length]));
      for (const href of pictures) {
        const file = files.find((f) => f.name === path.posix.basename(href))!;
        expect(sha256(file.bytes)).toBe(sha256(await readFile(path.join(siteDir, href))));
      }
    } finally {
      await w.context.close();
    }
  });

  it('leads the body\'s "media kit" sentence to the pictures, or to the media kits when the release has none', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const { page } = w;
      await page.goto(`${server.origin}${releaseMentioningTheKit(false)}`);
      await page.locator('.prose a', { hasText: 'media kit' }).click();
      expect(new URL(page.url()).pathname).toBe('/media-kits/');

      const withPictures = releaseMentioningTheKit(true);
      await page.goto(`${server.origin}${withPictures}`);
      const mention = page.locator(`.prose a[href="${withPictures}#images"]`);
      expect(await mention.count()).toBe(1);
      expect(await mention.textContent()).toMatch(/media ?kit/i);
      await mention.click();
      expect(new URL(page.url()).pathname).toBe(withPictures);
      expect(new URL(page.url()).hash).toBe('#images');
      expect(await page.locator('#images .release-pictures__zip').isVisible()).toBe(true);
    } finally {
      await w.context.close();
    }
  });

  it('prints as a press release: no navigation, buttons, downloads or share links; body, pictures, contacts, address', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const { page } = w;
      await page.goto(`${server.origin}${releasePath}`);
      expect(await page.locator('.print-url').isVisible()).toBe(false);
      await page.emulateMedia({ media: 'print' });
      const visible = (selector: string) =>
        page.locator(selector).evaluateAll(
          (els) =>
            els.filter((el) => {
              const box = el.getBoundingClientRect();
              return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
            }).length,
        );
      for (const hidden of ['nav', 'button', 'form', '.site-footer', '.share', '.download-link', '.button', '.breadcrumbs', '.demo-note']) {
        expect(await visible(hidden), hidden).toBe(0);
      }
      for (const shown of ['h1', '.dateline', '.prose p', '.featured img, .gallery img', '.contact__name', '.print-url']) {
        expect(await visible(shown), shown).toBeGreaterThan(0);
      }
      expect(await page.locator('.print-url').textContent()).toBe(`https://press.example.test${releasePath}`);
      // Pictures at a sensible size: none taller than a third of an A4 page (297 mm ≈ 1123 CSS px).
      const tallest = await page
        .locator('article img')
        .evaluateAll((imgs) => Math.max(...imgs.map((img) => img.getBoundingClientRect().height)));
      expect(tallest).toBeLessThanOrEqual(1123 / 3);
      const pdf = await page.pdf({ format: 'A4' });
      const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
      expect(pages).toBeGreaterThan(0);
      expect(pages).toBeLessThanOrEqual(3);
    } finally {
      await w.context.close();
    }
  });
});
