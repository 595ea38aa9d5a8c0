/**
 * An original that is a file of the project rather than a download: the
 * site's own logo (the `theme.logo` option). Only files the site named are
 * read (`localOriginals`), never a `file:` URL from the API. The bytes are
 * copied as a download's would be (hashed, capped, ends kept for sniffing), so
 * they are inspected and derived like any other picture.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { streamBodyToFile } from './download-body.ts';
import { createDownloadGuard } from './download-guard.ts';
import { RefusedError } from './errors.ts';
import type { DownloadResult } from './download.ts';

export interface LocalCopyOptions {
  maxBytes: number;
  timeoutMs: number;
  stallTimeoutMs: number;
  tmpDir: string;
}

/** The file behind a `file:` URL the site named, copied into the cache's temporary folder. */
export async function copyLocalOriginal(url: string, options: LocalCopyOptions): Promise<DownloadResult> {
  const guard = createDownloadGuard(options.timeoutMs, options.stallTimeoutMs);
  try {
    const body = Readable.toWeb(createReadStream(fileURLToPath(url))) as ReadableStream<Uint8Array>;
    const copied = await streamBodyToFile(body, { tmpDir: options.tmpDir, maxBytes: options.maxBytes, declared: undefined }, guard);
    return { status: 'ok', ...copied, etag: undefined, finalUrl: url };
  } catch (error) {
    if (error instanceof RefusedError) throw error;
    throw new RefusedError('network', `could not read ${fileURLToPath(url)} (${(error as Error).message})`);
  } finally {
    guard.dispose();
  }
}
