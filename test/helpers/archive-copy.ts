/**
 * The offline archive's site made from the shared demo build, without
 * building again: a copy of the build, made to open from a folder by the very
 * step `npm run archive` runs after its build (search index as script files,
 * relative links).
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openFromFolder, openerPage } from '../../offline-archive/archive.ts';

export interface ArchiveCopy {
  /** The archive's folder: its `index.html` opens `site/`. */
  dir: string;
  /** The archive's `site/` folder. */
  siteDir: string;
  pages: number;
  remove(): Promise<void>;
}

/** `base`: the base path the site was built under (PRESSROOM_SITE_URL's path), as `npm run archive` reads it. */
export async function archiveCopy(builtSite: string, base = '/'): Promise<ArchiveCopy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-archive-'));
  const siteDir = path.join(dir, 'site');
  await cp(builtSite, siteDir, { recursive: true });
  const { pages } = await openFromFolder(siteDir, base);
  await writeFile(path.join(dir, 'index.html'), openerPage());
  return { dir, siteDir, pages, remove: () => rm(dir, { recursive: true, force: true }) };
}
