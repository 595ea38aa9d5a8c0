/**
 * Keeping a build cache from growing forever: a build notes the cache files it
 * used; once every page is rendered they are marked fresh (mtime) and every other file
 * of the cache that no build has used for `maxAgeMs` is removed. Builds that
 * share a cache keep their own files fresh the same way. Best effort: a file
 * that cannot be touched or removed is left as it is.
 */
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

export interface PruneResult {
  files: number;
  bytes: number;
}

export async function pruneUnused(
  folders: readonly string[],
  used: ReadonlySet<string>,
  maxAgeMs: number,
  {
    belongsToUsed = () => false,
    usedAreFresh = false,
  }: {
    /** Also counts as used (and is marked fresh): files that go with a used one. */
    belongsToUsed?: (file: string) => boolean;
    /** The caller marked each used file fresh as it used it: no second touch. */
    usedAreFresh?: boolean;
  } = {},
): Promise<PruneResult> {
  const now = new Date();
  if (!usedAreFresh) for (const file of used) await utimes(file, now, now).catch(() => undefined);
  const result: PruneResult = { files: 0, bytes: 0 };
  for (const folder of folders) {
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      const file = path.join(folder, name);
      if (used.has(file)) continue;
      if (belongsToUsed(file)) {
        await utimes(file, now, now).catch(() => undefined);
        continue;
      }
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || now.getTime() - info.mtimeMs <= maxAgeMs) continue;
      await rm(file, { force: true }).then(
        () => {
          result.files++;
          result.bytes += info.size;
        },
        () => undefined,
      );
    }
  }
  return result;
}
