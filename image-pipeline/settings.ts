/**
 * `ImagePipelineOptions` with every default filled in: byte caps, deadlines,
 * the pixel cap, retries and their backoff, CPU count, public path and log.
 * Each module reads its limits from here, so a default is written down once.
 */
import { availableParallelism } from 'node:os';
import { defaultSleep } from '@pressroom-static/content-loaders';
import type { Backoff, ImagePipelineOptions, Limit, PipelineLog } from './types.ts';

const MiB = 1024 * 1024;

export interface Settings {
  limit: Limit;
  /** sharp pipelines at once. */
  cores: number;
  /** Always ends in `/`. */
  publicPath: string;
  maxImageBytes: number;
  maxFileBytes: number;
  maxPixels: number;
  maxRawBytes: number;
  timeoutMs: number;
  fileTimeoutMs: number;
  stallTimeoutMs: number;
  retries: number;
  backoff: Backoff;
  avif: boolean;
  log: PipelineLog;
}

export function resolveSettings(options: ImagePipelineOptions): Settings {
  const cores = Math.max(1, options.cpus ?? availableParallelism());
  return {
    limit: options.limit ?? ((fn) => fn()),
    cores,
    publicPath: (options.publicPath ?? '/_media/').replace(/\/?$/, '/'),
    maxImageBytes: options.maxImageBytes ?? 50 * MiB,
    maxFileBytes: options.maxFileBytes ?? 1024 * MiB,
    maxPixels: options.maxPixels ?? 64_000_000,
    maxRawBytes: options.maxRawBytes ?? cores * 32 * MiB,
    timeoutMs: options.timeoutMs ?? 60_000,
    fileTimeoutMs: options.fileTimeoutMs ?? 600_000,
    stallTimeoutMs: options.stallTimeoutMs ?? 20_000,
    retries: options.retries ?? 2,
    backoff: {
      baseDelayMs: options.backoff?.baseDelayMs ?? 1000,
      maxDelayMs: options.backoff?.maxDelayMs ?? 10_000,
      retryAfterCapMs: options.backoff?.retryAfterCapMs ?? 30_000,
      random: options.backoff?.random ?? Math.random,
      sleep: options.backoff?.sleep ?? defaultSleep,
    },
    avif: !!options.avif,
    log: options.log ?? { warn: (line: string) => console.warn(line) },
  };
}
