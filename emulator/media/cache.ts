import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Content-addressed files on disk: `<dir>/<key[0..2]>/<key><ext>`. Writes go to
 * a temporary file that is renamed into place, so a reader (in this process or
 * another) sees a whole file or none.
 */
export interface DiskCache {
  read(key: string, ext: string): Promise<Buffer | undefined>;
  write(key: string, ext: string, bytes: Uint8Array): Promise<void>;
}

export function createDiskCache(dir: string): DiskCache {
  const root = path.resolve(dir);
  const madeDirs = new Set<string>();
  const fileOf = (key: string, ext: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`bad cache key ${key}`);
    return path.join(root, key.slice(0, 2), key + ext);
  };
  return {
    async read(key, ext) {
      try {
        return await readFile(fileOf(key, ext));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async write(key, ext, bytes) {
      const file = fileOf(key, ext);
      const folder = path.dirname(file);
      if (!madeDirs.has(folder)) {
        await mkdir(folder, { recursive: true });
        madeDirs.add(folder);
      }
      const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
      try {
        await writeFile(temp, bytes);
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // The folder vanished (cache cleared while running): make it again, once.
        madeDirs.delete(folder);
        await mkdir(folder, { recursive: true });
        madeDirs.add(folder);
        await writeFile(temp, bytes);
        await rename(temp, file);
      }
    },
  };
}

/** One in-flight promise per key: concurrent callers share it; it is forgotten once settled. */
export function createSingleFlight<T>(): (key: string, work: () => Promise<T>) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return (key, work) => {
    const running = inFlight.get(key);
    if (running) return running;
    const promise = Promise.resolve()
      .then(work)
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  };
}
