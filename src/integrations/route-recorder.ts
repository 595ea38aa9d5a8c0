/**
 * Records what each route of a build is made of (src/lib/route-record.ts): wraps Astro's
 * prerenderer (`setPrerenderer` at `astro:build:start`) so every route renders inside its own
 * recording context, and once every page is generated digests every key the routes read over
 * the data the build loaded. The build command writes the result beside the site
 * (scripts/route-record-file.ts); nothing is written into the site.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroPrerenderer } from 'astro';
import { recordRoute, setRecordBase, siteDigests, type RouteUse, type UsedByRoute } from '../lib/route-record.ts';

/** Each route by the file it writes (`releases/x/index.html`, `feed.json`): the keys it read and the `_media/` files it asked for. */
export interface RecordedRoutes {
  routes: Map<string, UsedByRoute>;
  /** Digest of every key a route read; a key missing here could not be digested. */
  digests: Map<string, string>;
}

/** What a partial build renders from: every route the new data gives, and how to digest its keys now. */
export interface RouteSelection {
  /** Every route (its file) of the new data. */
  routes: string[];
  /** A key's digest over the new data (props included); undefined when it cannot be computed. */
  digest(key: string): string | undefined;
  buildDay: { day: string; timeZone: string };
}

/** A build that renders only some routes (scripts/partial-build.ts decides which and assembles the rest). */
export interface PartialRendering {
  /** The routes to render, or undefined to render them all. */
  select(selection: RouteSelection): ReadonlySet<string> | undefined;
  /** Once the selected routes are written into `outDir`: before the steps that read the whole site (search). */
  generated(outDir: string): Promise<void>;
  /** The routes of the previous record kept as they were: carried into this build's record. */
  kept(): ReadonlyMap<string, UsedByRoute>;
}

/** The page name Astro hands `astro:build:done` for a page written as `file` (`releases/x/index.html` → `releases/x/`). */
export const pageNameOf = (file: string): string =>
  file === 'index.html' ? '' : file.endsWith('/index.html') ? file.slice(0, -'index.html'.length) : `${file.replace(/\.html$/, '')}/`;

type BuildDone = NonNullable<AstroIntegration['hooks']['astro:build:done']>;

/**
 * @astrojs/sitemap lists the pages Astro rendered (`astro:build:done`'s `pages`): in a partial build
 * it is handed the kept pages too, so the sitemap lists every page as a full build's does.
 */
function withKeptPages(integrations: readonly AstroIntegration[], kept: () => string[]): void {
  const sitemap = integrations.find((integration) => integration.name === '@astrojs/sitemap');
  const done = sitemap?.hooks['astro:build:done'];
  if (!sitemap || !done) return;
  const withKept: BuildDone = (params) => done({ ...params, pages: [...params.pages, ...kept().map((pathname) => ({ pathname }))] });
  sitemap.hooks['astro:build:done'] = withKept;
}

/** Astro's own status pages are written as `404.html`, not `404/index.html`. */
const STATUS_PAGES = new Set(['404', '500']);

/** The file a route writes in `directory` format, from the URL it is rendered at (without the base). */
export function routeFile(pathname: string, type: string): string {
  const trimmed = pathname.replace(/^\/+|\/+$/g, '');
  if (type === 'endpoint') return trimmed;
  if (STATUS_PAGES.has(trimmed)) return `${trimmed}.html`;
  return trimmed === '' ? 'index.html' : `${trimmed}/index.html`;
}

type PathWithRoute = Awaited<ReturnType<AstroPrerenderer['getStaticPaths']>>[number];
type RouteData = PathWithRoute['route'];
/** Astro's default prerenderer keeps its app, whose route cache holds what each page's getStaticPaths returned, in order. */
type WithRouteCache = { app?: { routeCache?: { get(route: RouteData): { staticPaths?: Array<{ props?: unknown }> } | undefined } } };

/** The key under which a route's props from getStaticPaths are recorded. */
export const propsKey = (file: string): string => `${PROPS}${file}`;
const PROPS = 'props:';

/** The route file a props key (`propsKey`) names; undefined for any other key. */
export const fileOfPropsKey = (key: string): string | undefined => (key.startsWith(PROPS) ? key.slice(PROPS.length) : undefined);

/**
 * Each route's props digest, by file. The props are not part of what getStaticPaths() returns to a
 * prerenderer: they are read from the route cache of Astro's default prerenderer, where each
 * page's result is kept in the order its paths were returned. Undefined when that is not there.
 */
function propsDigests(
  prerenderer: AstroPrerenderer,
  paths: readonly PathWithRoute[],
  digest: (props: unknown) => string,
): Map<string, string> | undefined {
  const cache = (prerenderer as AstroPrerenderer & WithRouteCache).app?.routeCache;
  if (!cache) return undefined;
  const byRoute = new Map<RouteData, PathWithRoute[]>();
  for (const path of paths) {
    if (path.route.pathname) continue;
    const routePaths = byRoute.get(path.route);
    if (routePaths) routePaths.push(path);
    else byRoute.set(path.route, [path]);
  }
  const digests = new Map<string, string>();
  for (const [route, routePaths] of byRoute) {
    const staticPaths = cache.get(route)?.staticPaths;
    if (!staticPaths || staticPaths.length !== routePaths.length) return undefined;
    routePaths.forEach((path, i) => digests.set(propsKey(routeFile(path.pathname, route.type)), digest(staticPaths[i]!.props)));
  }
  return digests;
}

