/**
 * The search page under `npm run dev`, as a build serves it: the controller
 * script (`_search/`, bundle.ts) from memory, and a Pagefind index of the pages
 * as the dev server renders them (`pagefind/`). The index is made on the first
 * search: every page reachable from the home page is fetched from the dev
 * server itself, written into a temporary folder the way a build writes them,
 * and indexed by the build's own `buildSearchIndex`. It is made once per dev
 * server (restart it to search changed content); the folder goes when the
 * server stops. A dev server killed without stopping (SIGTERM, SIGKILL) cannot remove it, so each
 * folder carries its server's process id, and the next index made removes those of servers gone.
 */
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { PAGEFIND_DIR } from './vocabulary.ts';
import { searchScripts } from './bundle.ts';
import { SEARCH_DIR } from './format.ts';

/** Pages fetched at once from the dev server (it renders each on request). */
const CRAWL_CONCURRENCY = 4;
/** A bound for a press room far larger than a dev server is used with. */
const MAX_PAGES = 20_000;
/** Site paths that are files of the site, never pages to follow. */
const NOT_PAGES = /^(?:_media|_astro|_search|pagefind|@)\/|\.(?:xml|json|txt|ics|vcf|zip|pdf|md|png|jpe?g|webp|avif|gif|ico|svg|css|js)$/i;

/** `pressroom-dev-search-<pid>-<random>`: the pid tells whose folder it is. */
const FOLDER_PREFIX = 'pressroom-dev-search-';
const FOLDER_NAME = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`);

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.css': 'text/css' };

export interface DevSearchOptions {
  /** The site's base path, with its trailing slash (`/`, `/press/`). */
  base: string;
  /** The dev server's own origin, known once it listens. */
  origin: () => string | undefined;
  log: (line: string) => void;
}

export interface DevSearch {
  middleware(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  close(): Promise<void>;
}

/** Every page reachable from `base` on the dev server at `origin`, written into `siteDir` as a build writes it. */
async function crawl(origin: string, base: string, siteDir: string): Promise<number> {
  const seen = new Set<string>([base]);
  const limit = pLimit(CRAWL_CONCURRENCY);
  let pages = 0;
  // A page holds its slot only while it is fetched and written: the pages it links to queue behind it.
  const queued: Array<Promise<void>> = [];
  const visit = async (pathname: string): Promise<void> => {
    const response = await fetch(new URL(pathname, origin), { redirect: 'manual' });
    if (response.status !== 200 || !response.headers.get('content-type')?.includes('text/html')) {
      await response.body?.cancel();
      return;
    }
    const html = await response.text();
    const relative = decodeURIComponent(pathname.slice(base.length));
    const file = path.join(siteDir, relative.endsWith('.html') ? relative : path.join(relative, 'index.html'));
    if (!file.startsWith(siteDir + path.sep)) return;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, html);
    pages++;
    for (const [, href] of html.matchAll(/\shref="([^"#]+)/g)) {
      const url = new URL(href!.replace(/&amp;/g, '&'), new URL(pathname, origin));
      if (url.origin !== origin || !url.pathname.startsWith(base) || NOT_PAGES.test(url.pathname.slice(base.length))) continue;
      if (seen.has(url.pathname) || seen.size >= MAX_PAGES) continue;
      seen.add(url.pathname);
      queued.push(limit(() => visit(url.pathname)));
    }
  };
  queued.push(limit(() => visit(base)));
  for (let done = 0; done < queued.length; done++) await queued[done];
  return pages;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The index folders in `tmp` left by dev servers that no longer run. */
async function removeOrphanedIndexes(tmp: string): Promise<string[]> {
  const names = await readdir(tmp).catch(() => [] as string[]);
  const orphans = names.filter((name) => {
    const pid = Number(FOLDER_NAME.exec(name)?.[1]);
    return pid > 0 && pid !== process.pid && !processAlive(pid);
  });
  await Promise.all(orphans.map((name) => rm(path.join(tmp, name), { recursive: true, force: true })));
  return orphans;
}

export function createDevSearch({ base, origin, log }: DevSearchOptions): DevSearch {
  let work: Promise<string> | undefined;
  let folder: string | undefined;

  const index = (): Promise<string> =>
    (work ??= (async () => {
      const at = origin();
      if (!at) throw new Error('the dev server is not listening yet');
      const started = performance.now();
      await removeOrphanedIndexes(os.tmpdir());
      folder = await mkdtemp(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
      const siteDir = path.join(folder, 'site');
      const pages = await crawl(at, base, siteDir);
      // Imported here: the dev server never loads Pagefind until someone searches.
      const { buildSearchIndex } = await import('../integrations/search.ts');
      const outputPath = path.join(folder, PAGEFIND_DIR);
      const report = await buildSearchIndex(siteDir, { outputPath });
      log(
        `search (dev): ${report.pages} of ${pages} pages indexed, read from this dev server in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      return outputPath;
    })().catch((error: unknown) => {
      work = undefined;
      throw error;
    }));

  const send = (res: ServerResponse, file: string) => {
    res.setHeader('content-type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    res.setHeader('cache-control', 'no-cache');
    createReadStream(file).pipe(res);
  };

  return {
    middleware(req, res, next) {
      const pathname = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
      if (!pathname.startsWith(base)) return next();
      const inSite = pathname.slice(base.length);
      if (inSite.startsWith(`${SEARCH_DIR}/`)) {
        void searchScripts().then(({ controller, engine }) => {
          const script = [controller, engine].find((s) => inSite === `${SEARCH_DIR}/${s.name}`);
          if (!script) return next();
          res.setHeader('content-type', TYPES['.js']!);
          res.end(script.code);
        }, next);
        return;
      }
      if (!inSite.startsWith(`${PAGEFIND_DIR}/`)) return next();
      void index().then(
        async (dir) => {
          const file = path.join(dir, inSite.slice(PAGEFIND_DIR.length + 1));
          if (!file.startsWith(dir + path.sep) || !(await stat(file).catch(() => undefined))?.isFile()) return next();
          send(res, file);
        },
        (error: unknown) => {
          log(`search (dev): no index (${(error as Error).message})`);
          res.statusCode = 503;
          res.end();
        },
      );
    },
    async close() {
      if (folder) await rm(folder, { recursive: true, force: true });
    },
  };
}
