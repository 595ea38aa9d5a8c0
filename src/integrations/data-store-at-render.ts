/**
 * The content layer's data store read from its file when the pages render, not
 * bundled into them. Astro inlines `data-store.json` into the prerender bundle
 * as one JavaScript string; at 10,000 releases that is a 60 MB module that
 * Rolldown parses and writes, that V8 then keeps as module source beside the
 * parsed entries, and that the build's peak memory grew with. A static build
 * renders in the very process that wrote the store, so the pages can read the
 * file directly: same entries, same `getCollection()`.
 *
 * Only for `astro build` with the default single-file store (the dev server
 * keeps Astro's own module, which it reloads when the store changes).
 *
 * Once the content is synced, Astro's content layer still holds the store it
 * synced (only the dev server syncs again); the pages read the file, so at the
 * start of the build that copy is let go.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Astro's module of the store (`astro:content` imports it), and the one that replaces it. */
const ASTRO_STORE_MODULE = 'astro:data-layer-content';
const STORE_FILE_MODULE = 'pressroom-static:data-store-file';
const RESOLVED_STORE_FILE_MODULE = `\0${STORE_FILE_MODULE}`;
/** Astro's file name of the single-file store, in its `cacheDir`. */
const STORE_FILE = 'data-store.json';

export default function dataStoreAtRender(): AstroIntegration {
  let readAtRender = false;
  return {
    name: 'pressroom-static:data-store-at-render',
    hooks: {
      'astro:config:setup': ({ config, command, updateConfig }) => {
        const storage = config.experimental.collectionStorage;
        if (command !== 'build' || (storage !== undefined && storage !== 'single-file')) return;
        readAtRender = true;
        const file = fileURLToPath(new URL(STORE_FILE, config.cacheDir));
        const reader = fileURLToPath(new URL('../lib/data-store-file.ts', import.meta.url));
        updateConfig({
          vite: {
            // Vite's aliases apply before any plugin resolves, so Astro's own store module is never loaded.
            resolve: { alias: [{ find: new RegExp(`^${ASTRO_STORE_MODULE}$`), replacement: STORE_FILE_MODULE }] },
            plugins: [
              {
                name: 'pressroom-static:data-store-file',
                resolveId: (id) => (id === STORE_FILE_MODULE ? RESOLVED_STORE_FILE_MODULE : undefined),
                load: (id) =>
                  id === RESOLVED_STORE_FILE_MODULE
                    ? `import { readDataStoreForPages } from ${JSON.stringify(reader)};\nexport default readDataStoreForPages(${JSON.stringify(file)});\n`
                    : undefined,
              },
            ],
          },
        });
      },
      'astro:build:start': async ({ logger }) => {
        if (!readAtRender) return;
        // Printed as the store's other line is (at render time), whatever Astro's log level.
        if (await releaseSyncedStore()) console.log("[pressroom-static] data store: Astro's synced copy let go, the pages read its file");
        else logger.warn("Astro's synced content layer was not found (a new Astro?); its copy of the data store stays in memory");
      },
    },
  };
}

/** Lets go of the store Astro's content layer synced (its singleton is not exported: found by file); false when not found. */
async function releaseSyncedStore(): Promise<boolean> {
  const instanceFile = new URL('./dist/content/instance.js', import.meta.resolve('astro/package.json'));
  const instance = (await import(instanceFile.href).catch(() => undefined)) as
    { globalContentLayer?: { get(): unknown; dispose(): void } } | undefined;
  const layer = instance?.globalContentLayer;
  if (!layer?.get()) return false;
  layer.dispose();
  return true;
}
