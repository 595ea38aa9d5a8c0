/** The project's own code files, read as text: for tests that check how the code is laid out. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..', '..');

const NOT_CODE = new Set(['node_modules', 'dist', 'test']);

/** Every `.ts`, `.mjs` and `.astro` file of the project (not tests, dependencies, caches or build output), `/`-separated, sorted. */
export async function codeFiles(folder = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(projectRoot, folder), { withFileTypes: true })) {
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !entry.name.startsWith('.') && !NOT_CODE.has(relative)) files.push(...(await codeFiles(relative)));
    else if (entry.isFile() && /\.(?:ts|mjs|astro)$/.test(entry.name)) files.push(relative);
  }
  return files.sort();
}
