/**
 * An offline press archive: the press room frozen as a snapshot, the site built
 * from it with no network, made to open from a folder (relative links, explicit
 * `index.html`), and the whole folder packed into one deterministic zip.
 *
 *   <out>/index.html   opens the site
 *   <out>/site/        the press-room site; open site/index.html, no server needed
 *                      (search included: the script-file index under site/_search/)
 *   <out>/snapshot/    every API answer and media original it was built from
 *                      (`PRESSROOM_SNAPSHOT=<out>/snapshot npm run build` rebuilds it)
 *   <out>.zip          the same folder, zipped
 *
 * Written in a staging folder of the project (the zip beside `<out>`) and
 * swapped in only when complete (src/output/staged-output.ts): a failed run
 * leaves the previous archive as it was, and a folder that is not an archive
 * is never replaced. The caller holds the build locks (scripts/build-lock.ts).
 */
import { cp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type AstroIntegration } from 'astro';
import { loadConfig } from '../src/config/environment.ts';
import { publicationInstant } from '../src/config/clock.ts';
import { readManifest } from '@pressroom-static/content-loaders';
import { recordSnapshot } from '@pressroom-static/content-loaders';
import { createGuardedOpener, zipFiles } from '@pressroom-static/image-pipeline';
import { checkSite, plannedOutput } from '../src/output/site-check.ts';
import { assertReplaceable, createStaging, publish, removeFolder, runId, sweepBeside } from '../src/output/staged-output.ts';
import { relativeLinks } from './relative-links.ts';
import { writeSearchIndex, type SearchIndexReport } from '../src/search/index-files.ts';
import { formatBytes } from '@pressroom-static/content-loaders';

