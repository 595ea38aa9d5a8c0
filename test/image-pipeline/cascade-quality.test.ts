/**
 * No visible loss: every output of a fixed sample of originals (a large
 * photo-like JPEG shrunk on load, a portrait with EXIF orientation, a PNG with
 * transparency) is compared by SSIM with the direct path's encode at the same
 * size (bench/image-quality.ts) and must reach SSIM_THRESHOLD (docs/images.md).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSIM_THRESHOLD, referenceEncode, ssimOf } from '../../bench/image-quality.ts';
import type { OutputFormat } from '../../image-pipeline/encode.ts';
import type { Picture } from '../../image-pipeline/index.ts';
import { sizes, tempDir, testPipeline, tinyServer, type TinyServer } from './helpers.ts';

/** A picture with what makes resampling differ: gradients, hard edges, fine lines and grain. */
async function photoLike(width: number, height: number, alpha: boolean): Promise<Sharp> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f2a541"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="${alpha ? 'none' : 'url(#g)'}"/>
      <circle cx="${width * 0.3}" cy="${height * 0.45}" r="${height * 0.3}" fill="#e63946" fill-opacity="0.85"/>
      <rect x="${width * 0.55}" y="${height * 0.2}" width="${width * 0.3}" height="${height * 0.5}" fill="#2a9d8f"/>
      ${Array.from({ length: 40 }, (_, i) => `<line x1="${(i * width) / 40}" y1="0" x2="${width - (i * width) / 40}" y2="${height}" stroke="#fff" stroke-width="${1 + (i % 3)}"/>`).join('')}
      <text x="${width * 0.06}" y="${height * 0.92}" font-size="${height / 12}" font-family="sans-serif" fill="#111">Press room 2026</text>
    </svg>`,
  );
  const grain = await sharp({
    create: {
      width: Math.ceil(width / 2),
      height: Math.ceil(height / 2),
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .resize(width, height, { fit: 'fill' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const base = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: alpha ? 0 : 1 } } });
  const layers = [{ input: svg }];
  if (!alpha) layers.push({ input: grain, blend: 'soft-light' } as never);
  return sharp(await base.composite(layers).png().toBuffer());
}

const LIBRARY = (w: number, h: number): Record<string, [number, number]> => {
  const fit = (box: number) => {
    const k = Math.min(1, box / w, box / h);
    return [Math.round(w * k), Math.round(h * k)] as [number, number];
  };
  return { original: [w, h], large: fit(1200), medium: fit(600), square: [300, 300] };
};

describe('cascade quality against the direct path', () => {
  let server: TinyServer;
  let cache: Awaited<ReturnType<typeof tempDir>>;
  const originals = new Map<string, string>();
  const sample: Array<{ label: string; url: string; declared: Record<string, [number, number]>; transparent?: boolean }> = [];

  beforeAll(async () => {
    cache = await tempDir('cascade-quality');
    const files: Array<[string, Buffer]> = [
      ['/photo.jpg', await (await photoLike(2800, 1750, false)).jpeg({ quality: 92 }).toBuffer()],
      // Stored 1500x1000 with EXIF orientation 6: shown 1000x1500.
      ['/portrait.jpg', await (await photoLike(1500, 1000, false)).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer()],
      ['/cutout.png', await (await photoLike(900, 600, true)).png().toBuffer()],
    ];
    for (const [name, bytes] of files) {
      const file = path.join(cache.dir, name.slice(1));
      await writeFile(file, bytes);
      originals.set(name, file);
    }
    server = await tinyServer((req, res) => {
      const file = files.find(([name]) => name === (req.url ?? '').split('?')[0]);
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file[1].length }).end(file[1]);
    });
    sample.push(
      { label: 'photo', url: `${server.url}/photo.jpg`, declared: LIBRARY(2800, 1750) },
      { label: 'portrait', url: `${server.url}/portrait.jpg`, declared: LIBRARY(1000, 1500) },
      { label: 'cutout', url: `${server.url}/cutout.png`, declared: LIBRARY(900, 600), transparent: true },
    );
  });

  afterAll(async () => {
    await server?.close();
    await cache?.remove();
  });

  it(`keeps every output within SSIM ${SSIM_THRESHOLD} of the same-size direct encode`, async () => {
    const pipeline = testPipeline({ apiUrl: server.url, cacheDir: path.join(cache.dir, 'images') });
    const scores: string[] = [];
    let outputs = 0;
    for (const item of sample) {
      const picture: Picture = await pipeline.picture({ sizes: sizes(item.url, item.declared), transparent: item.transparent });
      if (!picture.ok) throw new Error(`${item.label}: ${picture.reason}`);
      const original = originals.get(new URL(item.url).pathname)!;
      for (const r of picture.all) {
        for (const [format, href] of Object.entries(r.files) as Array<[Exclude<OutputFormat, 'avif'>, string]>) {
          const file = pipeline.published().get(href.replace('/_media/', ''))!;
          const score = await ssimOf(file, await referenceEncode(original, r, format));
          scores.push(`${item.label} ${r.width}x${r.height}${r.crop ? ' crop' : ''} ${format}: ${score.toFixed(4)}`);
          expect(score, scores.at(-1)).toBeGreaterThanOrEqual(SSIM_THRESHOLD);
          outputs++;
        }
      }
    }
    console.info(scores.join('\n'));
    // A WebP per rendition (the cutout's original and large are one), a fallback per shape.
    expect(outputs).toBe(4 + 4 + 3 + 3 * 2);
    expect(pipeline.stats().decodes).toBe(3);
  });
});
