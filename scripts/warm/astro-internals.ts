/**
 * Every Astro internal a renderer kept warm (scripts/warm/) relies on, in one module, each checked
 * when the renderer starts (`internalsMissing`): a shape that is not there is one warning line and
 * the plain build command for every delivery (as without `--warm`), never a wrong site. Listed in
 * docs/performance.md ("A renderer kept warm"); an Astro update is checked against that list.
 *
 * - dist/content/instance.js `globalContentLayer.init`: wrapped to keep the ContentLayer the build
 *   synced with; its `sync()` runs the loaders again after the build disposed it (the collections
 *   stay in `globalContentConfigObserver`). With it, the `store` it was made with
 *   (dist/content/mutable-data-store.js): its `_collections` (collection → id → entry, what the
 *   store file holds) and its `writeToDisk()`, which its saves call.
 * - the default prerenderer's `app.routeCache.clearAll()`: forgets getStaticPaths results.
 * - the prerenderer's `render()` answering a Response (or `{ response }`), as generate.js writes it;
 *   a 3xx (a redirect page in generate.js) is not replicated: the change falls back to a full build.
 * - an integration's `astro:build:done` hook (the sitemap's) called again with `dir` and `pages`.
 * - the prerenderer's `app.manifest`: its `pageMap` (component → `() => import(page)`) and lazy
 *   `middleware`, `actions`, `sessionDriver`, `serverIslandMappings` imports
 *   (manifest/serialized.js). Their modules are in `<outDir>/.prerender/` until generation is done
 *   (core/build/static-build.js removes the folder after `astro:build:generated`), and Node resolves
 *   a dynamic import's file anew for each importer and specifier: each is called once then, so the
 *   routes the build did not render (a partial first build) find them resolved later.
 */
import type { AstroIntegration, AstroIntegrationLogger, AstroPrerenderer } from 'astro';

export interface KeptContentLayer {
  /** With `loaders`, only the collections whose loader has one of those names (the others keep their entries). */
  sync(options?: { loaders?: string[]; context?: Record<string, unknown> }): Promise<void>;
  /** The data store it syncs into, as the layer was given it. */
  store: unknown;
}

/** The data store of a kept layer, when it has the shape relied on. */
export interface KeptDataStore {
  _collections: Map<string, Map<string, unknown>>;
  writeToDisk(): Promise<void>;
}

export function keptDataStore(layer: KeptContentLayer): KeptDataStore | undefined {
  const store = layer.store as Partial<KeptDataStore> | undefined;
  return store?._collections instanceof Map && typeof store.writeToDisk === 'function' ? (store as KeptDataStore) : undefined;
}

export interface ContentLayerSingleton {
  init(options: unknown): Pick<KeptContentLayer, 'sync'>;
}

/** Astro's content-layer singleton (dist/content/instance.js `globalContentLayer`), if that module is there. */
export async function contentLayerSingleton(): Promise<Partial<ContentLayerSingleton> | undefined> {
  const instanceUrl = new URL('./dist/content/instance.js', import.meta.resolve('astro/package.json'));
  const instance = (await import(instanceUrl.href).catch(() => undefined)) as { globalContentLayer?: ContentLayerSingleton } | undefined;
  return instance?.globalContentLayer;
}

/** Wraps Astro's content-layer singleton before the build: the layer the build syncs with is kept. */
export async function keepContentLayer(): Promise<{ layer(): KeptContentLayer | undefined } | { missing: string }> {
  const singleton = await contentLayerSingleton();
  if (typeof singleton?.init !== 'function') return { missing: 'astro/dist/content/instance.js has no globalContentLayer.init' };
  let kept: KeptContentLayer | undefined;
  const init = singleton.init.bind(singleton);
  singleton.init = (options) => {
    const layer = init(options);
    kept = { sync: layer.sync?.bind(layer), store: (options as { store?: unknown } | undefined)?.store };
    return layer;
  };
  return { layer: () => kept };
}

