/**
 * What the dev server must not watch: the folders the build writes itself. Vite walks and watches
 * every file under the project (a cache the size of an L press room's, 360,000 files, kept it from
 * being ready for 27–31 s and held 2.6 GB), and names each `.html` file that changes in its log (each
 * release body the loaders cache, in `.cache/bodies/`); a build beside the dev server writes whole
 * sites into the staging area and the output. None of them is a source of the site.
 */
import path from 'node:path';
import type { PressroomConfig } from '../config/environment.ts';
import { cacheRoot } from '../config/cache-folders.ts';
import { isBesideOutput, stagingArea } from '../output/staged-output.ts';

const inside = (folder: string) => (file: string) => file === folder || file.startsWith(folder + path.sep);

/**
 * A watcher filter (`vite.server.watch.ignored`), true for files in the cache root, the project's
 * staging area, the output folder and the folders a swap leaves beside it (`dist.previous-…`).
 */
export function generatedFiles(root: string, config: Pick<PressroomConfig, 'cacheDir'>, outDir: string): (file: string) => boolean {
  // The loaders' caches are taken from the working directory, the others from the project.
  const caches = [cacheRoot(root, config), cacheRoot(process.cwd(), config)].map(inside);
  const inStaging = inside(stagingArea(root));
  const out = path.resolve(root, outDir);
  return (file) => {
    const resolved = path.resolve(root, file);
    if (caches.some((inCache) => inCache(resolved)) || inStaging(resolved)) return true;
    const [first] = path.relative(path.dirname(out), resolved).split(path.sep);
    return first === path.basename(out) || isBesideOutput(first!, path.basename(out));
  };
}
