/**
 * The site's icons (src/lib/site-icons.ts): `public/` brings the neutral
 * ones; when the press room has a logo, the pages derived icons from it while
 * rendering, and this copies them over the neutral ones once the build is done.
 * A build that rendered no page (a partial build of a change no page shows)
 * does not know the logo: it leaves no icons, and the partial build takes the
 * previous site's (scripts/partial-build.ts links what this build did not write).
 * A warm renderer's change puts them in the same way (scripts/warm/change.ts).
 */
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { cacheFolder } from '../config/cache-folders.ts';
import type { PressroomConfig } from '../config/environment.ts';
import { ICON_FILES, builtSiteIcons, configureSiteIcons } from '../lib/site-icons.ts';

/** `config`: the build's configuration, parsed once (astro.config.mjs). */
export default function siteIcons({ config: pressroomConfig }: { config: PressroomConfig }): AstroIntegration {
  let cacheDir = '';
  return {
    name: 'pressroom-static:site-icons',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = cacheFolder(fileURLToPath(config.root), pressroomConfig, 'site-icons');
        configureSiteIcons(cacheDir);
      },
      'astro:build:start': () => {
        configureSiteIcons(cacheDir);
      },
      'astro:build:done': async ({ dir, logger }) => {
        logger.info(await writeSiteIcons(fileURLToPath(dir)));
      },
    },
  };
}

/**
 * Puts this build's icons into `outDir` as its pages asked for them; the line to log. With
 * `publicDir` the neutral ones are copied from it too (a warm change: nothing copies public/ there);
 * in a build, Astro already did. A file there is removed first, never written into (it may be a hard
 * link to the live site's).
 */
export async function writeSiteIcons(outDir: string, publicDir?: string): Promise<string> {
  const asked = builtSiteIcons();
  if (!asked) {
    for (const file of ICON_FILES) await rm(path.join(outDir, file), { force: true });
    return `icons: no page was rendered, so ${ICON_FILES.join(', ')} are the previous site's`;
  }
  const icons = await asked;
  const from = icons?.dir ?? publicDir;
  if (from)
    for (const file of ICON_FILES) {
      await rm(path.join(outDir, file), { force: true });
      await copyFile(path.join(from, file), path.join(outDir, file));
    }
  return icons
    ? `icons: ${ICON_FILES.join(', ')} from the press room's logo (${icons.derived ? 'derived' : 'reused from cache'})`
    : `icons: no usable logo, the neutral ${ICON_FILES.join(', ')} from public/`;
}