/** Astro's prerenderer and the recorder's wrapper around it, as a renderer kept warm holds them after the build (scripts/warm/). */
export interface KeptPrerenderers {
  /** Astro's default prerenderer (its App renders every route). */
  inner: AstroPrerenderer;
  /** The recorder's wrapper: renders in a recording context, and hands `partial` a selection at getStaticPaths. */
  outer: AstroPrerenderer;
}

export function routeRecorder(
  partial?: PartialRendering,
  keep?: (prerenderers: KeptPrerenderers) => void,
): { integration: AstroIntegration; recorded(): RecordedRoutes | undefined } {
  let base = '/';
  let outDir = '';
  let selected: ReadonlySet<string> | undefined;
  let routes: Map<string, RouteUse> | undefined;
  let props: Map<string, string> | undefined;
  let recorded: RecordedRoutes | undefined;
  /** The key digests the partial build's plan computed over this build's data. */
  let planned: Map<string, string | undefined> | undefined;
  const recording = (prerenderer: AstroPrerenderer): AstroPrerenderer => ({
    ...prerenderer,
    name: 'pressroom-static:route-recorder',
    setup: () => prerenderer.setup?.() ?? Promise.resolve(),
    async getStaticPaths() {
      const paths = await prerenderer.getStaticPaths();
      const digests = siteDigests();
      props = digests && propsDigests(prerenderer, paths, digests.props);
      selected = undefined;
      planned = undefined;
      if (!partial || !digests || !props) return paths;
      const newProps = props;
      const files = paths.map((path) => routeFile(path.pathname, path.route.type));
      // The plan digests every key of the previous record; the record takes the same digests again.
      const known = (planned = new Map<string, string | undefined>());
      const digest = (key: string): string | undefined => {
        if (!known.has(key)) known.set(key, fileOfPropsKey(key) !== undefined ? newProps.get(key) : digests.keys([key]).get(key));
        return known.get(key);
      };
      selected = partial.select({ routes: files, digest, buildDay: digests.buildDay() });
      const chosen = selected;
      return chosen ? paths.filter((_, i) => chosen.has(files[i]!)) : paths;
    },
    render(request, options) {
      const pathname = decodeURI(new URL(request.url).pathname);
      const file = routeFile(pathname.startsWith(base) ? pathname.slice(base.length) : pathname, options.routeData.type);
      const use: RouteUse = { keys: new Set(), files: new Set() };
      if (!options.routeData.pathname) use.keys.add(propsKey(file));
      // Only while Astro's build runs: a renderer kept warm renders through this wrapper too, and records each change itself.
      routes?.set(file, use);
      return recordRoute(use, () => prerenderer.render(request, options));
    },
    teardown: () => prerenderer.teardown?.() ?? Promise.resolve(),
  });
  return {
    integration: {
      name: 'pressroom-static:route-recorder',
      hooks: {
        'astro:config:done': ({ config }) => {
          if (partial)
            withKeptPages(config.integrations, () =>
              selected ? [...partial.kept().keys()].filter((file) => file.endsWith('.html')).map(pageNameOf) : [],
            );
          outDir = fileURLToPath(config.outDir);
          base = config.base.endsWith('/') ? config.base : `${config.base}/`;
          setRecordBase(base);
        },
        'astro:build:start': ({ setPrerenderer }) => {
          routes = new Map();
          recorded = undefined;
          setPrerenderer((prerenderer: AstroPrerenderer) => {
            const outer = recording(prerenderer);
            keep?.({ inner: prerenderer, outer });
            return outer;
          });
        },
        'astro:build:generated': async () => {
          if (partial && selected) await partial.generated(outDir);
          const digest = siteDigests();
          if (!routes || !digest || !props) return;
          // Every route is written: what each read is final, and held as lists from here on. A set costs about six
          // times a list per name; at L the routes name 2.6 million, held through the search index and the record.
          const all = new Map<string, UsedByRoute>(partial && selected ? partial.kept() : []);
          for (const [file, use] of routes) all.set(file, { keys: [...use.keys], files: [...use.files] });
          routes = undefined;
          const keys = new Set<string>();
          const digests = new Map<string, string>();
          for (const use of all.values())
            for (const key of use.keys) {
              const known = planned?.get(key);
              if (known !== undefined) digests.set(key, known);
              else keys.add(key);
            }
          recorded = { routes: all, digests: new Map([...digests, ...digest.keys(keys), ...props]) };
        },
      },
    },
    recorded: () => recorded,
  };
}
