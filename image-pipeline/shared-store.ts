/**
 * The renditions' shared store on a folder (a volume every worker and build
 * mounts): `<dir>/out/<name>`, the layout of the local cache's `out/`, so the
 * same folder can also be a build's image cache. Writes go to `<dir>/tmp/`
 * first and are renamed into place, so no reader ever sees half a file.
 * The S3-compatible store is the project's (scale-out/store.ts); both fail
 * with a SharedStoreError.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { networkMessage } from './errors.ts';
import type { SharedRenditionStore } from './types.ts';

/** The shared store could not be read or written: the build or job stops (it is no refused image). */
export class SharedStoreError extends Error {
  override name = 'SharedStoreError';
}

/** Output names are hashes and sizes (`renditions.ts`): anything else never becomes a path. */
const OUTPUT_NAME = /^[0-9a-f]{16}-\d+x\d+\.[a-z0-9]+$/;

export function assertOutputName(name: string): void {
  if (!OUTPUT_NAME.test(name)) throw new SharedStoreError(`not a rendition name: ${JSON.stringify(name.slice(0, 80))}`);
}

/** `action` with any failure as a SharedStoreError naming the store and what was done. */
export async function storeCall<T>(where: string, what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SharedStoreError) throw error;
    throw new SharedStoreError(`the shared store ${where} failed to ${what}: ${networkMessage(error)}`);
  }
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export function createFolderRenditionStore(dir: string): SharedRenditionStore {
  const out = path.join(dir, 'out');
  const tmp = path.join(dir, 'tmp');
  const where = `file://${dir}`;
  const fileOf = (name: string) => {
    assertOutputName(name);
    return path.join(out, name);
  };
  return {
    where,
    check: () =>
      storeCall(where, 'answer', async () => {
        const info = await stat(dir).catch(() => undefined);
        if (!info?.isDirectory())
          throw new SharedStoreError(`the shared store ${where} is not a folder here: mount the shared volume, or create the folder`);
      }),
    has: (name) =>
      storeCall(where, `look up ${name}`, async () => {
        const info = await stat(fileOf(name)).catch((error: unknown) => {
          if (isMissing(error)) return undefined;
          throw error;
        });
        return info?.isFile() ?? false;
      }),
    get: (name, file) =>
      storeCall(where, `read ${name}`, async () => {
        try {
          await copyFile(fileOf(name), file);
          return true;
        } catch (error) {
          if (isMissing(error)) return false;
          throw error;
        }
      }),
    put: (name, file) =>
      storeCall(where, `write ${name}`, async () => {
        const final = fileOf(name);
        await mkdir(out, { recursive: true });
        await mkdir(tmp, { recursive: true });
        const part = path.join(tmp, `${name}-${process.pid}-${randomBytes(6).toString('hex')}`);
        try {
          await copyFile(file, part);
          await rename(part, final);
        } finally {
          await rm(part, { force: true });
        }
      }),
  };
}
