/**
 * A built site as a list of files with their content hashes: what the change
 * report compares and what the no-change check confirms. Each file also keeps
 * its size and mtime, so a later look can tell a file nobody touched without
 * reading it again (as git's index does): a file whose size or mtime moved is
 * hashed again, so an edit, a truncation, a deleted or an added file is always
 * seen; a file rewritten with the same bytes is still the same file.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { byPath, filesOf } from '../src/lib/site-files.ts';

export interface TreeFile {
  sha256: string;
  size: number;
  mtimeMs: number;
}

/** Site path (`/`-separated, relative to the site folder) → file; sorted by path. */
export type Tree = Map<string, TreeFile>;

/** Compact form for JSON: path → [sha256, size, mtimeMs]. */
export type StoredTree = Record<string, [string, number, number]>;

const READ_WHOLE_BELOW = 8 * 1024 * 1024;
const parallel = pLimit(8);

async function hashFile(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  if (size < READ_WHOLE_BELOW) return hash.update(await readFile(file)).digest('hex');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The tree of `dir` as it is now. Files whose size and mtime equal those in `known` keep the
 * known hash; every other file is read and hashed. `rehashed` counts the files read.
 * Sizes and mtimes come from synchronous stats (0.3 s for 120,424 files against 1.7 s through the
 * thread pool); only the files read go through it.
 */
export async function readTree(dir: string, known?: Tree): Promise<{ tree: Tree; rehashed: number }> {
  const tree: Tree = new Map();
  const toHash: Array<Promise<void>> = [];
  for (const name of await filesOf(dir)) {
    const file = path.join(dir, name);
    const { size, mtimeMs } = statSync(file);
    const was = known?.get(name);
    if (was && was.size === size && was.mtimeMs === mtimeMs) {
      tree.set(name, was);
      continue;
    }
    const entry: TreeFile = { sha256: '', size, mtimeMs };
    tree.set(name, entry);
    toHash.push(parallel(async () => void (entry.sha256 = await hashFile(file, size))));
  }
  await Promise.all(toHash);
  return { tree, rehashed: toHash.length };
}

/** One digest of the tree's paths and contents (mtimes left out). */
export function treeDigest(tree: Tree): string {
  const hash = createHash('sha256');
  for (const [name, file] of tree) hash.update(`${file.sha256} ${name}\n`);
  return hash.digest('hex');
}

/** The first difference in paths or contents between two trees, in words; undefined when they hold the same bytes. */
export function treeDifference(recorded: Tree, now: Tree): string | undefined {
  for (const [name, file] of recorded) {
    const current = now.get(name);
    if (!current) return `${name} is missing`;
    if (current.sha256 !== file.sha256) return `${name} was modified`;
  }
  for (const name of now.keys()) if (!recorded.has(name)) return `${name} was added`;
  return undefined;
}

export function storeTree(tree: Tree): StoredTree {
  const stored: StoredTree = {};
  for (const [name, file] of tree) stored[name] = [file.sha256, file.size, file.mtimeMs];
  return stored;
}

/** The stored form read back; throws on a malformed one. */
export function loadTree(stored: unknown): Tree {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) throw new Error('the file list is not an object');
  const tree: Tree = new Map();
  for (const name of Object.keys(stored).sort(byPath)) {
    const value = (stored as Record<string, unknown>)[name];
    if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'number' || typeof value[2] !== 'number') {
      throw new Error(`the entry of ${name} is malformed`);
    }
    tree.set(name, { sha256: value[0], size: value[1], mtimeMs: value[2] });
  }
  return tree;
}
