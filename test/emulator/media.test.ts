import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp, { type Sharp } from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { AudioAssetSpec, ImageAssetSpec, PdfAssetSpec } from '../../emulator/model/types.ts';
import { assetReply } from '../../emulator/media/asset-reply.ts';
import { WAV_SAMPLE_RATE } from '../../emulator/media/audio.ts';
import { createAssetRenderer, type RenderedAsset } from '../../emulator/media/render-asset.ts';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pressroom-media-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function imageSpec(overrides: Partial<ImageAssetSpec> = {}): ImageAssetSpec {
  return {
    kind: 'image',
    seed: 7,
    label: 'Acme opens its new plant in Rotterdam',
    format: 'jpeg',
    transparent: false,
    originalWidth: 1200,
    originalHeight: 800,
    width: 600,
    height: 400,
    fit: 'inside',
    ...overrides,
  };
}
const originalOf = (spec: ImageAssetSpec): ImageAssetSpec => ({
  ...spec,
  width: spec.originalWidth,
  height: spec.originalHeight,
});

async function rawPixels(input: Buffer | Sharp): Promise<Buffer> {
  const image = Buffer.isBuffer(input) ? sharp(input) : input;
  return image.removeAlpha().raw().toBuffer();
}
function meanAbsDiff(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('image assets', () => {
  it('renders every rendition at exactly its declared size and format', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    const cases: ImageAssetSpec[] = [
      imageSpec(),
      imageSpec({ width: 1200, height: 800 }),
      imageSpec({ width: 150, height: 150, fit: 'cover' }),
      imageSpec({ width: 333, height: 222 }),
      imageSpec({ originalWidth: 800, originalHeight: 1000, width: 480, height: 600, format: 'png' }),
      imageSpec({ originalWidth: 800, originalHeight: 1000, width: 200, height: 200, fit: 'cover', format: 'png' }),
    ];
    for (const spec of cases) {
      const asset = await renderer.render(spec);
      const meta = await sharp(asset.bytes).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([spec.width, spec.height, spec.format]);
      expect(asset.contentType).toBe(spec.format === 'png' ? 'image/png' : 'image/jpeg');
      expect(asset.etag).toBe(`"${createHash('sha256').update(asset.bytes).digest('base64url')}"`);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      if (spec.format === 'png') expect(meta.hasAlpha).toBe(false);
    }
  });

  it('crops the centre for a square cover rendition of a wide original', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    const spec = imageSpec({ format: 'png', originalWidth: 1200, originalHeight: 600, width: 300, height: 300, fit: 'cover' });
    const original = (await renderer.render(originalOf(spec))).bytes;
    const square = await rawPixels((await renderer.render(spec)).bytes);

    const crop = (left: number) => rawPixels(sharp(original).extract({ left, top: 0, width: 600, height: 600 }).resize(300, 300));
    const centre = meanAbsDiff(square, await crop(300));
    const left = meanAbsDiff(square, await crop(0));
    const right = meanAbsDiff(square, await crop(600));
    expect(centre).toBeLessThan(2);
    // The gradient runs left to right, so an edge crop looks clearly different.
    expect(left).toBeGreaterThan(8);
    expect(right).toBeGreaterThan(8);
  });

  it('keeps a real alpha channel in transparent PNGs', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    for (const spec of [
      imageSpec({ format: 'png', transparent: true, originalWidth: 600, originalHeight: 600, width: 600, height: 600 }),
      imageSpec({ format: 'png', transparent: true, originalWidth: 600, originalHeight: 600, width: 120, height: 120, fit: 'cover' }),
    ]) {
      const { bytes } = await renderer.render(spec);
      const meta = await sharp(bytes).metadata();
      expect(meta.hasAlpha).toBe(true);
      expect(meta.channels).toBe(4);
      const alpha = (await sharp(bytes).stats()).channels[3];
      expect(alpha?.min).toBe(0); // transparent background
      expect(alpha?.max).toBe(255); // opaque shapes
    }
  });

  it('gives identical bytes for the same spec in a fresh renderer and cache, and different ones for another seed', async () => {
    const spec = imageSpec({ width: 400, height: 267 });
    const a = await createAssetRenderer({ cacheDir: await freshDir() }).render(spec);
    const b = await createAssetRenderer({ cacheDir: await freshDir() }).render({ ...spec });
    expect(b.bytes.equals(a.bytes)).toBe(true);
    expect(b.etag).toBe(a.etag);
    const other = await createAssetRenderer({ cacheDir: await freshDir() }).render({ ...spec, seed: 8 });
    expect(other.bytes.equals(a.bytes)).toBe(false);
  });

  it('gives the same bytes in another process', async () => {
    const spec = imageSpec({ format: 'png', width: 240, height: 160 });
    const here = await createAssetRenderer({ cacheDir: await freshDir() }).render(spec);
    const moduleUrl = new URL('../../emulator/media/render-asset.ts', import.meta.url).href;
    const script = `
      import { createHash } from 'node:crypto';
      const { createAssetRenderer } = await import(${JSON.stringify(moduleUrl)});
      const asset = await createAssetRenderer({ cacheDir: process.argv[1] }).render(JSON.parse(process.argv[2]));
      process.stdout.write(createHash('sha256').update(asset.bytes).digest('hex'));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, await freshDir(), JSON.stringify(spec)],
      { timeout: 60_000 },
    );
    expect(stdout).toBe(sha256(here.bytes));
  });

  it('does no sharp work when the cache folder already holds the spec', async () => {
    const cacheDir = await freshDir();
    const spec = imageSpec({ width: 300, height: 200 });
    const first = createAssetRenderer({ cacheDir });
    const rendered = await first.render(spec);
    expect(first.stats.sharpRuns).toBe(2); // the original, then the rendition

    const second = createAssetRenderer({ cacheDir });
    const again = await second.render(spec);
    expect(again.bytes.equals(rendered.bytes)).toBe(true);
    expect(again.etag).toBe(rendered.etag);
    expect(second.stats).toMatchObject({ sharpRuns: 0, generated: 0, diskHits: 1 });

    // Another rendition of the same item reuses the cached original: one resize only.
    await second.render({ ...spec, width: 150, height: 150, fit: 'cover' });
    expect(second.stats.sharpRuns).toBe(1);

    const files = (await readdir(cacheDir, { recursive: true })).filter((name) => /\.(jpg|png)$/.test(name));
    expect(files).toHaveLength(3);
    expect((await readdir(cacheDir, { recursive: true })).some((name) => name.endsWith('.tmp'))).toBe(false);
  });

  it('renders a spec once when it is asked for concurrently', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    const spec = imageSpec({ seed: 99, width: 240, height: 160 });
    const results = await Promise.all(Array.from({ length: 8 }, () => renderer.render({ ...spec })));
    expect(renderer.stats).toMatchObject({ renders: 8, sharpRuns: 2, generated: 2 });
    for (const result of results) expect(result.bytes.equals(results[0]!.bytes)).toBe(true);
  });

  it('never upscales: a rendition larger than the original is clamped to it', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    const asset = await renderer.render(imageSpec({ originalWidth: 400, originalHeight: 300, width: 800, height: 600 }));
    const meta = await sharp(asset.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([400, 300]);
    expect(renderer.stats.clamped).toBe(1);
  });

  it('rejects sizes that are not positive integers', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    await expect(renderer.render(imageSpec({ width: 0 }))).rejects.toThrow(RangeError);
    await expect(renderer.render(imageSpec({ width: 10.5 }))).rejects.toThrow(RangeError);
  });
});

describe('PDF assets', () => {
  const spec: PdfAssetSpec = {
    kind: 'pdf',
    seed: 3,
    title: 'Acme annual report 2024 — “highlights”',
    paragraphs: [
      'Acme had a good year. '.repeat(40),
      'Revenue grew in every region, and the company opened two new plants.\nLine breaks\tand tabs are text too.',
      'Non-Latin text is replaced, never fatal: 日本語 Ελληνικά.',
      ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}. ${'More text to fill the pages. '.repeat(12)}`),
    ],
  };

  it('renders a valid, deterministic PDF with the title', async () => {
    const a = await createAssetRenderer({ cacheDir: await freshDir() }).render(spec);
    const b = await createAssetRenderer({ cacheDir: await freshDir() }).render({ ...spec, paragraphs: [...spec.paragraphs] });
    expect(a.contentType).toBe('application/pdf');
    expect(a.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(a.bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect(b.bytes.equals(a.bytes)).toBe(true);

    const doc = await PDFDocument.load(a.bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe(spec.title);
    expect(doc.getCreationDate()?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(doc.getPageCount()).toBeGreaterThan(1);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
  });
});

describe('audio assets', () => {
  it('renders a valid mono 16-bit PCM WAV of the requested length', async () => {
    const spec: AudioAssetSpec = { kind: 'audio', seed: 11, seconds: 3.5 };
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    const { bytes, contentType } = await renderer.render(spec);
    expect(contentType).toBe('audio/wav');
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(bytes.readUInt32LE(16)).toBe(16);
    expect(bytes.readUInt16LE(20)).toBe(1); // PCM
    expect(bytes.readUInt16LE(22)).toBe(1); // mono
    const sampleRate = bytes.readUInt32LE(24);
    expect(sampleRate).toBe(WAV_SAMPLE_RATE);
    expect(sampleRate).toBeLessThanOrEqual(22050);
    expect(bytes.readUInt32LE(28)).toBe(sampleRate * 2);
    expect(bytes.readUInt16LE(32)).toBe(2);
    expect(bytes.readUInt16LE(34)).toBe(16);
    expect(bytes.toString('ascii', 36, 40)).toBe('data');
    const dataBytes = bytes.readUInt32LE(40);
    expect(dataBytes).toBe(bytes.length - 44);
    expect(dataBytes / (sampleRate * 2)).toBeCloseTo(3.5, 3);

    let peak = 0;
    for (let i = 44; i < bytes.length; i += 2) peak = Math.max(peak, Math.abs(bytes.readInt16LE(i)));
    expect(peak).toBeGreaterThan(3000); // audible, not silence
    expect(peak).toBeLessThan(32767); // and not clipped

    const again = await createAssetRenderer({ cacheDir: await freshDir() }).render({ ...spec });
    expect(again.bytes.equals(bytes)).toBe(true);
  });
});

describe('video assets', () => {
  it('serves the committed mp4 and webm samples', async () => {
    const renderer = createAssetRenderer({ cacheDir: await freshDir() });
    const mp4 = await renderer.render({ kind: 'video', format: 'mp4' });
    expect(mp4.contentType).toBe('video/mp4');
    expect(mp4.bytes.toString('latin1', 4, 8)).toBe('ftyp');
    expect(mp4.bytes.length).toBeLessThan(60_000);
    const webm = await renderer.render({ kind: 'video', format: 'webm' });
    expect(webm.contentType).toBe('video/webm');
    expect(webm.bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(webm.bytes.includes(Buffer.from('webm', 'latin1'))).toBe(true);
    expect(webm.bytes.length).toBeLessThan(60_000);
    expect(renderer.stats.sharpRuns).toBe(0);
  });
});

describe('assetReply', () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
  const asset: RenderedAsset = {
    bytes,
    contentType: 'video/mp4',
    etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
  };

  it('answers 200 with the whole file and caching headers', () => {
    const reply = assetReply(asset, {});
    expect(reply.status).toBe(200);
    expect(reply.body.equals(bytes)).toBe(true);
    expect(reply.headers).toEqual({
      'content-type': 'video/mp4',
      etag: asset.etag,
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
    });
  });

  it('answers 304 with an empty body when If-None-Match holds the ETag', () => {
    for (const header of [asset.etag, `"other", ${asset.etag}`, `W/${asset.etag}`, '*', ` "x",W/${asset.etag} `]) {
      const reply = assetReply(asset, { 'if-none-match': header });
      expect(reply.status, header).toBe(304);
      expect(reply.body.length).toBe(0);
      expect(reply.headers.etag).toBe(asset.etag);
    }
    expect(assetReply(asset, { 'if-none-match': '"something-else"' }).status).toBe(200);
    // A conditional match wins over a Range.
    expect(assetReply(asset, { 'if-none-match': asset.etag, range: 'bytes=0-9' }).status).toBe(304);
  });

  it('answers 206 for one byte range', () => {
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=900-', 900, 999],
      ['bytes=-10', 990, 999],
      ['bytes=990-5000', 990, 999],
      ['bytes=-5000', 0, 999],
    ];
    for (const [range, start, end] of cases) {
      const reply = assetReply(asset, { range });
      expect(reply.status, range).toBe(206);
      expect(reply.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
      expect(reply.body.equals(bytes.subarray(start, end + 1))).toBe(true);
      expect(reply.headers['content-type']).toBe('video/mp4');
      expect(reply.headers.etag).toBe(asset.etag);
    }
    expect(assetReply(asset, { range: 'bytes=0-0', 'if-range': asset.etag }).status).toBe(206);
  });

  it('answers 416 for an unsatisfiable range and 200 for ones it ignores', () => {
    for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0']) {
      const reply = assetReply(asset, { range });
      expect(reply.status, range).toBe(416);
      expect(reply.headers['content-range']).toBe('bytes */1000');
      expect(reply.body.length).toBe(0);
    }
    for (const range of ['bytes=0-1,5-9', 'items=0-5', 'bytes=9-2', 'bytes=abc']) {
      const reply = assetReply(asset, { range });
      expect(reply.status, range).toBe(200);
      expect(reply.body.length).toBe(1000);
    }
    // A stale If-Range: the client gets the whole current file.
    expect(assetReply(asset, { range: 'bytes=0-9', 'if-range': '"old"' }).status).toBe(200);
  });
});
