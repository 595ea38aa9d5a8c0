/**
 * Renditions: exactly the declared dimensions (none over MAX_SHOWN_SIDE),
 * square cropped from the centre, nothing upscaled, alpha kept, EXIF
 * orientation applied, one decode per original, a WebP at every width and the
 * JPEG/PNG fallback only for each shape's `src`, bytes deterministic, and a
 * second build of unchanged data downloads nothing and runs no sharp
 * operation. Against the real emulator, plus a tiny server of crafted images.
 */
import { readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { MAX_SHOWN_SIDE, renditionGeometry } from '../../image-pipeline/encode.ts';
import { createOutputs } from '../../image-pipeline/outputs.ts';
import { createRenditions } from '../../image-pipeline/renditions.ts';
import { createStats } from '../../image-pipeline/stats.ts';
import { createStore } from '../../image-pipeline/store.ts';
import type { ImagePipeline, Picture } from '../../image-pipeline/index.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { sizes, tempDir, testPipeline, tinyServer, type TinyServer, type Warned } from './helpers.ts';

type Sizes = Record<string, { width: string | number; height: string | number; url: string }>;
interface Item {
  id: number;
  type: string;
  transparent: boolean;
  sizes: Sizes;
}

/** The cached file behind a published `/_media/<name>` URL. */
function fileOf(pipeline: ImagePipeline, href: string): string {
  const file = pipeline.published().get(href.replace('/_media/', ''));
  if (!file) throw new Error(`${href} is not published`);
  return file;
}

function ok(picture: Picture): Extract<Picture, { ok: true }> {
  if (!picture.ok) throw new Error(`picture refused: ${picture.reason}`);
  return picture;
}

describe('renditions of the demo press room', () => {
  let emulator: RunningEmulator;
  let cache: Awaited<ReturnType<typeof tempDir>>;
  const items: Array<{ label: string; media: { sizes: Sizes; transparent?: boolean } }> = [];

  beforeAll(async () => {
    emulator = await startEmulator({ frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    cache = await tempDir('renditions');
    const base = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}`;
    const get = async <T>(p: string) => ((await (await fetch(`${base}/${p}`)).json()) as { data: T }).data;
    const images = await get<Item[]>('images?limit=100');
    for (const image of images.filter((i) => !i.transparent).slice(0, 3)) items.push({ label: `image ${image.id}`, media: image });
    const transparent = images.find((i) => i.transparent);
    if (transparent) items.push({ label: `transparent image ${transparent.id}`, media: transparent });
    const tags = await get<Array<{ id: number; hero_image: Sizes }>>('tags?limit=1');
    items.push({ label: `tag hero ${tags[0]!.id}`, media: { sizes: tags[0]!.hero_image } });
    const contacts = await get<Array<{ id: number; avatar: Sizes }>>('pr_contacts?limit=1');
    items.push({ label: `avatar ${contacts[0]!.id}`, media: { sizes: contacts[0]!.avatar } });
  });

  afterAll(async () => {
    await emulator?.close();
    await cache?.remove();
  });

  let first: ImagePipeline & Warned;
  let firstPictures: Picture[];

  it('derives every declared rendition at exactly its declared size, none larger than MAX_SHOWN_SIDE', async () => {
    expect(items.length).toBe(6);
    first = testPipeline({ apiUrl: emulator.url, cacheDir: cache.dir });
    firstPictures = await Promise.all(items.map((i) => first.picture(i.media, { page: `/test/${i.label}` })));
    let capped = 0;
    for (const [n, item] of items.entries()) {
      const picture = ok(firstPictures[n]!);
      for (const [name, declared] of Object.entries(item.media.sizes)) {
        const rendition = picture.all.find((r) => r.names.includes(name));
        expect(rendition, `${item.label} ${name}`).toBeDefined();
        const [w, h] = [Number(declared.width), Number(declared.height)];
        let expected = [w, h];
        if (Math.max(w, h) > MAX_SHOWN_SIDE) {
          // Full-size originals are shown no larger than MAX_SHOWN_SIDE, aspect kept.
          capped++;
          expected =
            w >= h ? [MAX_SHOWN_SIDE, Math.round((h * MAX_SHOWN_SIDE) / w)] : [Math.round((w * MAX_SHOWN_SIDE) / h), MAX_SHOWN_SIDE];
        }
        expect([rendition!.width, rendition!.height], `${item.label} ${name}`).toEqual(expected);
        for (const href of Object.values(rendition!.files)) {
          const meta = await sharp(fileOf(first, href)).metadata();
          expect([meta.width, meta.height], `${item.label} ${name} ${href}`).toEqual(expected);
        }
      }
      // Every URL points into the site.
      expect(picture.src).toMatch(/^\/_media\/[0-9a-f]{16}-\d+x\d+\.(jpg|png)$/);
      for (const s of [...picture.sources, picture.fallback])
        for (const part of s.srcset.split(', ')) expect(part).toMatch(/^\/_media\/\S+ \d+w$/);
    }
    expect(capped, 'the demo has originals larger than MAX_SHOWN_SIDE').toBeGreaterThan(0);
    expect(first.stats().refused).toBe(0);
    expect(first.lines).toEqual([]);
  });

  it('decodes each original once, however many renditions it has, and leaves no raster file behind', async () => {
    const s = first.stats();
    expect(s.decodes).toBe(items.length);
    expect(s.encoded).toBeGreaterThan(3 * items.length);
    // The decoded and resized pixels (`.v` files in tmp/) go once an original's outputs are written.
    expect((await readdir(path.join(cache.dir, 'tmp'))).filter((name) => name.endsWith('.v'))).toEqual([]);
  });

  it('encodes a WebP at every width and the JPEG (PNG with alpha) only for each shape’s src', async () => {
    for (const [n, item] of items.entries()) {
      const picture = ok(firstPictures[n]!);
      const transparent = item.label.startsWith('transparent');
      const fallback = transparent ? 'png' : 'jpeg';
      expect(picture.sources.map((s) => s.type)).toEqual(['image/webp']);
      expect(picture.sources[0]!.srcset.split(', ')).toHaveLength(picture.renditions.length);
      for (const r of picture.all) expect(r.files.webp, `${item.label} ${r.width}x${r.height}`).toBeDefined();
      // One fallback per shape (natural, square crop), and it is the src.
      for (const crop of [false, true]) {
        const withFallback = picture.all.filter((r) => r.crop === crop && r.files[fallback]);
        expect(withFallback.length, `${item.label} crop=${crop}`).toBe(picture.all.some((r) => r.crop === crop) ? 1 : 0);
      }
      expect(picture.fallback).toEqual({ type: `image/${fallback}`, srcset: `${picture.src} ${picture.width}w` });
      expect(picture.src.endsWith(transparent ? '.png' : '.jpg')).toBe(true);
      expect(Object.keys(picture.all.find((r) => r.files[fallback] === picture.src)!.files).sort()).toEqual([fallback, 'webp'].sort());
      if (!transparent) continue;
      for (const r of picture.all) {
        for (const href of Object.values(r.files)) {
          const { channels, isOpaque } = await sharp(fileOf(first, href)).stats();
          expect(channels.length, href).toBe(4);
          expect(isOpaque, href).toBe(false);
        }
      }
    }
  });

  it('picks the square crops for avatars and the natural renditions otherwise', () => {
    const avatar = ok(firstPictures[5]!);
    expect(avatar.renditions.every((r) => r.width === r.height && r.crop)).toBe(true);
    const image = ok(firstPictures[0]!);
    expect(image.renditions.some((r) => r.crop)).toBe(false);
  });

  it('a second build of unchanged data downloads nothing and runs no sharp operation', async () => {
    const second = testPipeline({ apiUrl: emulator.url, cacheDir: cache.dir });
    const pictures = await Promise.all(items.map((i) => second.picture(i.media, { page: `/test/${i.label}` })));
    expect(pictures).toEqual(firstPictures);
    const s = second.stats();
    expect(s.downloads).toBe(0);
    expect(s.notModified).toBe(s.originals);
    expect(s.sharpOps).toBe(0);
    expect(s.encoded).toBe(0);
    expect(first.stats().sharpOps).toBeGreaterThan(0);
    expect(first.stats().downloads).toBe(items.length);
  });

  it('takes an original as recorded, with no request, only while its cached bytes are the recorded ones', async () => {
    const recorded = new Map<string, string>();
    for (const outcome of await first.originals()) if ('sha256' in outcome) recorded.set(outcome.url, outcome.sha256);
    const [one, ...rest] = [...recorded.keys()];
    // One original recorded with other bytes than the cache holds: asked again, as without the option.
    recorded.set(one!, '0'.repeat(64));
    const trusting = testPipeline({ apiUrl: emulator.url, cacheDir: cache.dir, trustedOriginals: recorded });
    const pictures = await Promise.all(items.map((i) => trusting.picture(i.media, { page: `/test/${i.label}` })));
    expect(pictures).toEqual(firstPictures);
    const s = trusting.stats();
    // Taken without a request (the others), or asked and answered 304 (that one).
    expect(s.trusted).toBe(rest.length);
    expect(s.notModified).toBe(1);
    expect(s.downloads).toBe(0);
    expect(s.originals).toBe(recorded.size);
  });

  it('writes the same bytes from an empty cache (deterministic output)', async () => {
    const other = await tempDir('renditions-again');
    try {
      const again = testPipeline({ apiUrl: emulator.url, cacheDir: other.dir });
      const picture = ok(await again.picture(items[0]!.media));
      expect(picture).toEqual(firstPictures[0]);
      for (const r of picture.all) {
        for (const href of Object.values(r.files)) {
          expect((await readFile(fileOf(again, href))).equals(await readFile(fileOf(first, href))), href).toBe(true);
        }
      }
    } finally {
      await other.remove();
    }
  });

  it('emits exactly the published files into the media folder', async () => {
    const out = await tempDir('emit');
    try {
      const { files } = await first.emit(path.join(out.dir, '_media'));
      const names = await readdir(path.join(out.dir, '_media'));
      expect(names.sort()).toEqual([...first.published().keys()].sort());
      expect(files).toBe(names.length);
    } finally {
      await out.remove();
    }
  });
});

describe('geometry of crafted images', () => {
  let server: TinyServer;
  let cache: Awaited<ReturnType<typeof tempDir>>;
  const files = new Map<string, Buffer>();

  beforeAll(async () => {
    cache = await tempDir('geometry');
    // 300x100: red | green | blue thirds.
    const third = (r: number, g: number, b: number) => ({
      input: { create: { width: 100, height: 100, channels: 3 as const, background: { r, g, b } } },
    });
    files.set(
      '/thirds.png',
      await sharp({ create: { width: 300, height: 100, channels: 3, background: '#000' } })
        .composite([
          { ...third(255, 0, 0), left: 0, top: 0 },
          { ...third(0, 255, 0), left: 100, top: 0 },
          { ...third(0, 0, 255), left: 200, top: 0 },
        ])
        .png()
        .toBuffer(),
    );
    files.set(
      '/small.jpg',
      await sharp({ create: { width: 400, height: 200, channels: 3, background: '#808080' } })
        .jpeg()
        .toBuffer(),
    );
    // Stored 200x100, EXIF orientation 6 (rotate 90° clockwise): shown 100x200.
    files.set(
      '/rotated.jpg',
      await sharp({ create: { width: 200, height: 100, channels: 3, background: '#336699' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer(),
    );
    // 64x64, left half fully transparent.
    const rgba = Buffer.alloc(64 * 64 * 4);
    for (let i = 0; i < 64 * 64; i++) rgba.set(i % 64 < 32 ? [0, 0, 0, 0] : [200, 30, 30, 255], i * 4);
    files.set(
      '/alpha.png',
      await sharp(rgba, { raw: { width: 64, height: 64, channels: 4 } })
        .png()
        .toBuffer(),
    );
    server = await tinyServer((req, res) => {
      const body = files.get((req.url ?? '').split('?')[0]!.replace(/^\/moved\//, '/'));
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
    });
  });

  afterAll(async () => {
    await server?.close();
    await cache?.remove();
  });

  const pipeline = () => testPipeline({ apiUrl: server.url, cacheDir: cache.dir });

  it('crops square renditions from the centre', async () => {
    const p = pipeline();
    const picture = ok(
      await p.picture({ sizes: sizes(`${server.url}/thirds.png`, { original: [300, 100], square: [100, 100] }) }, { shape: 'square' }),
    );
    expect(picture.renditions).toHaveLength(1);
    const square = picture.renditions[0]!;
    expect([square.width, square.height, square.crop]).toEqual([100, 100, true]);
    for (const href of Object.values(square.files)) {
      const { channels } = await sharp(fileOf(p, href)).stats();
      const [r, g, b] = channels.map((c) => c.mean);
      expect(r!, href).toBeLessThan(20);
      expect(g!, href).toBeGreaterThan(230);
      expect(b!, href).toBeLessThan(20);
    }
  });

  it('never upscales, keeps the aspect ratio of non-square boxes, and clamps a declared original larger than the bytes', async () => {
    const p = pipeline();
    const picture = ok(
      await p.picture({
        sizes: sizes(`${server.url}/small.jpg`, {
          original: [800, 400],
          large: [1600, 800],
          square: [600, 600],
          banner: [1000, 100],
          medium: [200, 100],
        }),
      }),
    );
    const byName = (name: string) => picture.all.find((r) => r.names.includes(name))!;
    expect([byName('original').width, byName('original').height]).toEqual([400, 200]);
    expect(byName('large')).toBe(byName('original'));
    expect([byName('square').width, byName('square').height, byName('square').crop]).toEqual([200, 200, true]);
    expect([byName('banner').width, byName('banner').height, byName('banner').crop]).toEqual([200, 100, false]);
    expect([byName('medium').width, byName('medium').height]).toEqual([200, 100]);
    for (const r of picture.all) {
      for (const href of Object.values(r.files)) {
        const meta = await sharp(fileOf(p, href)).metadata();
        expect([meta.width, meta.height]).toEqual([r.width, r.height]);
        expect(meta.width).toBeLessThanOrEqual(400);
      }
    }
    // Three geometries (banner and medium are one), one decode of the original.
    expect(picture.all).toHaveLength(3);
    expect(p.stats().decodes).toBe(1);
  });

  it('bounds raw pixels in flight by bytes: a budget smaller than any original makes them one at a time', async () => {
    const media = ['thirds.png', 'small.jpg', 'rotated.jpg'].map((name) => ({
      sizes: sizes(`${server.url}/${name}?budget`, { original: [0, 0], half: [0, 50] }),
    }));
    const run = async (maxRawBytes: number) => {
      const scratch = await tempDir('budget');
      try {
        const p = testPipeline({ apiUrl: server.url, cacheDir: scratch.dir, maxRawBytes });
        for (const picture of await Promise.all(media.map((m) => p.picture(m)))) ok(picture);
        return p.stats();
      } finally {
        await scratch.remove();
      }
    };
    // small.jpg's charge: its 400x200 base and its 100x50 half, 3 bytes a pixel.
    const largest = (400 * 200 + 100 * 50) * 3;
    const tight = await run(1000);
    expect(tight.decodes).toBe(3);
    expect(tight.peakRawBytes).toBe(largest);
    // Whether two originals overlap with room for both depends on timing; the charge never changes.
    const roomy = await run(64 * 1024 * 1024);
    expect(roomy.peakRawBytes).toBeGreaterThanOrEqual(largest);
  });

  it('makes an image shown on many pages once a build: one cache check per output, the same picture', async () => {
    const declared = { original: [400, 200] as [number, number], medium: [200, 100] as [number, number] };
    const media = { sizes: sizes(`${server.url}/small.jpg`, declared) };
    ok(await pipeline().picture(media)); // the cache holds every output now
    const p = pipeline();
    const first = ok(await p.picture(media, { page: '/a/' }));
    const checked = p.stats().reused;
    expect(checked).toBeGreaterThan(0);
    const again = await Promise.all(['/b/', '/c/', '/d/'].map((page) => p.picture(media, { page })));
    for (const picture of again) expect(picture).toBe(first);
    expect(p.stats().reused).toBe(checked);
  });

  it('costs no decode or encode when the same bytes come from another URL (a moved API, signed URLs)', async () => {
    const declared = { original: [400, 200] as [number, number], medium: [200, 100] as [number, number] };
    const before = ok(await pipeline().picture({ sizes: sizes(`${server.url}/small.jpg`, declared) }));
    const p = pipeline();
    const moved = ok(await p.picture({ sizes: sizes(`${server.url}/moved/small.jpg`, declared) }));
    expect(moved).toEqual(before);
    expect(p.stats()).toMatchObject({ downloads: 1, sharpOps: 0, encoded: 0 });
  });

  it('applies the EXIF orientation', async () => {
    const p = pipeline();
    const picture = ok(await p.picture({ sizes: sizes(`${server.url}/rotated.jpg`, { original: [100, 200], medium: [50, 100] }) }));
    expect(picture.all.map((r) => [r.width, r.height])).toEqual([
      [50, 100],
      [100, 200],
    ]);
    const meta = await sharp(fileOf(p, picture.all[1]!.files.jpeg!)).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([100, 200, 1]);
  });

  it('keeps transparent pixels transparent', async () => {
    const p = pipeline();
    const picture = ok(
      await p.picture({ sizes: sizes(`${server.url}/alpha.png`, { original: [64, 64], small: [32, 32] }), transparent: true }),
    );
    expect(picture.alpha).toBe(true);
    for (const r of picture.all) {
      for (const href of Object.values(r.files)) {
        const { data, info } = await sharp(fileOf(p, href)).raw().toBuffer({ resolveWithObject: true });
        expect(info.channels).toBe(4);
        expect(data[3], `${href} left pixel alpha`).toBe(0);
        expect(data[(info.width - 1) * 4 + 3], `${href} right pixel alpha`).toBe(255);
      }
    }
  });
});

describe('the resize chain of a plan', () => {
  const store = createStore(path.join(os.tmpdir(), 'pressroom-images-plan-never-written'));
  const renditions = createRenditions({
    store,
    stats: createStats(),
    outputs: createOutputs(store),
    cpu: (fn) => fn(),
    maxPixels: 64_000_000,
    maxRawBytes: 1 << 30,
    avif: false,
  });
  const src = {
    v: 2,
    url: 'https://media.example/p.jpg',
    sha256: 'ab'.repeat(32),
    bytes: 1,
    format: 'jpeg' as const,
    width: 2800,
    height: 1750,
  };
  const plan = (declared: Array<[string, number, number]>) =>
    renditions.plan(
      { ...src, path: '/nowhere.jpg' },
      declared.map(([name, width, height]) => ({ name, width, height })),
    );
  const size = (g: { width: number; height: number; crop: boolean }) => `${g.width}x${g.height}${g.crop ? 'c' : ''}`;

  it('resizes each rendition from the smallest larger one of the original’s aspect, and names it by that chain', () => {
    const library = plan([
      ['original', 2800, 1750],
      ['large', 1200, 750],
      ['medium', 600, 375],
      ['square', 300, 300],
    ]);
    expect(size(library.base)).toBe('2400x1500');
    expect(Object.fromEntries(library.renditions.map((r) => [r.names[0], r.via.map(size)]))).toEqual({
      original: [],
      large: [],
      medium: ['1200x750'],
      square: ['1200x750', '600x375'],
    });
    // Without `large`, `medium` is resized from the base: other bytes, another name.
    const medium = (p: typeof library) => p.renditions.find((r) => r.names.includes('medium'))!.outputs[0]!.name;
    const direct = plan([
      ['original', 2800, 1750],
      ['medium', 600, 375],
    ]);
    expect(direct.renditions.find((r) => r.names.includes('medium'))!.via).toEqual([]);
    expect(medium(direct)).not.toBe(medium(library));
  });
});

describe('renditionGeometry', () => {
  it.each([
    ['same aspect, smaller', { name: 'large', width: 1200, height: 800 }, 3848, 2565, { width: 1200, height: 800, crop: false }],
    ['rounded aspect', { name: 'medium', width: 600, height: 338 }, 3952, 2223, { width: 600, height: 338, crop: false }],
    ['square crop', { name: 'square', width: 300, height: 300 }, 3848, 2565, { width: 300, height: 300, crop: true }],
    ['*_square crop', { name: 'large_square', width: 500, height: 500 }, 896, 1176, { width: 500, height: 500, crop: true }],
    ['square larger than the source', { name: 'square', width: 600, height: 600 }, 400, 200, { width: 200, height: 200, crop: true }],
    ['larger than the source', { name: 'large', width: 1600, height: 800 }, 400, 200, { width: 400, height: 200, crop: false }],
    ['square source, square box', { name: 'square', width: 300, height: 300 }, 2056, 2056, { width: 300, height: 300, crop: false }],
    ['other aspect, fit inside', { name: 'banner', width: 1000, height: 100 }, 400, 200, { width: 200, height: 100, crop: false }],
    // A box far off the measured aspect is a wrong declaration, not a sliver to make: the measured aspect holds.
    ['absurd box, measured aspect', { name: 'large', width: 99999, height: 1 }, 4000, 3000, { width: 4000, height: 3000, crop: false }],
    ['absurd tall box, measured aspect', { name: 'medium', width: 1, height: 800 }, 4000, 3000, { width: 800, height: 600, crop: false }],
  ])('%s', (_label, declared, w, h, expected) => {
    expect(renditionGeometry(declared, w, h)).toEqual(expected);
  });
});
