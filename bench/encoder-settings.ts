/**
 * Chooses the encoder settings by measurement (not a test): `node bench/encoder-settings.ts`.
 * For demo originals at the pipeline's usual widths, each candidate setting's CPU time per
 * encode, bytes, and SSIM against the unencoded pixels and against the ENCODER_VERSION 1
 * encode (bench/image-quality.ts; the threshold is SSIM_THRESHOLD). docs/performance.md
 * records the run that set ENCODER_SETTINGS.
 */
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { startEmulator } from '../emulator/server.ts';
import { ENCODER_SETTINGS } from '../image-pipeline/encode.ts';
import { parseCommandLine } from '../scripts/cli.ts';
import { REFERENCE_SETTINGS, SSIM_THRESHOLD, ssimOf } from './image-quality.ts';

sharp.cache(false);
sharp.concurrency(1);

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node bench/encoder-settings.ts',
  summary: 'CPU, bytes and SSIM of candidate WebP and JPEG settings on demo originals, to choose ENCODER_SETTINGS.',
  flags: {},
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);

type Candidate = { label: string; format: 'webp' | 'jpeg'; encode: (image: Sharp) => Sharp };
const V1 = REFERENCE_SETTINGS;
const CANDIDATES: Candidate[] = [
  ...[4, 3, 2, 1, 0].map((effort) => ({
    label: `webp effort ${effort}`,
    format: 'webp' as const,
    encode: (i: Sharp) => i.webp({ ...V1.webp, effort }),
  })),
  { label: 'webp now', format: 'webp', encode: (i) => i.webp({ ...ENCODER_SETTINGS.webp }) },
  { label: 'jpeg v1 (progressive, optimised)', format: 'jpeg', encode: (i) => i.jpeg({ ...V1.jpeg }) },
  { label: 'jpeg mozjpeg', format: 'jpeg', encode: (i) => i.jpeg({ quality: 82, mozjpeg: true }) },
  { label: 'jpeg baseline, optimised', format: 'jpeg', encode: (i) => i.jpeg({ ...V1.jpeg, progressive: false }) },
  { label: 'jpeg v1, chroma 4:4:4', format: 'jpeg', encode: (i) => i.jpeg({ ...V1.jpeg, chromaSubsampling: '4:4:4' }) },
  { label: 'jpeg now', format: 'jpeg', encode: (i) => i.jpeg({ ...ENCODER_SETTINGS.jpeg }) },
];

const emulator = await startEmulator({ frozenClock: true, cacheDir: path.join(os.tmpdir(), 'pressroom-static-test-media') });
try {
  const base = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}`;
  const list = (await (await fetch(`${base}/images?limit=12`)).json()) as {
    data: Array<{ transparent?: boolean; sizes: Record<string, { url: string }> }>;
  };
  const originals: Buffer[] = [];
  for (const item of list.data.filter((i) => !i.transparent).slice(0, 8)) {
    const url = item.sizes.original?.url;
    if (url) originals.push(Buffer.from(await (await fetch(url)).arrayBuffer()));
  }
  console.log(
    `${os.availableParallelism()} cores, sharp ${sharp.versions.sharp}, ${originals.length} originals; SSIM threshold ${SSIM_THRESHOLD}`,
  );
  for (const side of [2400, 1200, 600]) {
    const raws = await Promise.all(
      originals.map((o) =>
        sharp(o, { autoOrient: true })
          .resize(side, side, { fit: 'inside', withoutEnlargement: true })
          .raw()
          .toBuffer({ resolveWithObject: true }),
      ),
    );
    const fromRaw = (r: (typeof raws)[number]) =>
      sharp(r.data, { raw: { width: r.info.width, height: r.info.height, channels: r.info.channels } });
    const lossless = await Promise.all(raws.map((r) => fromRaw(r).png({ compressionLevel: 1 }).toBuffer()));
    const v1 = {
      webp: await Promise.all(raws.map((r) => fromRaw(r).webp(V1.webp).toBuffer())),
      jpeg: await Promise.all(raws.map((r) => fromRaw(r).jpeg(V1.jpeg).toBuffer())),
    };
    for (const c of CANDIDATES) {
      let cpuMs = 0;
      let bytes = 0;
      let minRaw = 1;
      let minV1 = 1;
      for (const [i, r] of raws.entries()) {
        const start = process.cpuUsage();
        const out = await c.encode(fromRaw(r)).toBuffer();
        const used = process.cpuUsage(start);
        cpuMs += (used.user + used.system) / 1000;
        bytes += out.length;
        minRaw = Math.min(minRaw, await ssimOf(out, lossless[i]!));
        minV1 = Math.min(minV1, await ssimOf(out, v1[c.format][i]!));
      }
      console.log(
        `${String(side).padStart(4)} px ${c.label.padEnd(34)} ${(cpuMs / raws.length).toFixed(1).padStart(6)} ms CPU, ` +
          `${(bytes / raws.length / 1024).toFixed(1).padStart(6)} KiB, min SSIM vs pixels ${minRaw.toFixed(4)}, vs v1 ${minV1.toFixed(4)}`,
      );
    }
  }
} finally {
  await emulator.close();
}
