/**
 * The partial build's planner (pure: no rendering, no file access): from the route record of the
 * site in --out (route-record-file.ts) and what the new data says, the routes to render, the routes
 * gone, and the files to delete. A route renders when any key it read has another digest now, or
 * when it is new; it is removed when the new build has no such route. A file a rendered or removed
 * route asked for is deleted unless a route kept as it is still owns it (a rendered route asks
 * for what it still needs again). Anything it cannot prove is a full render, with the reason.
 */
import type { RouteRecord } from './route-record-file.ts';

export interface PlanInputs {
  /**
   * The record beside the site, or why there is none. Made by route-record-file.ts only: it gives
   * every key a route read a digest (`NO_DIGEST` when none could be made), and a key without one
   * would go unnoticed here (the reads are checked against the keys that moved, not looked up).
   */
  previous: RouteRecord | { missing: string };
  /** This build's code digest, configuration and build day, as the record states them. */
  code: string;
  configuration: RouteRecord['configuration'];
  buildDay: RouteRecord['buildDay'];
  /** Every route (its file) the new data gives. */
  routes: readonly string[];
  /** The digest of each key over the new data; undefined when the key cannot be computed. */
  digest: (key: string) => string | undefined;
}

export type RoutePlan =
  | { full: string }
  | {
      /** Routes to render: changed ones and new ones, sorted. */
      render: string[];
      /** Routes (their files) the new build no longer has, sorted. */
      remove: string[];
      /** Files asked for by rendered or removed routes that no kept route owns, sorted. */
      deleteFiles: string[];
      /** The keys whose digest changed, sorted. */
      changed: string[];
    };

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The configuration's names in one order, so that two equal configurations compare equal. */
const sortedConfiguration = (configuration: RouteRecord['configuration']) =>
  Object.fromEntries(
    Object.keys(configuration)
      .sort()
      .map((name) => [name, configuration[name]]),
  );

/** Two configurations alike whatever the order of their names. */
export const sameConfiguration = (a: RouteRecord['configuration'], b: RouteRecord['configuration']): boolean =>
  sameJson(sortedConfiguration(a), sortedConfiguration(b));

export function planRoutes(inputs: PlanInputs): RoutePlan {
  const { previous } = inputs;
  if ('missing' in previous) return { full: previous.missing };
  if (previous.code !== inputs.code) return { full: `the code changed since the site was rendered (${previous.code} → ${inputs.code})` };
  if (!sameConfiguration(previous.configuration, inputs.configuration))
    return { full: 'the configuration changed since the site was rendered' };
  if (!sameJson(previous.buildDay, inputs.buildDay))
    return { full: `the build day is ${inputs.buildDay?.day ?? 'unknown'}, the site's is ${previous.buildDay?.day ?? 'unknown'}` };

  const next = new Set(inputs.routes);
  // Each key is digested once, and the few that moved (or cannot be computed now) are set apart: the routes'
  // reads (at L 1.1 million of 88,000 keys) then each ask a set of a handful of keys, not a map of all of them.
  // A vanished route's own keys (its props) name nothing now: only a route that stays and reads one renders in full.
  const moved = new Set<string>();
  const uncomputable = new Set<string>();
  for (const key of Object.keys(previous.digests)) {
    const digest = inputs.digest(key);
    if (digest === undefined) uncomputable.add(key);
    else if (digest !== previous.digests[key]) moved.add(key);
  }
  const render: string[] = [];
  const remove: string[] = [];
  const changed = new Set<string>();
  for (const route of Object.keys(previous.routes)) {
    if (!next.has(route)) {
      remove.push(route);
      continue;
    }
    let renders = false;
    for (const key of previous.routes[route]!.keys) {
      if (moved.has(key)) {
        renders = true;
        changed.add(key);
      } else if (uncomputable.has(key)) return { full: `the key ${key} cannot be computed from the new data` };
    }
    if (renders) render.push(route);
  }
  for (const route of next) if (!(route in previous.routes)) render.push(route);

  // A file the leaving routes asked for is deleted unless a route that stays owns it too.
  const leaving = new Set([...render, ...remove]);
  const deleteFiles = new Set<string>();
  for (const route of leaving) for (const file of previous.routes[route]?.files ?? []) deleteFiles.add(file);
  for (const route of Object.keys(previous.routes)) {
    if (deleteFiles.size === 0) break;
    if (!leaving.has(route)) for (const file of previous.routes[route]!.files) deleteFiles.delete(file);
  }

  return { render: render.sort(), remove: remove.sort(), deleteFiles: [...deleteFiles].sort(), changed: [...changed].sort() };
}

/** The plan in one log line (`build: partial: …` or `build: rendering in full: …`). */
export function planLine(plan: RoutePlan, total: number): string {
  if ('full' in plan) return `build: rendering in full: ${plan.full}`;
  const items = plan.changed.filter((key) => !/^(?:list|map|derived|site|props):/.test(key));
  const shown = items.slice(0, 5).join(', ') + (items.length > 5 ? `, … ${items.length - 5} more` : '');
  return `build: partial: ${plan.render.length} of ${total} routes rendered (${items.length} changed items${items.length > 0 ? `: ${shown}` : ''})`;
}
