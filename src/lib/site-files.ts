/**
 * The files of a built site (or any folder under it) as site paths: what the build's checks, its
 * assembly and the search index walk.
 */
import { readdirSync } from 'node:fs';

/**
 * Every regular file under `dir` (site paths, sorted), but those in its folder `skipFolder`; none
 * when `dir` does not exist.
 *
 * Walked with synchronous calls and paths joined as strings: at L (120,424 files) this takes 0.3–0.5 s
 * against 1.6 s for `readdir({ recursive })` and `path.relative` per file, and a build walks its site
 * several times while nothing else needs the event loop.
 */
export async function filesOf(dir: string, { skipFolder }: { skipFolder?: string } = {}): Promise<string[]> {
  const files: string[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (prefix === '' && entry.name === skipFolder) continue;
        walk(`${folder}/${entry.name}`, `${prefix}${entry.name}/`);
      } else if (entry.isFile()) files.push(`${prefix}${entry.name}`);
    }
  };
  try {
    walk(dir, '');
  } catch (error) {
    const { code, path: missing } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT' && missing === dir) return [];
    throw error;
  }
  // The default order compares UTF-16 code units, as byPath does.
  return files.sort();
}

export const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
