/**
 * The site's icons (src/lib/site-icons.ts): `public/` brings the neutral
 * ones; when the press room has a logo, the pages derived icons from it while
 * rendering, and this copies them over the neutral ones once the build is done.
 * A build that rendered no page (a partial build of a change no page shows)
 * does not know the logo: it leaves no icons, and the partial build takes the
 * previous site's (scripts/partial-build.ts links what this build did not write).
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
        const outDir = fileURLToPath(dir);
        const asked = builtSiteIcons();
        if (!asked) {
          for (const file of ICON_FILES) await rm(path.join(outDir, file), { force: true });
          logger.info(`icons: no page was rendered, so ${ICON_FILES.join(', ')} are the previous site's`);
          return;
        }
        const icons = await asked;
        if (!icons) {
          logger.info(`icons: no usable logo, the neutral ${ICON_FILES.join(', ')} from public/`);
          return;
        }
        for (const file of ICON_FILES) await copyFile(path.join(icons.dir, file), path.join(outDir, file));
        logger.info(`icons: ${ICON_FILES.join(', ')} from the press room's logo (${icons.derived ? 'derived' : 'reused from cache'})`);
      },
    },
  };
}
