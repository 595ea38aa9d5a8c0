/**
 * Files the pipeline makes under the cache's `out/` (renditions, media-kit
 * zips): named by a hash of their inputs, made at most once per build however
 * many pages ask, written through a temporary file so no half-written file
 * ever carries a final name.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Store } from './store.ts';

/** The first 16 hex digits of the SHA-256 of `parts`, one a line: the stem of an output name. */
export const hash16 = (...parts: Array<string | number | boolean>) =>
  createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

export interface Outputs {
  /** Runs `make` once per key in this build and shares its result; a failure is forgotten, so a later call tries again. */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Writes the output `name` with `writeTo(tmp)`, then renames it into place. */
  write(name: string, writeTo: (tmp: string) => Promise<unknown>): Promise<void>;
}

export function createOutputs(store: Store): Outputs {
  const pending = new Map<string, Promise<unknown>>();
  return {
    once<T>(key: string, make: () => Promise<T>): Promise<T> {
      let done = pending.get(key) as Promise<T> | undefined;
      if (!done) {
        done = make();
        pending.set(key, done);
        done.catch(() => pending.delete(key));
      }
      return done;
    },
    async write(name, writeTo) {
      const tmp = await store.tmpPath(name);
      try {
        await writeTo(tmp);
        await store.commit(tmp, store.outPath(name));
      } finally {
        await rm(tmp, { force: true });
      }
    },
  };
}
