/**
 * What a warm renderer keeps of the build it ran in its own process (in full, or partial when the
 * site in `--out` allowed it): Astro's prerenderer and the route recorder's wrapper
 * (src/integrations/route-recorder.ts `keep`), the selection the recorder hands over at each
 * getStaticPaths once the build is done (the recorder's `PartialRendering`, observed: it always
 * renders in full), the URL each route was rendered at, the sitemap integration and the site's
 * origin and base. Per change it gives every route of the new data and renders the chosen ones,
 * recording what each read, as the build did.
 */
import type { AstroIntegration, AstroPrerenderer } from 'astro';
import { routeFile, type KeptPrerenderers, type PartialRendering, type RouteSelection } from '../../src/integrations/route-recorder.ts';
import { currentRoute, type RouteUse } from '../../src/lib/route-record.ts';
import { renderedBytes, resolveLazyImports, type RouteData } from './astro-internals.ts';

export interface RenderedRoute {
  body: Buffer;
  /** The keys it read and the files it asked for. */
  use: RouteUse;
}

export interface KeptApp {
  /** For the build: the recorder's options and one integration. */
  observer: PartialRendering;
  keep(prerenderers: KeptPrerenderers): void;
  integration: AstroIntegration;
  inner(): AstroPrerenderer | undefined;
  sitemap(): AstroIntegration | undefined;
  /** How many lazy imports of the prerenderer's manifest were called before the build removed their files. */
  lazyImports(): number;
  /** Every route of the data loaded now (getStaticPaths through the recorder) and the recorder's selection. */
  routes(): Promise<{ selection: RouteSelection; byFile: Map<string, RouteData> }>;
  /** Renders one route of `routes()` in its recording context. */
  render(file: string, route: RouteData): Promise<RenderedRoute>;
}

/** The URL Astro renders a route at (build.format 'directory'), under `origin` and `base`. */
export function routeUrl(file: string, type: string, origin: string, base: string): string {
  if (type === 'endpoint') return `${origin}${base}${file}`;
  if (file === 'index.html') return `${origin}${base}`;
  const trimmed = file.replace(/(?:\/index)?\.html$/, '');
  return `${origin}${base}${trimmed}/`;
}

export function keptApp(): KeptApp {
  let kept: KeptPrerenderers | undefined;
  let selection: RouteSelection | undefined;
  let sitemap: AstroIntegration | undefined;
  let base = '/';
  let lazyImports = 0;
  /** Where Astro's build renders routes: the site's origin (a build that rendered no route shows none). */
  let origin = '';
  const urls = new Map<string, string>();
  const uses = new Map<string, RouteUse>();
  const fileOf = (url: string, type: string): string => {
    const pathname = decodeURI(new URL(url).pathname);
    return routeFile(pathname.startsWith(base) ? pathname.slice(base.length) : pathname, type);
  };
  return {
    observer: {
      select: (now) => void (selection = now),
      generated: async () => {},
      kept: () => new Map(),
    },
    keep(prerenderers) {
      const { inner, outer } = prerenderers;
      // The URL each route was rendered at; and what a route read, seen from inside the recorder's context.
      const innerRender = inner.render.bind(inner);
      inner.render = (request, options) => {
        const file = fileOf(request.url, options.routeData.type);
        urls.set(file, request.url);
        const use = currentRoute();
        if (use) uses.set(file, use);
        return innerRender(request, options);
      };
      kept = { inner, outer };
    },
    integration: {
      name: 'pressroom-static:warm-kept-app',
      hooks: {
        'astro:config:done': ({ config }) => {
          base = config.base.endsWith('/') ? config.base : `${config.base}/`;
          // As Astro's build makes its request URLs (core/build: the site's origin, else localhost).
          origin = config.site ? new URL(config.site).origin : `http://localhost:${config.server.port}`;
          sitemap = config.integrations.find((integration) => integration.name === '@astrojs/sitemap');
        },
        // Before Astro removes their files: routes the build did not render (a partial build) need them later.
        'astro:build:generated': async () => {
          lazyImports = await resolveLazyImports(kept?.inner);
          // The first build's routes are recorded by the route recorder; held here, at L 2.6 million names would stay for good.
          uses.clear();
        },
      },
    },
    inner: () => kept?.inner,
    sitemap: () => sitemap,
    lazyImports: () => lazyImports,
    async routes() {
      if (!kept) throw new Error('warm: no prerenderer was kept from the build');
      selection = undefined;
      const paths = await kept.outer.getStaticPaths();
      if (!selection) throw new Error('warm: the route recorder handed over no selection (the data could not be digested)');
      const byFile = new Map(paths.map((p) => [routeFile(p.pathname, p.route.type), p.route] as const));
      return { selection, byFile };
    },
    async render(file, route) {
      if (!kept) throw new Error('warm: no prerenderer was kept from the build');
      const url = urls.get(file) ?? routeUrl(file, route.type, origin, base);
      uses.delete(file);
      const body = await renderedBytes(kept.outer, url, route);
      const use = uses.get(file);
      uses.delete(file);
      if (!use) throw new Error(`warm: ${file} rendered outside the route recorder`);
      return { body, use };
    },
  };
}
