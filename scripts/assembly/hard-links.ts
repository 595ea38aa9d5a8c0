/**
 * A site assembled from another's files without copying them: hard links (a copy only where the two
 * folders are on different file systems). The previous site is never written to: the new one shares
 * its inodes.
 */
import { constants as fsConstants, copyFileSync, linkSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { onThread } from '../on-thread.ts';

/**
 * Hard-links each of `files` of `from` into `to`, but those `to` already has (this build wrote
 * them); a copy where the two are on different file systems. At L a partial build links ~120,000
 * files: one after another with synchronous calls, each folder made once, that takes 1.6–3.7 s,
 * against 3.7–8.0 s through the thread pool 16 at a time (the calls are the kernel's work either way;
 * the promises were the rest).
 */
export function linkInto(fromDir: string, toDir: string, files: Iterable<string>): void {
  // Joined as strings below (path.join per file was a share of the time): no trailing separator.
  const [from, to] = [path.resolve(fromDir), path.resolve(toDir)];
  /** Folders under (and with) `to` known to exist. */
  const folders = new Set<string>();
  const makeFolder = (folder: string): void => {
    if (folders.has(folder)) return;
    // A folder whose parent is made is one mkdir; a recursive one costs twice that (at L: 40,000 folders).
    if (!folders.has(path.dirname(folder))) mkdirSync(folder, { recursive: true });
    else
      try {
        mkdirSync(folder);
      } catch (error) {
        // The build may have written into it already.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    for (let made = folder; made.length >= to.length && !folders.has(made); made = path.dirname(made)) folders.add(made);
  };
  for (const file of files) {
    const target = `${to}/${file}`;
    makeFolder(path.dirname(target));
    try {
      linkSync(`${from}/${file}`, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EXDEV') throw error;
      try {
        copyFileSync(`${from}/${file}`, target, fsConstants.COPYFILE_EXCL);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code !== 'EEXIST') throw copyError;
      }
    }
  }
}

/** What the linking thread is given. */
export interface LinkJob {
  from: string;
  to: string;
  files: string[];
}

/**
 * `linkInto` on a thread of its own: its 120,000 system calls at L (2–3 s) then run while this
 * thread renders (a warm change's pages are written beside them: a folder made by either is fine
 * to the other, and a file this build wrote is left as it is). Rejects with the first error.
 */
export async function linkIntoInBackground(fromDir: string, toDir: string, files: Iterable<string>): Promise<void> {
  const job: LinkJob = { from: fromDir, to: toDir, files: [...files] };
  await onThread(new URL('./link-thread.ts', import.meta.url), job, `linking the kept files into ${toDir}`);
}
