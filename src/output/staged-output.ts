/**
 * Output written away from its final place and swapped in only when complete,
 * so a run that cannot finish leaves the previous output exactly as it was;
 * and never over a folder this tool did not write (`--out .` or `--out ~`
 * must not delete a project or a home folder).
 *
 * Each run stages in its own folder under `<project>/.building/` (Astro
 * imports its prerender chunks from the output folder, so that folder must be
 * inside the project to resolve `node_modules`). Publishing moves the staged
 * folder beside the output (`<out>.incoming-<id>`: a rename, or a copy when
 * the output is on another file system), then swaps it in with two renames
 * on the output's own file system; the previous output is kept until the new
 * one is in place. Leftovers of a run that was killed are cleared (or, for a
 * swap cut between its two renames, the previous output is put back) by the
 * next run, which holds the same locks (build-lock.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
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
    throw new Error(
      `${out} already holds files this tool did not write (no ${missing.join(', ')}), and it would be replaced whole; choose a new or empty folder for --out`,
    );
  }
}

/** A unique id for one run's staging and swap names. */
export const runId = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

/** The project's staging area; only a run holding the project lock may touch it. */
export const stagingArea = (root: string): string => path.join(root, '.building');

/** A fresh staging folder for this run; leftovers of earlier runs are removed first (the caller holds the project lock). */
export async function createStaging(root: string, id: string): Promise<string> {
  const area = stagingArea(root);
  for (const name of await readdir(area).catch(() => [] as string[])) await removeFolder(path.join(area, name));
  const staging = path.join(area, id);
  await mkdir(staging, { recursive: true });
  return staging;
}

const INCOMING = '.incoming-';
const PREVIOUS = '.previous-';
/** A previous output a swap keeps beside `base` until the new one is in place. */
const isPreviousOf = (name: string, base: string): boolean => name.startsWith(`${base}${PREVIOUS}`) || name === `${base}.previous`;
/** A copy on its way in beside `base`. */
const isIncomingOf = (name: string, base: string): boolean => name.startsWith(`${base}${INCOMING}`) || name === `${base}.building`;

/** Whether `name`, in the output's parent folder, is a folder a run keeps beside the output named `base`. */
export const isBesideOutput = (name: string, base: string): boolean => isPreviousOf(name, base) || isIncomingOf(name, base);

/**
 * Clears what killed runs left beside `out` (the caller holds the output lock): half-moved
 * copies, and previous outputs. A previous output with no output (a swap cut between its two
 * renames) is put back rather than removed.
 */
export async function sweepBeside(out: string): Promise<string[]> {
  const dir = path.dirname(out);
  const base = path.basename(out);
  const names = await readdir(dir).catch(() => [] as string[]);
  const notes: string[] = [];
  const previous = names.filter((n) => isPreviousOf(n, base));
  if (!existsSync(out) && previous.length > 0) {
    await rename(path.join(dir, previous[0]!), out);
    notes.push(`put back ${out} from an interrupted swap`);
    previous.shift();
  }
  for (const name of [...previous, ...names.filter((n) => isIncomingOf(n, base))]) {
    await removeFolder(path.join(dir, name));
    notes.push(`removed ${path.join(dir, name)} left by an interrupted run`);
  }
  return notes;
}

/** Moves the finished `staging` folder into `out`; on any failure the previous output stays (or is put back) and nothing is left beside it. */
export async function publish(staging: string, out: string, id: string): Promise<void> {
  const previous = await swapIn(staging, out, id);
  if (previous) await removeFolder(previous);
}

/**
 * `publish` up to the swap: the previous output is left beside `out` (its folder is returned) for the
 * caller to remove once it has answered whoever waits for the swap (the next run sweeps it otherwise).
 */
export async function swapIn(staging: string, out: string, id: string): Promise<string | undefined> {
  const incoming = `${out}${INCOMING}${id}`;
  const previous = `${out}${PREVIOUS}${id}`;
  await mkdir(path.dirname(out), { recursive: true });
  try {
    await rename(staging, incoming);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Another file system: copy beside the output first, so the swap itself is two renames.
    try {
      await cp(staging, incoming, { recursive: true, errorOnExist: true, force: false });
    } catch (copyError) {
      await removeFolder(incoming);
      throw copyError;
    }
  }
  const hadPrevious = existsSync(out);
  try {
    if (hadPrevious) await rename(out, previous);
    try {
      await rename(incoming, out);
    } catch (error) {
      if (hadPrevious) await rename(previous, out);
      throw error;
    }
  } catch (error) {
    await removeFolder(incoming);
    throw error;
  }
  return hadPrevious ? previous : undefined;
}

/** Removes a folder, retrying while something still finishes writing into it; never throws. Returns the error, if any. */
export async function removeFolder(dir: string): Promise<Error | undefined> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** The same, synchronously (from a signal handler, where nothing async runs any more). */
export function removeFolderNow(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  } catch {
    // the next run removes it
  }
}
