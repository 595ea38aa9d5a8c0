/**
 * IndexNow's proof of ownership: with PRESSROOM_INDEXNOW_KEY set, the site serves
 * the key as `/<key>.txt` (under the site's path), a UTF-8 file holding the key
 * alone, so a search engine that receives a submission (notify/indexnow.ts) can
 * check it came from whoever controls the site.
 */
import { writeFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import type { PressroomConfig } from '../config/environment.ts';

/** The key file's name in the site: `<key>.txt`. */
export const indexNowKeyFile = (key: string): string => `${key}.txt`;

/** `config`: the build's configuration, parsed once (astro.config.mjs). */
export default function indexNowKey({ config }: { config: PressroomConfig }): AstroIntegration {
  return {
    name: 'pressroom-static:indexnow-key',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const key = config.indexNowKey;
        if (!key) return;
        const file = indexNowKeyFile(key);
        // A key such as `llms-full` would replace a file of the site: refused, never overwritten.
        await writeFile(new URL(file, dir), key, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
          throw new Error(`PRESSROOM_INDEXNOW_KEY names a file the site already has (${file}); choose another key (e.g. from uuidgen)`);
        });
      },
    },
  };
}
