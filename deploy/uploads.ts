/**
 * A deploy's uploads: site files put in the order of phases.ts, as many at
 * once as asked within a phase, and every request of a phase answered before
 * the next phase starts, so a page never goes live before what it names.
 * Remembers what it put (size, the bucket's ETag, SHA-256) for the manifest.
 * New hashed files change nothing a page names yet; before any other file,
 * `beforeLive` (started with the first run) must have succeeded. The first
 * failure ends it (no upload starts after it); so does `stop()`, once the
 * uploads under way are answered.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import type { Bucket } from './bucket.ts';
import { DeployError, firstLine } from './errors.ts';
import { cacheControlOf, contentTypeOf } from './headers.ts';
import type { ManifestEntry } from './manifest.ts';
import { inPhases, type UploadPhase } from './phases.ts';
import { keyOf, type Target } from './target.ts';

export interface UploadsOptions {
  target: Target;
  bucket: Bucket;
  /** The absolute path of a site file. */
  pathOf: (file: string) => string;
  /** Uploads at once within a phase. */
  concurrency: number;
  log: (line: string) => void;
  /** What must be done before the bucket serves anything new but hashed files (the same promise every call). */
  beforeLive: () => Promise<void>;
}

export class Uploads {
  /** What each uploaded file is in the bucket now. */
  readonly put = new Map<string, ManifestEntry>();
  private planned = 0;
  private stopped = false;
  private failure: unknown;

  private readonly options: UploadsOptions;

  constructor(options: UploadsOptions) {
    this.options = options;
  }

  /** Puts `files` phase by phase; rejects with a one-line DeployError at the first failed upload. One run at a time. */
  async run(files: string[]): Promise<void> {
    this.stopped = false;
    this.planned += files.length;
    const phases = inPhases(files);
    if (phases.length === 0) return;
    const live = this.options.beforeLive();
    live.catch(() => undefined); // awaited before the first phase that needs it
    for (const { phase, files: list } of phases) {
      if (phase !== 'hashed assets') await live;
      if (this.stopped) return;
      const before = this.put.size;
      const limit = pLimit(this.options.concurrency);
      await Promise.all(list.map((file) => limit(() => (this.stopped || this.failure ? undefined : this.upload(file, phase)))));
      if (this.failure) throw this.failure;
      this.options.log(`deploy: uploaded ${this.put.size - before} (${phase})`);
    }
  }

  /** No upload of the run under way starts after this; it ends once its requests are answered. */
  stop(): void {
    this.stopped = true;
  }

  private async upload(file: string, phase: UploadPhase): Promise<void> {
    const { target, bucket, pathOf } = this.options;
    try {
      const body = await readFile(pathOf(file));
      const etag = await bucket.put({
        key: keyOf(target, file),
        body,
        contentType: contentTypeOf(file),
        cacheControl: cacheControlOf(file),
        contentMd5: createHash('md5').update(body).digest('base64'),
      });
      this.put.set(file, [body.length, etag, createHash('sha256').update(body).digest('hex')]);
    } catch (error) {
      this.failure ??= new DeployError(
        `uploading ${file} (${phase}) failed after ${this.put.size} of ${this.planned} uploads: ${firstLine(error)}`,
      );
    }
  }
}
