/** sharp's process-wide settings for the pipeline, applied once. */
import sharp from 'sharp';

let configured = false;

export function configureSharp(): void {
  if (configured) return;
  configured = true;
  // No libvips operation cache: every image is seen once per build, the cache only holds memory.
  sharp.cache(false);
  // One libvips thread per pipeline; the pipeline runs one sharp job per core instead.
  sharp.concurrency(1);
}
