/**
 * Reads the content layer's data store file as Astro's own store module would
 * give it (see src/integrations/data-store-at-render.ts): a map of collections,
 * each a map of entries by id.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { unflatten } from 'devalue';
import { formatBytes } from '@pressroom-static/content-loaders';
import { onNewDataGeneration } from '../config/data-generation.ts';
import { takeSyncedStore } from '../config/synced-store.ts';

export type StoredCollections = Map<string, Map<string, unknown>>;

/** The store in `file` (devalue's format); an empty map when there is none yet, as Astro gives. */
export function readDataStore(file: string, log: (line: string) => void = (line) => console.log(line)): StoredCollections {
  if (!existsSync(file)) return new Map();
  const collections = unflatten(JSON.parse(readFileSync(file, 'utf8'))) as StoredCollections;
  log(
    `[pressroom-static] data store: ${formatBytes(statSync(file).size)} read at render time from ${path.relative(process.cwd(), file)}, not bundled`,
  );
  return collections;
}

/**
 * The store the pages read (src/integrations/data-store-at-render.ts): `file` read now, and at each
 * new data generation (a warm renderer's change) the collections its content layer synced, handed
 * over in memory (or the file read again), put into the same Map, since Astro keeps this Map as its
 * store's collections.
 */
export function readDataStoreForPages(file: string): StoredCollections {
  const collections = readDataStore(file);
  onNewDataGeneration(() => {
    const next = takeSyncedStore() ?? readDataStore(file);
    collections.clear();
    for (const [name, entries] of next) collections.set(name, entries);
  });
  return collections;
}