export interface RouteCache {
  clearAll(): void;
}

/** The default prerenderer's route cache (getStaticPaths results), if it has the shape relied on. */
export function routeCacheOf(prerenderer: AstroPrerenderer): RouteCache | undefined {
  const cache = (prerenderer as AstroPrerenderer & { app?: { routeCache?: Partial<RouteCache> } }).app?.routeCache;
  return typeof cache?.clearAll === 'function' ? (cache as RouteCache) : undefined;
}

/** The manifest's lazy imports this Astro is known to have besides `pageMap` (manifest/serialized.js). */
const LAZY_MANIFEST_IMPORTS = ['middleware', 'actions', 'sessionDriver', 'serverIslandMappings'] as const;

/**
 * Calls every lazy import of the prerenderer's manifest while its files are there (at
 * `astro:build:generated`), so the kept prerenderer can render any route once the folder is gone.
 * How many it called; none when the manifest is not of the shape relied on.
 */
export async function resolveLazyImports(prerenderer: AstroPrerenderer | undefined): Promise<number> {
  type Lazy = () => Promise<unknown>;
  const manifest = (prerenderer as { app?: { manifest?: { pageMap?: Map<string, Lazy> } & Record<string, unknown> } } | undefined)?.app
    ?.manifest;
  if (!(manifest?.pageMap instanceof Map)) return 0;
  const lazy = [
    ...manifest.pageMap.values(),
    ...LAZY_MANIFEST_IMPORTS.map((name) => manifest[name]).filter((value): value is Lazy => typeof value === 'function'),
  ];
  for (const load of lazy) await load();
  return lazy.length;
}

/** What the kept build does not have of the internals above; undefined when all are there. */
export function internalsMissing(kept: {
  layer: KeptContentLayer | undefined;
  inner: AstroPrerenderer | undefined;
  sitemap: AstroIntegration | undefined;
  /** Lazy imports of the prerenderer's manifest called while their files were there (resolveLazyImports). */
  lazyImports: number;
}): string | undefined {
  if (typeof kept.layer?.sync !== 'function') return "Astro's content layer was not kept (no ContentLayer with sync())";
  if (!keptDataStore(kept.layer)) return "Astro's content layer has no data store with _collections and writeToDisk()";
  if (!kept.inner || typeof kept.inner.getStaticPaths !== 'function' || typeof kept.inner.render !== 'function')
    return "Astro's prerenderer was not kept";
  if (!routeCacheOf(kept.inner)) return "Astro's prerenderer has no app.routeCache.clearAll()";
  if (kept.lazyImports === 0) return "Astro's prerenderer has no app.manifest.pageMap to load before the build removes its modules";
  if (typeof kept.sitemap?.hooks['astro:build:done'] !== 'function') return 'the sitemap integration has no astro:build:done hook';
  return undefined;
}

export type RouteData = Parameters<AstroPrerenderer['render']>[1]['routeData'];

/** The bytes a route renders to, as Astro's generate.js writes them (a 3xx is not handled: thrown). */
export async function renderedBytes(prerenderer: AstroPrerenderer, url: string, routeData: RouteData): Promise<Buffer> {
  const answer = (await prerenderer.render(new Request(url), { routeData })) as Response | { response: Response };
  const response = answer instanceof Response ? answer : answer.response;
  if (response.status >= 300 && response.status < 400) throw new Error(`${url} answered ${response.status} (a redirect page)`);
  return Buffer.from(await response.arrayBuffer());
}

/** Runs an integration's `astro:build:done` again on `dir` with `pages` (the sitemap's, from the route record). */
export async function runBuildDone(
  integration: AstroIntegration,
  dir: URL,
  pages: Array<{ pathname: string }>,
  logger: AstroIntegrationLogger,
) {
  const done = integration.hooks['astro:build:done'];
  if (!done) throw new Error(`${integration.name} has no astro:build:done hook`);
  await done({ dir, pages, logger } as Parameters<typeof done>[0]);
}
