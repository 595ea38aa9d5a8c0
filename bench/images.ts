/**
 * Image pipeline benchmark (not a test): `node --conditions=source bench/images.ts --scale demo|L|N`.
 *
 * Every `sizes` object of the press room (images, movies, videos, documents, tags, clippings,
 * avatars, logo) goes through `picture()`:
 *   cold   empty cache: downloads, decodes, encodes
 *   warm   same cache, new pipeline (a rebuild with no upstream change): 304s only
 *   ideal  bare sharp on the same originals and the same outputs (decode+resize once per
 *          rendition, one encode per format, one job per core), no downloads, no bookkeeping
 * The emulator runs in its own process (its media rendering is not counted; its originals are
 * cached on disk). Goal: the pipeline's cold throughput ≥ 0.85× bare sharp's on the same work.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { parseCommandLine } from '../scripts/cli.ts';
import { startEmulatorProcess } from './emulator-process.ts';
import { goalLine, throughputGoal } from './goals.ts';
import { profileOrExit } from './profiles.ts';
import { writePart } from './results.ts';
import { mediaOriginalUrls } from '@pressroom-static/content-loaders';
import { ENCODERS, type OutputFormat } from '../image-pipeline/encode.ts';
import { createImagePipeline, type MediaInput } from '../image-pipeline/index.ts';
import { FORMAT_INFO } from '../image-pipeline/sniff.ts';
import { createStore } from '../image-pipeline/store.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/images.ts',
  summary: 'The image pipeline cold and warm against bare sharp on the same inputs, with peak memory.',
  flags: { scale: { type: 'string', value: 'demo|L|N', help: 'size of the emulated press room (default demo)' } },
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);
const TARGET = 0.85;
const emulator = await startEmulatorProcess(profile);
const cacheDir = await mkdtemp(path.join(tmpdir(), 'pressroom-images-bench-'));
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
try {
  const base = `${emulator.url}/v1/pressrooms/${emulator.pressroomId}`;
  const list = async (p: string) => ((await (await fetch(`${base}/${p}`)).json()) as { data: Array<Record<string, unknown>> }).data;
  const media: MediaInput[] = [];
  const add = (sizes: unknown) => {
    if (sizes && typeof sizes === 'object' && Object.keys(sizes).length > 0) media.push({ sizes: sizes as MediaInput['sizes'] });
  };
  for (const p of ['images', 'movies', 'videos', 'documents', 'clippings'])
    for (const item of await list(`${p}?limit=10000`)) add(item.sizes);
  for (const tag of await list('tags?limit=10000')) {
    add(tag.image);
    add(tag.hero_image);
  }
  for (const contact of await list('pr_contacts?limit=10000')) add(contact.avatar);
  const pressroom = ((await (await fetch(base)).json()) as { data?: { logo?: { original_url?: string; width?: number; height?: number } } })
    .data;
  if (pressroom?.logo?.original_url)
    add({ original: { url: pressroom.logo.original_url, width: pressroom.logo.width, height: pressroom.logo.height } });

  const downloads = pLimit(8); // PRESSROOM_CONCURRENCY's default, as the build shares it
  const run = async (label: string) => {
    const pipeline = createImagePipeline({
      fetch: (u, i) => fetch(u, i),
      limit: (fn) => downloads(fn),
      apiUrl: emulator.url,
      cacheDir,
      log: { warn: (l) => console.warn(l) },
    });
    const t = performance.now();
    const pictures = await Promise.all(media.map((m) => pipeline.picture(m)));
    const ms = performance.now() - t;
    const s = pipeline.stats();
    console.log(
      `${label.padEnd(5)} ${Math.round(ms)} ms: ${s.originals} originals, ${s.downloads} downloaded, ${s.notModified} not modified, ` +
        `${s.encoded} files encoded, ${s.reused} reused, ${s.sharpOps} sharp operations, ${s.refused} refused`,
    );
    return { ms, pictures, pipeline };
  };

  console.log(`${media.length} sizes objects, ${availableParallelism()} cores, sharp ${sharp.versions.sharp}`);
  const cold = await run('cold');
  const coldPeak = peak;
  const warm = await run('warm');

  // Ideal: the same outputs with bare sharp, from the originals the cold run downloaded.
  const store = createStore(cacheDir);
  const files = await Promise.all(
    media.map(async (m) => {
      const url = mediaOriginalUrls(m.sizes).values().next().value;
      const record = url ? await store.readRecord(url) : undefined;
      return record && !record.refused ? store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) : undefined;
    }),
  );
  const cpu = pLimit(availableParallelism());
  const jobs: Array<Promise<unknown>> = [];
  const done = new Set<string>();
  const t = performance.now();
  for (const [i, pic] of cold.pictures.entries()) {
    const file = files[i];
    if (!pic.ok || !file) continue;
    for (const r of pic.all) {
      const key = `${file} ${r.width}x${r.height} ${r.crop}`;
      if (done.has(key)) continue;
      done.add(key);
      jobs.push(
        cpu(async () => {
          const { data, info } = await sharp(file, { autoOrient: true })
            .resize(r.width, r.height, { fit: r.crop ? 'cover' : 'fill' })
            .raw()
            .toBuffer({ resolveWithObject: true });
          const raw = { width: info.width, height: info.height, channels: info.channels };
          for (const format of Object.keys(r.files) as OutputFormat[]) await ENCODERS[format](sharp(data, { raw })).toBuffer();
        }),
      );
    }
  }
  await Promise.all(jobs);
  const ideal = performance.now() - t;
  console.log(`ideal ${Math.round(ideal)} ms: bare sharp, same ${done.size} renditions from the same originals`);
  const goal = throughputGoal({
    name: 'images',
    what: 'renditions per second of the pipeline, cold, against bare sharp on the same originals and settings',
    measured: cold.ms,
    reference: ideal,
    against: 'bare sharp',
    target: TARGET,
    peakRssMiB: Math.round(coldPeak / 1024 / 1024),
  });
  const stats = cold.pipeline.stats();
  await writePart(profile.name, {
    bench: 'images',
    goals: [goal],
    details: {
      sizesObjects: media.length,
      renditions: done.size,
      originals: stats.originals,
      filesEncoded: stats.encoded,
      coldMs: Math.round(cold.ms),
      warmMs: Math.round(warm.ms),
      idealMs: Math.round(ideal),
      peakRssMiBOverall: Math.round(peak / 1024 / 1024),
    },
  });
  console.log(`  ${goalLine(goal)}; warm ${Math.round(warm.ms)} ms`);
} finally {
  clearInterval(sampler);
  await emulator.stop();
  await rm(cacheDir, { recursive: true, force: true });
}
