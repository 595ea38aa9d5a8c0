/**
 * Measures encode time per rendition for WebP, AVIF, JPEG and PNG on this
 * machine, from real demo originals (the emulator's), with the pipeline's own
 * encoder settings. Not a test: `node --conditions=source bench/image-formats.ts`.
 * It decided that AVIF is not encoded by default (see docs/images.md).
 */
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startEmulator } from '../emulator/server.ts';
import { ENCODERS } from '../image-pipeline/encode.ts';
import { parseCommandLine } from '../scripts/cli.ts';

sharp.cache(false);
sharp.concurrency(1);

const emulator = await startEmulator({ frozenClock: true, cacheDir: path.join(os.tmpdir(), 'pressroom-static-test-media') });
const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/image-formats.ts',
  summary:
    'Encode time per rendition for WebP, AVIF, JPEG and PNG on this machine, from the demo originals. Run as node --conditions=source bench/image-formats.ts.',
  flags: {},
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);

try {
  const base = `${emulator.url}/v1/pressrooms/${emulator.pressroom.id}`;
  const list = (await (await fetch(`${base}/images?limit=6`)).json()) as {
    data: Array<{ sizes: Record<string, { url: string; width: string; height: string }> }>;
  };
  const originals: Buffer[] = [];
  for (const item of list.data) {
    const url = item.sizes.original?.url;
    if (url) originals.push(Buffer.from(await (await fetch(url)).arrayBuffer()));
  }
  const widths = [0, 1200, 600]; // 0 = the original's own size
  const formats = ['webp', 'avif', 'jpeg', 'png'] as const;
  console.log(
    `${os.availableParallelism()} cores, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, ${originals.length} originals`,
  );
  for (const width of widths) {
    // Decode + resize once; time only the encode.
    const raws = await Promise.all(
      originals.map((o) =>
        (width ? sharp(o).autoOrient().resize(width) : sharp(o).autoOrient()).raw().toBuffer({ resolveWithObject: true }),
      ),
    );
    for (const format of formats) {
      const t = performance.now();
      let bytes = 0;
      for (const { data, info } of raws) {
        const img = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
        const out = await ENCODERS[format](img).toBuffer();
        bytes += out.length;
      }
      const ms = (performance.now() - t) / raws.length;
      const px = raws.reduce((n, r) => n + r.info.width * r.info.height, 0) / raws.length;
      console.log(
        `${format.padEnd(5)} ${width ? `${width}w` : 'original'}: ${ms.toFixed(1)} ms/image, ${(bytes / raws.length / 1024).toFixed(1)} KiB/image, ${(px / 1e6).toFixed(2)} MP (1 thread per encode)`,
      );
    }
  }
} finally {
  await emulator.close();
}
