/**
 * An offline press archive: the press room frozen as a snapshot, the site built
 * from it with no network, made to open from a folder (relative links, explicit
 * `index.html`), and the whole folder packed into one deterministic zip.
 *
 *   <out>/index.html   opens the site
 *   <out>/site/        the press-room site; open site/index.html, no server needed
 *   <out>/snapshot/    every API answer and media original it was built from
 *                      (`PRESSROOM_SNAPSHOT=<out>/snapshot npm run build` rebuilds it)
 *   <out>.zip          the same folder, zipped
 *
 * Written beside `<out>` and swapped in only when complete: a failed run leaves
 * the previous archive as it was.
 */
import { cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'astro';
import { loadConfig } from '../content-loaders/config.ts';
import { readManifest } from '../content-loaders/snapshot/manifest.ts';
import { recordSnapshot } from '../content-loaders/snapshot/record-press-room.ts';
import { createGuardedOpener } from '../image-pipeline/index.ts';
import { zipFiles } from '../image-pipeline/zip.ts';
import { swapIn } from '../scripts/staged-output.ts';
import { relativeLinks } from './relative-links.ts';

export interface ArchiveOptions {
  /** The project (where astro.config.mjs is). */
  root: string;
  out: string;
  /** A recorded snapshot to archive; otherwise one is recorded from the configured API. */
  snapshot?: string | undefined;
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

export async function makeArchive({ root, out, snapshot, env, log }: ArchiveOptions): Promise<ArchiveResult> {
  const staging = `${out}.building`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const snapshotDir = path.join(staging, 'snapshot');
    if (snapshot) {
      await readManifest(snapshot); // a clear error for a folder that is not a snapshot
      await cp(snapshot, snapshotDir, { recursive: true });
      log(`archive: copied the snapshot ${snapshot}`);
    } else {
      const config = loadConfig(env);
      const recorded = await recordSnapshot({
        config,
        out: snapshotDir,
        openMedia: createGuardedOpener({ apiUrl: config.apiUrl!, imageHosts: config.imageHosts }),
        log: (line) => log(`archive: ${line}`),
      });
      if (recorded.mediaFailures.length > 0) {
        throw new Error(`${recorded.mediaFailures.length} media originals could not be downloaded (first: ${recorded.mediaFailures[0]}); an archive must be complete, try again`);
      }
      log(`archive: recorded ${recorded.apiResponses} API answers and ${recorded.mediaFiles} media originals`);
    }

    const siteDir = path.join(staging, 'site');
    await buildFromSnapshot(root, snapshotDir, siteDir, env);
    const pages = await linkForFolder(siteDir);
    await writeFile(path.join(staging, 'index.html'), openerPage());
    await swapIn(staging, out);
    const { files, zip, zipBytes } = await zipFolder(out);
    log(`archive: ${out} (${pages} pages made to open from the folder) and ${zip}`);
    return { pages, files, zip, zipBytes };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The site from the snapshot alone: PRESSROOM_SNAPSHOT set for the build, as a user would. */
async function buildFromSnapshot(root: string, snapshotDir: string, siteDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const before = env.PRESSROOM_SNAPSHOT;
  env.PRESSROOM_SNAPSHOT = snapshotDir;
  try {
    await build({ root, outDir: siteDir });
  } finally {
    if (before === undefined) delete env.PRESSROOM_SNAPSHOT;
    else env.PRESSROOM_SNAPSHOT = before;
  }
}

/** Rewrites every page for opening from a folder; returns how many. */
async function linkForFolder(siteDir: string): Promise<number> {
  const pages = (await readdir(siteDir, { recursive: true })).map((f) => f.split(path.sep).join('/')).filter((f) => f.endsWith('.html'));
  for (const page of pages) {
    const file = path.join(siteDir, page);
    await writeFile(file, relativeLinks(await readFile(file, 'utf8'), page));
  }
  return pages.length;
}

function openerPage(): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Press archive</title><meta http-equiv="refresh" content="0; url=site/index.html"></head>',
    '<body><main><h1>Press archive</h1><p><a href="site/index.html">Open the press room</a> (site/index.html). The recorded API data is in snapshot/.</p></main></body>',
    '</html>',
    '',
  ].join('\n');
}

/** `<out>.zip`: every file of `out` under the folder's own name, in path order. */
async function zipFolder(out: string): Promise<{ files: number; zip: string; zipBytes: number }> {
  const name = path.basename(out);
  const files = (await readdir(out, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(out, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  const zip = `${out}.zip`;
  const temp = `${zip}.building`;
  await zipFiles(temp, files.map((f) => ({ file: path.join(out, f), name: `${name}/${f}` })));
  await rename(temp, zip);
  return { files: files.length, zip, zipBytes: (await stat(zip)).size };
}
