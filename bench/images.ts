/**
 * Image pipeline benchmark (not a test): `node --conditions=source bench/images.ts --scale demo|L|N`.
 *
 * Every `sizes` object of the press room (images, movies, videos, documents, tags, clippings,
 * avatars, logo) goes through `picture()`:
 *   cold   empty cache: downloads, decodes, encodes
 *   warm   same cache, new pipeline (a rebuild with no upstream change): 304s only
 *   naive  bare sharp on the same originals, one rendition at a time the obvious way (the
 *          pipeline of ENCODER_VERSION 1): a decode and resize per rendition, a WebP and a JPEG
 *          (PNG with alpha) at every width with version 1's settings, one job per core, no
 *          downloads, no bookkeeping
 *   quality every output of the cold run against the direct path's encode at its size, by SSIM
 * `--sample N` keeps one original in N (by a hash of its URL, `sample.ts`) for all three: a figure at L
 * in a fraction of its hours, reported as a sample in the output, the goal and the results file.
 * The emulator runs in its own process (its media rendering is not counted; its originals are
 * cached on disk). Goal: the CPU time (user + system, every thread of this process) of the cold
 * run ≤ 0.5× the naive baseline's; wall time is reported beside it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { EXIT, parseCommandLine } from '../scripts/cli.ts';
import { benchPipeline } from './bench-pipeline.ts';
import { startEmulatorProcess } from './emulator-process.ts';
import { atMostGoal, goalLine } from './goals.ts';
import { REFERENCE_ENCODERS, SSIM_THRESHOLD, referenceEncode, ssimOf } from './image-quality.ts';
import { pressRoomMedia } from './press-room-media.ts';
import { profileOrExit } from './profiles.ts';
import { writePart } from './results.ts';
import { inSample, parseSample } from './sample.ts';
import { mediaOriginalUrls } from '@pressroom-static/content-loaders';
import { WEBP_MAX_SIDE, fallbackFormat, renditionGeometry, type OutputFormat } from '../image-pipeline/encode.ts';
import { declaredOf } from '../image-pipeline/media-input.ts';
import type { MediaInput, Picture } from '../image-pipeline/index.ts';
import { FORMAT_INFO } from '../image-pipeline/sniff.ts';
import { createStore } from '../image-pipeline/store.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/images.ts',
  summary: 'The image pipeline cold and warm against bare sharp on the same inputs, with peak memory.',
  flags: {
    scale: { type: 'string', value: 'demo|L|N', help: 'size of the emulated press room (default demo)' },
    sample: {
      type: 'string',
      value: 'N',
      help: 'only one original in N, chosen by a hash of its URL, for the cold, naive and quality runs alike (default 1: all)',
    },
  },
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);
const sample = parseSample(parsed.values.sample);
if (sample === undefined) {
  console.error(`bench: --sample must be a whole number from 1 to 1000, got '${String(parsed.values.sample)}'`);
  process.exit(EXIT.usage);
}
/** Said wherever a figure of a sampled run is reported. */
const sampled = sample > 1 ? `, 1 original in ${sample}` : '';
const TARGET = 0.5;
/** Every output of the cold run against the direct path's encode at its size (bench/image-quality.ts), two at a time. */
async function checkQuality(
  pictures: Picture[],
  originals: ReadonlyArray<{ file: string } | undefined>,
  published: ReadonlyMap<string, string>,
): Promise<{ outputs: number; lowest: number; below: string[] }> {
  const limit = pLimit(availableParallelism());
  let lowest = 1;
  const below: string[] = [];
  const checks: Array<Promise<void>> = [];
  for (const [i, pic] of pictures.entries()) {
    const original = originals[i];
    if (!pic.ok || !original) continue;
    for (const r of pic.all) {
      for (const [format, href] of Object.entries(r.files) as Array<[OutputFormat, string]>) {
        if (format === 'avif') continue;
        const file = published.get(href.slice(href.lastIndexOf('/') + 1))!;
        checks.push(
          limit(async () => {
            const score = await ssimOf(file, await referenceEncode(original.file, r, format));
            lowest = Math.min(lowest, score);
            if (score < SSIM_THRESHOLD) below.push(`${href} ${score.toFixed(4)}`);
          }),
        );
      }
    }
  }
  await Promise.all(checks);
  return { outputs: checks.length, lowest, below: below.sort() };
}

const originalUrlOf = (m: MediaInput) => mediaOriginalUrls(m.sizes).values().next().value;

