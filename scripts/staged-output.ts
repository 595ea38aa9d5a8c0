/**
 * Output written beside its final place and swapped in only when complete, so
 * a run that cannot finish leaves the previous output exactly as it was; and
 * never over a folder this tool did not write (`--out .` or `--out ~` must not
 * delete a project or a home folder).
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Throws unless `out` may be replaced: it does not exist, is an empty folder, or holds every
 * path of `signature` (what an earlier run wrote there, e.g. `index.html` and `_astro`).
 */
export async function assertReplaceable(out: string, signature: readonly string[]): Promise<void> {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new Error(`${out} is a file, not a folder; choose a new or empty folder for --out`);
  if ((await readdir(out)).length === 0) return;
  const missing = signature.filter((name) => !existsSync(path.join(out, name)));
  if (missing.length > 0) {
    throw new Error(`${out} already holds files this tool did not write (no ${missing.join(', ')}), and it would be replaced whole; choose a new or empty folder for --out`);
  }
}

/** Replaces `out` with the finished `staging` folder; if that fails, the previous output is put back. */
export async function swapIn(staging: string, out: string): Promise<void> {
  const previous = `${out}.previous`;
  await rm(previous, { recursive: true, force: true });
  const hadPrevious = existsSync(out);
  if (hadPrevious) await rename(out, previous);
  try {
    await rename(staging, out);
  } catch (error) {
    if (hadPrevious) await rename(previous, out).catch(() => undefined);
    throw error;
  }
  await rm(previous, { recursive: true, force: true });
}
