/**
 * Downloads and media-kit zips against the demo press room: originals labelled
 * from their real bytes, movie posters, documents with their size, one zip per
 * open media kit whose MANIFEST.json matches the files' checksums, the same
 * zip bytes from two independent runs, no zip for locked or protected kits.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import type { ImagePipeline, ManifestFile, MediaKitInput } from '../../image-pipeline/index.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { tempDir, testPipeline } from './helpers.ts';

interface Kit extends MediaKitInput {
  id: number;
  title: string;
  media: NonNullable<MediaKitInput['media']>;
}

/** Every entry of a zip file: name → bytes, in order. */
async function unzip(file: string): Promise<Array<{ name: string; bytes: Buffer; method: number }>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const out: Array<{ name: string; bytes: Buffer; method: number }> = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      out.push({ name: entry.fileName, bytes: Buffer.concat(chunks), method: entry.compressionMethod });
    }
  } finally {
    zip.close();
  }
  return out;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const fileOf = (p: ImagePipeline, href: string) => p.published().get(href.replace('/_media/', ''))!;

describe('downloads and media-kit zips', () => {
  let emulator: RunningEmulator;
  let cacheA: Awaited<ReturnType<typeof tempDir>>;
  let cacheB: Awaited<ReturnType<typeof tempDir>>;
  let kits: Kit[];
  let get: <T>(p: string) => Promise<T>;

  beforeAll(async () => {
    emulator = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    cacheA = await tempDir('zips-a');
    cacheB = await tempDir('zips-b');
    const base = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}`;
    get = async <T>(p: string) => ((await (await fetch(`${base}/${p}`)).json()) as { data: T }).data;
    kits = await get<Kit[]>('media_kits?limit=100');
  });

  afterAll(async () => {
    await emulator?.close();
    await cacheA?.remove();
    await cacheB?.remove();
  });

  /** A small kit with images, sounds or documents (and the smallest total size), to keep the test quick. */
  const pickKit = () => {
    const open = kits.filter(
      (k) =>
        !k.is_locked && !k.is_password_protected && k.media.some((m) => m.type === 'document') && k.media.some((m) => m.type === 'image'),
    );
    expect(open.length).toBeGreaterThan(0);
    return open[0]!;
  };

  it('zips a media kit: every original plus a MANIFEST.json whose checksums match', async () => {
    const kit = pickKit();
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const zip = await p.mediaKitZip(kit, { page: '/media_kits/test' });
    expect(zip).not.toBeNull();
    expect(zip!.href).toMatch(/^\/_media\/[0-9a-f]{16}\.zip$/);
    expect(zip!.filename).toBe(
      `${kit.title
        .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()}.zip`,
    );
    const entries = await unzip(fileOf(p, zip!.href));
    expect(entries.at(-1)!.name).toBe('MANIFEST.json');
    const manifest = JSON.parse(entries.at(-1)!.bytes.toString('utf8')) as {
      media_kit: { id: number; title: string };
      files: ManifestFile[];
    };
    expect(manifest.media_kit).toEqual({ id: kit.id, title: kit.title });
    const files = entries.slice(0, -1);
    expect(zip!.files).toBe(files.length);
    expect(files.length).toBe(kit.media.filter((m) => m.type !== 'video').length);
    expect(manifest.files.map((f) => f.name)).toEqual(files.map((f) => f.name));
    for (const [i, f] of files.entries()) {
      const m = manifest.files[i]!;
      expect(sha256(f.bytes), f.name).toBe(m.sha256);
      expect(f.bytes.length, f.name).toBe(m.bytes);
      expect(f.method, f.name).toBe(0); // stored
      if (m.type === 'image') {
        expect(m.width).toBeGreaterThan(0);
        expect(m.height).toBeGreaterThan(0);
        expect(m.content_type).toMatch(/^image\/(jpeg|png)$/);
      } else {
        expect(m.width).toBeNull();
      }
    }
    expect(manifest.files.some((f) => f.content_type === 'application/pdf')).toBe(true);
    expect(zip!.bytes).toBe((await readFile(fileOf(p, zip!.href))).length);
    expect(p.stats().refused).toBe(0);
  });

  it('writes byte-identical zips from two independent runs, and reuses the cached one', async () => {
    const kit = pickKit();
    const a = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const b = testPipeline({ apiUrl: emulator.url, cacheDir: cacheB.dir });
    const [za, zb] = [await a.mediaKitZip(kit), await b.mediaKitZip(kit)];
    expect(za).toEqual(zb);
    expect((await readFile(fileOf(a, za!.href))).equals(await readFile(fileOf(b, zb!.href)))).toBe(true);
    // cacheA already held this zip (previous test): nothing downloaded, nothing zipped.
    expect(a.stats()).toMatchObject({ downloads: 0, zipsWritten: 0, sharpOps: 0 });
    expect(b.stats().zipsWritten).toBe(1);
  });

  it('keeps a reused zip and its originals through a cache prune, however old their files are', async () => {
    const kit = pickKit();
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    const files = (await readdir(cacheB.dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
    for (const file of files) await utimes(file, longAgo, longAgo);
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheB.dir });
    const zip = await p.mediaKitZip(kit);
    expect(p.stats()).toMatchObject({ downloads: 0, zipsWritten: 0 });
    await p.pruneCache(30 * 86_400_000);
    expect(existsSync(fileOf(p, zip!.href)), 'the reused zip').toBe(true);
    const again = testPipeline({ apiUrl: emulator.url, cacheDir: cacheB.dir });
    expect(await again.mediaKitZip(kit)).toEqual(zip);
    expect(again.stats()).toMatchObject({ downloads: 0, zipsWritten: 0 });
  });

  it('gives no zip for locked or password-protected kits, even if media were present', async () => {
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const closed = kits.filter((k) => k.is_locked || k.is_password_protected);
    expect(closed.length).toBeGreaterThan(0);
    for (const kit of closed) expect(await p.mediaKitZip(kit)).toBeNull();
    const media = pickKit().media;
    expect(await p.mediaKitZip({ title: 'x', is_locked: true, media })).toBeNull();
    expect(await p.mediaKitZip({ title: 'x', is_password_protected: true, media })).toBeNull();
    expect(p.stats().originals).toBe(0);
  });

  it('labels downloads from the real bytes: documents with their size, movies with a poster frame', async () => {
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const [document] = await get<Kit['media']>('documents?limit=1');
    const doc = await p.download(document!);
    expect(doc).toMatchObject({ type: 'PDF document', mime: 'application/pdf' });
    const docBytes = await readFile(fileOf(p, doc!.href));
    expect(doc!.bytes).toBe(docBytes.length);
    expect(doc!.sha256).toBe(sha256(docBytes));
    expect(doc!.size).toMatch(/^\d+(\.\d)? (B|kB|MB)$/);
    expect(doc!.href).toMatch(/^\/_media\/[0-9a-f]{16}\.pdf$/);

    const [movie] = await get<Kit['media']>('movies?limit=1');
    const film = await p.download(movie!);
    expect(film?.type).toMatch(/video/);
    // The API's file_size is a claim; the label comes from the bytes.
    expect(film!.bytes).toBe((await readFile(fileOf(p, film!.href))).length);
    const poster = await p.poster(movie!);
    expect(poster?.src).toMatch(/^\/_media\/[0-9a-f]{16}-\d+x\d+\.webp$/);
    expect(poster!.width).toBeLessThanOrEqual(1200);

    const [image] = await get<Kit['media']>('images?limit=1');
    const original = await p.download(image!);
    expect(original).toMatchObject({ type: 'JPEG image', mime: 'image/jpeg' });
    expect([original!.width, original!.height]).toEqual([Number(image!.sizes!.original!.width), Number(image!.sizes!.original!.height)]);

    const [video] = await get<Kit['media']>('videos?limit=1');
    expect(await p.download(video!)).toBeNull(); // an embed: no file
    expect(p.stats().refused).toBe(0);
  });

  it("names a download for people in its path, and zips any public items with the kits' manifest", async () => {
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const images = await get<Kit['media']>('images?limit=2');
    const named = await p.download(images[0]!, { name: 'Northwind Hub at dusk, Berlin' });
    expect(named!.href).toMatch(/^\/_media\/[0-9a-f]{16}\/northwind-hub-at-dusk-berlin\.jpg$/);
    expect(named!.filename).toBe('northwind-hub-at-dusk-berlin.jpg');
    const plain = await p.download(images[0]!);
    expect(plain!.sha256).toBe(named!.sha256);
    expect(sha256(await readFile(fileOf(p, named!.href)))).toBe(named!.sha256);

    const about = { press_release: { id: 1, title: 'A release', url: 'https://press.example.test/1-a-release' } };
    const files = images.map((item) => ({ item, name: 'Hub, Berlin' }));
    const zip = await p.mediaZip({ about, name: 'A release images', files });
    expect(zip).toMatchObject({ files: 2, filename: 'a-release-images.zip' });
    expect(zip!.href).toMatch(/^\/_media\/[0-9a-f]{16}\/a-release-images\.zip$/);
    const entries = await unzip(fileOf(p, zip!.href));
    expect(entries.map((e) => e.name)).toEqual(['hub-berlin.jpg', 'hub-berlin (2).jpg', 'MANIFEST.json']);
    const manifest = JSON.parse(entries.at(-1)!.bytes.toString('utf8')) as { press_release: unknown; files: ManifestFile[] };
    expect(manifest.press_release).toEqual(about.press_release);
    expect(manifest.files.map((f) => [f.name, f.sha256])).toEqual(entries.slice(0, -1).map((e) => [e.name, sha256(e.bytes)]));

    // Published under a folder: emit() makes it.
    const out = await tempDir('named-emit');
    try {
      await p.emit(out.dir);
      expect(existsSync(path.join(out.dir, zip!.href.replace('/_media/', '')))).toBe(true);
      expect(existsSync(path.join(out.dir, named!.href.replace('/_media/', '')))).toBe(true);
    } finally {
      await out.remove();
    }
  });

  it('maps rendition URLs inside upstream HTML to site-local copies', async () => {
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const images = await get<Kit['media']>('images?limit=2');
    const large = images[0]!.sizes!.large!.url;
    const html = `<p>x</p><img alt="a" src="${large}"><img src="https://elsewhere.example/x.jpg">`;
    const rewrite = await p.inlineImages(html, [images], { page: '/1-release' });
    const hit = rewrite(large);
    expect(hit).toMatchObject({ width: Number(images[0]!.sizes!.large!.width), height: Number(images[0]!.sizes!.large!.height) });
    expect(hit!.src).toMatch(/^\/_media\//);
    expect(hit!.srcset).toMatch(/ 600w, .* 1200w$/);
    expect(rewrite('https://elsewhere.example/x.jpg')).toBeNull();
  });

  it('finds inline images in a long list (indexed once) after the lists before it', async () => {
    const p = testPipeline({ apiUrl: emulator.url, cacheDir: cacheA.dir });
    const library = await get<Kit['media']>('images?limit=20');
    expect(library.length).toBeGreaterThanOrEqual(16);
    const late = library.findLast((m) => m.sizes?.large)!;
    expect(library.indexOf(late)).toBeGreaterThan(0);
    const html = `<img src="${late.sizes!.large!.url}"><img src="${library[0]!.sizes!.large!.url}">`;
    // The same library array twice: the second page is answered from the index made for the first.
    for (const page of ['/1-release', '/2-release']) {
      const rewrite = await p.inlineImages(html, [[library[0]!], library], { page });
      expect(rewrite(late.sizes!.large!.url)).toMatchObject({ width: Number(late.sizes!.large!.width) });
      expect(rewrite(library[0]!.sizes!.large!.url)?.src).toMatch(/^\/_media\//);
    }
  });
});