/** User + system CPU of every thread of this process (sharp's included) since `start`, in ms. */
const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const emulator = await startEmulatorProcess(profile);
const cacheDir = await mkdtemp(path.join(tmpdir(), 'pressroom-images-bench-'));
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
try {
  const all = await pressRoomMedia(emulator);
  const media = all.filter((m) => {
    const url = originalUrlOf(m);
    return url ? inSample(url, sample) : sample === 1;
  });

  const run = async (label: string) => {
    const pipeline = benchPipeline(emulator.url, cacheDir);
    const t = performance.now();
    const cpuAtStart = process.cpuUsage();
    const pictures = await Promise.all(media.map((m) => pipeline.picture(m)));
    const cpuMs = cpuMsSince(cpuAtStart);
    const ms = performance.now() - t;
    const s = pipeline.stats();
    console.log(
      `${label.padEnd(5)} ${Math.round(ms)} ms (CPU ${Math.round(cpuMs)} ms): ${s.originals} originals, ${s.downloads} downloaded, ${s.notModified} not modified, ` +
        `${s.encoded} files encoded, ${s.reused} reused, ${s.sharpOps} sharp operations, ${s.refused} refused`,
    );
    return { ms, cpuMs, pictures, pipeline };
  };

  console.log(
    `${media.length} sizes objects${sample > 1 ? ` (1 original in ${sample} by URL hash: ${media.length} of ${all.length})` : ''}, ` +
      `${availableParallelism()} cores, sharp ${sharp.versions.sharp}`,
  );
  const cold = await run('cold');
  const coldPeak = peak;
  const warm = await run('warm');

  // Naive: today's outputs the obvious way with bare sharp, from the originals the cold run downloaded.
  const store = createStore(cacheDir);
  const originals = await Promise.all(
    media.map(async (m) => {
      const url = originalUrlOf(m);
      const record = url ? await store.readRecord(url) : undefined;
      if (!record || record.refused || !record.width || !record.height) return undefined;
      return { record, file: store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) };
    }),
  );
  const cpu = pLimit(availableParallelism());
  const jobs: Array<Promise<unknown>> = [];
  const done = new Set<string>();
  const t = performance.now();
  const cpuAtStart = process.cpuUsage();
  for (const [i, m] of media.entries()) {
    const original = originals[i];
    if (!original) continue;
    const { record, file } = original;
    for (const d of declaredOf(m.sizes)) {
      const r = renditionGeometry(d, record.width!, record.height!);
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
          const formats: Array<'webp' | 'jpeg' | 'png'> = [fallbackFormat(!!record.hasAlpha) as 'jpeg' | 'png'];
          if (r.width <= WEBP_MAX_SIDE && r.height <= WEBP_MAX_SIDE) formats.unshift('webp');
          for (const format of formats) await REFERENCE_ENCODERS[format](sharp(data, { raw })).toBuffer();
        }),
      );
    }
  }
  await Promise.all(jobs);
  const naiveCpuMs = cpuMsSince(cpuAtStart);
  const naiveMs = performance.now() - t;
  console.log(
    `naive ${Math.round(naiveMs)} ms (CPU ${Math.round(naiveCpuMs)} ms): bare sharp, the same ${done.size} renditions one at a time, WebP and fallback each${sampled}`,
  );
  const goal = atMostGoal({
    name: 'images',
    what: `CPU time of the pipeline, cold, against bare sharp making every rendition one at a time (a decode each, WebP and JPEG/PNG each)${sampled}`,
    measured: cold.cpuMs,
    reference: naiveCpuMs,
    against: `naive sharp${sample > 1 ? ` (1 original in ${sample})` : ''}`,
    target: TARGET,
    peakRssMiB: Math.round(coldPeak / 1024 / 1024),
  });
  const quality = await checkQuality(cold.pictures, originals, cold.pipeline.published());
  console.log(
    `quality: ${quality.outputs} outputs against the direct path's encode, lowest SSIM ${quality.lowest.toFixed(4)}, ` +
      `${quality.below.length} below ${SSIM_THRESHOLD}${quality.below.length > 0 ? `: ${quality.below.slice(0, 5).join(', ')}` : ''}`,
  );
  const stats = cold.pipeline.stats();
  await writePart(profile.name, {
    bench: 'images',
    goals: [goal],
    details: {
      sample:
        sample > 1 ? { oneIn: sample, by: 'sha256 of the original URL', sizesObjects: media.length, ofSizesObjects: all.length } : null,
      sizesObjects: media.length,
      renditions: done.size,
      originals: stats.originals,
      filesEncoded: stats.encoded,
      coldMs: Math.round(cold.ms),
      coldCpuMs: Math.round(cold.cpuMs),
      warmMs: Math.round(warm.ms),
      naiveMs: Math.round(naiveMs),
      naiveCpuMs: Math.round(naiveCpuMs),
      decodes: stats.decodes,
      ssimThreshold: SSIM_THRESHOLD,
      lowestSsim: Math.round(quality.lowest * 10_000) / 10_000,
      outputsBelowSsimThreshold: quality.below.length,
      peakRssMiBOverall: Math.round(peak / 1024 / 1024),
    },
  });
  console.log(`  ${goalLine(goal)}; warm ${Math.round(warm.ms)} ms`);
} finally {
  clearInterval(sampler);
  await emulator.stop();
  await rm(cacheDir, { recursive: true, force: true });
}
