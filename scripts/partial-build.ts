/**
 * A partial build (issue 31, item 2): with the FULL new data loaded, Astro renders only the routes
 * the planner (route-plan.ts) proves changed, and the new site is assembled in the staging folder
 * from them and the previous site's unchanged files, hard-linked (never written to: the live site
 * shares their inodes), minus what the plan deletes:
 *
 * 1. as the selected routes are generated (before search reads the site): the kept routes' files
 *    and the `_media/` files they asked for;
 * 2. once Astro is done (after every writer of whole-site files): any other file of the previous
 *    site this build did not write (site icons, the build record).
 *
 * Search bundles and sitemaps are made anew from the assembled site (the sitemap integration is
 * handed the kept pages: src/integrations/route-recorder.ts). What the planner cannot prove
 * renders in full, with the reason in one line (route-plan.ts).
 */
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { PartialRendering, RouteSelection } from '../src/integrations/route-recorder.ts';
import type { RouteUse } from '../src/lib/route-record.ts';
import type { RouteRecord } from './route-record-file.ts';
import { planLine, planRoutes, type RoutePlan } from './route-plan.ts';

export interface PartialBuildOptions {
  previous: RouteRecord;
  /** The site the record describes (--out), checked as built. */
  previousDir: string;
  code: string;
  configuration: RouteRecord['configuration'];
  log: (line: string) => void;
}

type Partial = Extract<RoutePlan, { render: string[] }>;

/** Whole-site outputs every build writes anew (search bundles, @astrojs/sitemap's files): never taken from the previous site. */
const isRebuiltEveryTime = (file: string): boolean => file.startsWith('pagefind/') || /^sitemap-(?:index|\d+)\.xml$/.test(file);

/** Hard-links `file` of `from` into `to` unless `to` has it; a copy where the two are on different file systems. */
async function linkInto(from: string, to: string, file: string): Promise<boolean> {
  const target = path.join(to, file);
  if (existsSync(target)) return false;
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await link(path.join(from, file), target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(path.join(from, file), target);
  }
  return true;
}

async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

export function partialBuild(options: PartialBuildOptions): PartialRendering & {
  /** The plan when this build rendered part of the routes; undefined when it rendered all. */
  plan(): Partial | undefined;
  /** Step 2 of the assembly, once Astro is done. */
  finish(outDir: string): Promise<void>;
} {
  const { previous, previousDir } = options;
  let plan: Partial | undefined;

  const select = (selection: RouteSelection): ReadonlySet<string> | undefined => {
    const chosen: RoutePlan = planRoutes({
      previous,
      code: options.code,
      configuration: options.configuration,
      buildDay: previous.buildDay && selection.buildDay,
      routes: selection.routes,
      digest: selection.digest,
    });
    options.log(planLine(chosen, selection.routes.length));
    if ('full' in chosen) return undefined;
    plan = chosen;
    return new Set(chosen.render);
  };

  const leaving = (): Set<string> => new Set([...(plan?.render ?? []), ...(plan?.remove ?? [])]);

  return {
    select,
    async generated(outDir) {
      if (!plan) return;
      const gone = leaving();
      const deleted = new Set(plan.deleteFiles);
      for (const [route, use] of Object.entries(previous.routes)) {
        if (gone.has(route)) continue;
        await linkInto(previousDir, outDir, route);
        for (const file of use.files) if (!deleted.has(file)) await linkInto(previousDir, outDir, file);
      }
    },
    kept() {
      const gone = leaving();
      const kept = new Map<string, RouteUse>();
      for (const [route, use] of Object.entries(previous.routes))
        if (!gone.has(route)) kept.set(route, { keys: new Set(use.keys), files: new Set(use.files) });
      return kept;
    },
    plan: () => plan,
    async finish(outDir) {
      if (!plan) return;
      const owned = new Set(Object.entries(previous.routes).flatMap(([route, use]) => [route, ...use.files]));
      for (const file of await filesOf(previousDir)) {
        if (owned.has(file) || isRebuiltEveryTime(file)) continue;
        await linkInto(previousDir, outDir, file);
      }
    },
  };
}
