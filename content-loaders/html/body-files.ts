/**
 * Release bodies kept out of Astro's data store. Astro holds the whole store
 * in memory several times over during a build (the store, its serialisation,
 * the parsed entries of every page's render), and bodies are most of it: at
 * 10,000 releases 23 MB of 59. With `bodyDir` set, each sanitised body is a
 * file named by its SHA-256 in that folder and the entry holds the file's
 * path; pages read the body when they render it (`readBody`).
 *
 * The file is written only when it is not there yet (same bytes, same name),
 * through a temp file and a rename, so a reader never sees half a body and
 * builds sharing the folder never clash. Every body a build stores (or reuses,
 * as a process that keeps entries between loads does) is noted; `prune`
 * removes the files no build has used for a while.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pruneUnused, type PruneResult } from '../cache-pruning.ts';

/** A release body in an entry: the HTML itself, or (with `bodyDir`) the file that holds it. */
export type StoredBody = { html: string } | { file: string };

export interface BodyFiles {
  readonly dir: string;
  /** The body as its file in `dir` (written unless it is there already); an empty body stays inline. */
  store(html: string): Promise<StoredBody>;
  /**
   * A body file an earlier load stored, used as it is (its entry was kept, not made again): noted as
   * used by this build like a stored one. False when the file is gone: the body must be stored again.
   */
  reuse(file: string): Promise<boolean>;
  /** Once every page is rendered: removes body files no build has used for `maxAgeMs`. */
  prune(maxAgeMs: number): Promise<PruneResult>;
  /**
   * After a failed build: removes the body files this build wrote itself (the ones it found were
   * there before it), so a build that fails again and again does not fill the disk.
   */
  discardWritten(): Promise<PruneResult>;
}

export function createBodyFiles(folder: string): BodyFiles {
  const dir = path.resolve(folder);
  /** Every body file this build stored, each written (or found) once. */
  const stored = new Map<string, Promise<void>>();
  /** The files among them this build wrote, with their sizes. */
  const written = new Map<string, number>();
  let ready: Promise<unknown> | undefined;

  const ensure = async (file: string, html: string) => {
    const exists = await access(file).then(
      () => true,
      () => false,
    );
    if (exists) return;
    ready ??= mkdir(dir, { recursive: true });
    await ready;
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, html, 'utf8');
      await rename(temp, file);
      written.set(file, Buffer.byteLength(html, 'utf8'));
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new Error(
        `release body: could not write ${file} (${(error as Error).message}); check that bodyDir is writable and the disk has room`,
        {
          cause: error,
        },
      );
    }
  };

  return {
    dir,
    async store(html) {
      if (html === '') return { html };
      const file = path.join(dir, `${createHash('sha256').update(html, 'utf8').digest('hex')}.html`);
      let done = stored.get(file);
      if (!done) {
        done = ensure(file, html);
        stored.set(file, done);
        done.catch(() => stored.delete(file));
      }
      await done;
      return { file };
    },
    async reuse(file) {
      const pending = stored.get(file);
      if (pending)
        return pending.then(
          () => true,
          () => false,
        );
      const there = await access(file).then(
        () => true,
        () => false,
      );
      if (there && !stored.has(file)) stored.set(file, Promise.resolve());
      return there;
    },
    prune: (maxAgeMs) => pruneUnused([dir], new Set(stored.keys()), maxAgeMs),
    async discardWritten() {
      const result = { files: 0, bytes: 0 };
      for (const [file, bytes] of written) {
        await rm(file, { force: true });
        result.files++;
        result.bytes += bytes;
      }
      written.clear();
      return result;
    },
  };
}

/** The HTML of a stored body: inline, or read from its file. */
export async function readBody(body: StoredBody): Promise<string> {
  if ('html' in body) return body.html;
  try {
    // Synchronous: a local file of a few kB, where the promise API's round trips through libuv's
    // threads cost more than the read (every release page asks for its body).
    return readFileSync(body.file, 'utf8');
  } catch (error) {
    throw new Error(
      `release body ${body.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ` +
        'the bodyDir folder must stay while the site renders: build again',
      { cause: error },
    );
  }
}
