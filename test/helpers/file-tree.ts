/** A folder's files by relative path, each with the SHA-256 of its bytes: two equal trees are the same site, byte for byte. */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function fileDigests(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return out;
}

/** Writes `files` (relative path → text) into `dir`, folders made as needed; returns `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

/** Each file of a folder by its inode: a file the partial build kept is the previous one, hard-linked. */
export async function inodes(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      found.set(path.relative(dir, file).split(path.sep).join('/'), (await stat(file)).ino);
    }
  return found;
}

/** The files of `dir` that are not the ones `before` names (rewritten or new). */
export async function writtenSince(dir: string, before: Map<string, number>): Promise<Set<string>> {
  const now = await inodes(dir);
  return new Set([...now].filter(([file, ino]) => before.get(file) !== ino).map(([file]) => file));
}