export interface ArchiveOptions {
  /** The project (where astro.config.mjs is). */
  root: string;
  out: string;
  /** A recorded snapshot to archive; otherwise one is recorded from the configured API. */
  snapshot?: string | undefined;
  /** The configured API is the bundled demo press room (the archive is marked as a demo). */
  demo?: boolean;
  /** Where to record from instead of the configured API (the demo press room's own address). */
  api?: { apiUrl: string; pressroomId: string } | undefined;
  /** Read for the API settings and given PRESSROOM_SNAPSHOT for the build. */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

export interface ArchiveResult {
  pages: number;
  files: number;
  zip: string;
  zipBytes: number;
}

/** What every archive holds: an existing --out without them is not replaced. */
export const ARCHIVE_SIGNATURE = ['index.html', 'site', path.join('snapshot', 'manifest.json')];

export async function makeArchive({ root, out, snapshot, env, log, demo = false, api }: ArchiveOptions): Promise<ArchiveResult> {
  await assertReplaceable(out, ARCHIVE_SIGNATURE);
  const id = runId();
  for (const note of [...(await sweepBeside(out)), ...(await sweepBeside(`${out}.zip`))]) log(`archive: ${note}`);
  // Inside the project: Astro's prerender chunks resolve node_modules from the output folder.
  const staging = await createStaging(root, id);
  const zip = `${out}.zip`;
  const zipStaging = `${zip}.incoming-${id}`;
  try {
    const snapshotDir = path.join(staging, 'snapshot');
    if (snapshot) {
      await readManifest(snapshot); // a clear error for a folder that is not a snapshot
      await cp(snapshot, snapshotDir, { recursive: true });
      log(`archive: copied the snapshot ${snapshot}`);
    } else {
      const configured = loadConfig(env);
      const config = api ? Object.assign(configured, api) : configured;
      const recorded = await recordSnapshot({
        config,
        now: publicationInstant(env),
        out: snapshotDir,
        openMedia: createGuardedOpener({ apiUrl: config.apiUrl!, imageHosts: config.imageHosts }),
        demo,
        log: (line) => log(`archive: ${line}`),
      });
      if (recorded.mediaFailures.length > 0) {
        throw new Error(
          `${recorded.mediaFailures.length} media originals could not be downloaded (first: ${recorded.mediaFailures[0]}); an archive must be complete, try again`,
        );
      }
      log(`archive: recorded ${recorded.apiResponses} API answers and ${recorded.mediaFiles} media originals`);
    }

    const siteDir = path.join(staging, 'site');
    const planned = plannedOutput();
    await buildFromSnapshot(root, snapshotDir, siteDir, env, planned.integration);
    await checkSite(siteDir, planned.files());
    const { pages, search } = await openFromFolder(siteDir, loadConfig(env).basePath);
    log(
      `archive: search index of ${search.documents} pages (${search.languages.join(', ')}), ${search.files} files, ${formatBytes(search.bytes)}, ${search.ms} ms`,
    );
    await writeFile(path.join(staging, 'index.html'), openerPage());
    const files = await zipFolder(staging, path.basename(out), zipStaging);
    await publish(staging, out, id);
    await rename(zipStaging, zip);
    log(`archive: ${out} (${pages} pages made to open from the folder) and ${zip}`);
    return { pages, files, zip, zipBytes: (await stat(zip)).size };
  } finally {
    await removeFolder(staging);
    await rm(zipStaging, { force: true });
  }
}

/** The site from the snapshot alone: PRESSROOM_SNAPSHOT set for the build, as a user would. */
async function buildFromSnapshot(
  root: string,
  snapshotDir: string,
  siteDir: string,
  env: NodeJS.ProcessEnv,
  check: AstroIntegration,
): Promise<void> {
  const before = env.PRESSROOM_SNAPSHOT;
  env.PRESSROOM_SNAPSHOT = snapshotDir;
  try {
    await build({ root, outDir: siteDir, integrations: [check] });
  } finally {
    if (before === undefined) delete env.PRESSROOM_SNAPSHOT;
    else env.PRESSROOM_SNAPSHOT = before;
  }
}

/**
 * Makes a built site work from a folder: the search index as script files (Pagefind needs a web
 * server), then every page's links made relative. Returns how many pages, and the index's figures.
 */
export async function openFromFolder(siteDir: string, basePath = '/'): Promise<{ pages: number; search: SearchIndexReport }> {
  const search = await writeSearchIndex(siteDir);
  return { pages: await linkForFolder(siteDir, basePath.replace(/\/?$/, '/')), search };
}

/** Rewrites every page for opening from a folder (`siteBase`: the base path its URLs are under); returns how many. */
async function linkForFolder(siteDir: string, siteBase: string): Promise<number> {
  const entries = (await readdir(siteDir, { recursive: true, withFileTypes: true })).map((e) => ({
    sitePath: path.relative(siteDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'),
    folder: e.isDirectory(),
  }));
  const pages = entries.filter((e) => !e.folder && e.sitePath.endsWith('.html')).map((e) => e.sitePath);
  const folders = new Set(entries.filter((e) => e.folder).map((e) => e.sitePath));
  const isFolder = (sitePath: string) => folders.has(sitePath.replace(/\/+$/, ''));
  for (const page of pages) {
    const file = path.join(siteDir, page);
    await writeFile(file, relativeLinks(await readFile(file, 'utf8'), page, isFolder, siteBase));
  }
  return pages.length;
}

/** The archive's own `index.html`, beside `site/`: it opens the press room. */
export function openerPage(): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Press archive</title><meta http-equiv="refresh" content="0; url=site/index.html"></head>',
    '<body><main><h1>Press archive</h1><p><a href="site/index.html">Open the press room</a> (site/index.html). The recorded API data is in snapshot/.</p></main></body>',
    '</html>',
    '',
  ].join('\n');
}

/** Zips every file of `dir` under `name/`, in path order, into `zip`; returns how many. */
async function zipFolder(dir: string, name: string, zip: string): Promise<number> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  await zipFiles(
    zip,
    files.map((f) => ({ file: path.join(dir, f), name: `${name}/${f}` })),
  );
  return files.length;
}
