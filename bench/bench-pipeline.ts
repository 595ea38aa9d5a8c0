/**
 * The image pipeline as a build makes it, for the image benchmarks: the emulator as the API, and
 * downloads sharing one limiter of PRESSROOM_CONCURRENCY's default, as a build's loaders and
 * pipeline share theirs.
 */
import pLimit from 'p-limit';
import { createImagePipeline, type ImagePipeline, type ImagePipelineOptions } from '../image-pipeline/index.ts';

const downloads = pLimit(8);

export function benchPipeline(apiUrl: string, cacheDir: string, extra: Partial<ImagePipelineOptions> = {}): ImagePipeline {
  return createImagePipeline({
    fetch: (u, i) => fetch(u, i),
    limit: (fn) => downloads(fn),
    apiUrl,
    cacheDir,
    log: { warn: (l) => console.warn(l) },
    ...extra,
  });
}
