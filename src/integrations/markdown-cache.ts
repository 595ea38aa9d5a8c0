/**
 * Keeps the release bodies' Markdown between builds (src/lib/markdown-cache.ts) in
 * `<PRESSROOM_CACHE_DIR or .cache>/markdown/<code>/`, `code` naming the project's code
 * and lockfile as scripts/build.ts hashed them: added by that script only, so no
 * other build reads Markdown that older code converted. Once the build is done: one
 * line of hits and conversions, and the entries no longer used are pruned.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { cacheFolder } from '../config/cache-folders.ts';
import type { PressroomConfig } from '../config/environment.ts';
import { configureMarkdownCache, markdownCacheStats, pruneMarkdownCache } from '../lib/markdown-cache.ts';

/** Entries no build has used for this long are removed (as the HTTP cache's and the bodies'). */
const UNUSED_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** `code`: the digest of the project's code; `config`: the build's configuration, parsed once (the build script). */
export default function markdownCache({ code, config: pressroomConfig }: { code: string; config: PressroomConfig }): AstroIntegration {
  let dir: string | undefined;
  return {
    name: 'pressroom-static:markdown-cache',
    hooks: {
      'astro:config:done': ({ config }) => {
        dir = path.join(cacheFolder(fileURLToPath(config.root), pressroomConfig, 'markdown'), code);
        configureMarkdownCache(dir);
      },
      'astro:build:start': () => {
        configureMarkdownCache(dir);
      },
      'astro:build:done': async ({ logger }) => {
        const { hits, misses } = markdownCacheStats();
        const pruned = await pruneMarkdownCache(UNUSED_KEEP_MS);
        if (hits + misses > 0)
          logger.info(
            `Markdown twins and llms-full.txt: ${hits} release bodies from the cache, ${misses} converted${pruned?.files ? `; ${pruned.files} unused entries removed` : ''}`,
          );
        configureMarkdownCache(undefined);
      },
    },
  };
}
