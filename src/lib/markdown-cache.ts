/**
 * Markdown converted from a release's sanitized HTML, kept between builds in
 * `<PRESSROOM_CACHE_DIR or .cache>/markdown/<code>/`: converting a body (parse5,
 * hast-util-to-mdast, mdast-util-to-markdown) is the largest single cost of a
 * twin, and a rebuild sees the same bodies again. An entry is named by the
 * SHA-256 of everything the conversion reads (the HTML and the site URL); the
 * folder by a digest of the project's code and lockfile, so any change to the
 * converter or its libraries starts an empty folder. Reading an entry gives the
 * same bytes as converting again (test/site/lib/markdown-cache.test.ts).
 *
 * Only builds run by scripts/build.ts configure it (src/integrations/markdown-cache.ts);
 * anywhere else (`astro dev`, tests) every body is converted. A cache that cannot be
 * read or written is a slower build, never a failed one: entries are written beside
 * and renamed into place, and one that cannot be read is converted again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pruneUnused, type PruneResult } from '@pressroom-static/content-loaders';
import { sessionState } from '../config/session.ts';

interface Holder {
  /** This code's folder; unset: no cache. */
  dir?: string;
  /** Entries this build read or wrote (paths), kept when the build prunes. */
  used: Set<string>;
  hits: number;
  misses: number;
  /** Made once per build, when the first entry is written. */
  folder?: Promise<unknown>;
}
declare module '../config/session.ts' {
  interface SessionState {
    markdownCache: Holder;
  }
}

// In the build session: Astro loads the integration and the pages in separate module graphs.
const holder = (): Holder => sessionState('markdownCache', () => ({ used: new Set(), hits: 0, misses: 0 }));

/** This build's folder (or none: convert every time), and a fresh start for the build. */
export function configureMarkdownCache(dir: string | undefined): void {
  Object.assign(holder(), { dir, used: new Set(), hits: 0, misses: 0, folder: undefined });
}

/** Entries read and made since the build started. */
export function markdownCacheStats(): { hits: number; misses: number } {
  const { hits, misses } = holder();
  return { hits, misses };
}

/** The Markdown `convert()` makes from `inputs` (everything it reads), from the cache when an earlier build kept it. */
export async function cachedMarkdown(inputs: readonly string[], convert: () => string): Promise<string> {
  const h = holder();
  if (!h.dir) return convert();
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(`${input.length}:`).update(input);
  const name = `${hash.digest('hex')}.md`;
  const file = path.join(h.dir, name);
  h.used.add(file);
  try {
    // Synchronous: a local file of a few kB, read in microseconds, where the promise API's four
    // round trips through libuv's threads kept the route waiting (10,000 twins a build at L).
    const kept = readFileSync(file, 'utf8');
    h.hits++;
    return kept;
  } catch {
    // Not there (or unreadable): converted and kept below.
  }
  h.misses++;
  const markdown = convert();
  const tmp = path.join(h.dir, `.${name}.${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await (h.folder ??= mkdir(h.dir, { recursive: true }));
    await writeFile(tmp, markdown);
    await rename(tmp, file);
  } catch {
    // A full disk or a read-only cache: the next build converts this body again.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
  return markdown;
}

/**
 * After a build that rendered: the folders of other code go, and this code's folder is pruned like
 * the build's other caches (`pruneUnused`: entries this build used are marked fresh, others go once
 * no build has used them for `unusedMs`, so press rooms sharing the folder keep theirs). Best effort.
 */
export async function pruneMarkdownCache(unusedMs: number): Promise<PruneResult | undefined> {
  const { dir, used } = holder();
  if (!dir) return undefined;
  const parent = path.dirname(dir);
  for (const other of await readdir(parent).catch(() => [] as string[])) {
    if (other !== path.basename(dir)) await rm(path.join(parent, other), { recursive: true, force: true }).catch(() => undefined);
  }
  return pruneUnused([dir], used, unusedMs);
}
