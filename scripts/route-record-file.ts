/**
 * The route record of a built site, kept beside it as `<out>.routes.json` (never inside it) and
 * written with its fingerprint: for every route (the file it writes), the `_media/` files it asked
 * for and the dependency keys it read, and each key's digest (src/integrations/route-recorder.ts).
 * The planner (route-plan.ts) reads it to tell which routes a change touches. No secret and no
 * clock time: the same input gives the same bytes.
 */
import { readFile, rm } from 'node:fs/promises';
import type { RecordedRoutes } from '../src/integrations/route-recorder.ts';
import { writeJsonAtomically } from './json-beside.ts';

export const ROUTE_RECORD_FORMAT = 'pressroom-routes/1';

export interface RouteRecord {
  format: typeof ROUTE_RECORD_FORMAT;
  /** The code digest the routes were rendered with (build-inputs.ts `codeDigest`). */
  code: string;
  /** The PRESSROOM_* values that decide the output, as the fingerprint records them. */
  configuration: Record<string, string | null>;
  /** The build day the pages used, as the fingerprint records it. */
  buildDay: { day: string; timeZone: string } | null;
  /** Route file → the keys it read and the files it asked for besides its own, both sorted. */
  routes: Record<string, { keys: string[]; files: string[] }>;
  /** Key → digest, for every key a route read. */
  digests: Record<string, string>;
}

export const routeRecordPath = (out: string): string => `${out}.routes.json`;

const sorted = (values: Iterable<string>): string[] => [...values].sort();

/** The record of a build, with every list in one order. */
export function routeRecordOf(recorded: RecordedRoutes, inputs: Pick<RouteRecord, 'code' | 'configuration' | 'buildDay'>): RouteRecord {
  return {
    format: ROUTE_RECORD_FORMAT,
    code: inputs.code,
    configuration: Object.fromEntries(sorted(Object.keys(inputs.configuration)).map((name) => [name, inputs.configuration[name]!])),
    buildDay: inputs.buildDay,
    routes: Object.fromEntries(
      sorted(recorded.routes.keys()).map((file) => {
        const use = recorded.routes.get(file)!;
        return [file, { keys: sorted(use.keys), files: sorted(use.files) }];
      }),
    ),
    digests: Object.fromEntries(sorted(recorded.digests.keys()).map((key) => [key, recorded.digests.get(key)!])),
  };
}

/** The record beside `out`, or why there is none usable. */
export async function readRouteRecord(out: string): Promise<RouteRecord | { missing: string }> {
  const file = routeRecordPath(out);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { missing: `no route record beside ${out} (${file})` };
  }
  try {
    const parsed = JSON.parse(text) as Partial<RouteRecord>;
    if (parsed.format !== ROUTE_RECORD_FORMAT) return { missing: `${file} is not a ${ROUTE_RECORD_FORMAT} file` };
    for (const field of ['configuration', 'routes', 'digests'] as const)
      if (!parsed[field] || typeof parsed[field] !== 'object') return { missing: `${file} has no usable ${field}` };
    if (typeof parsed.code !== 'string') return { missing: `${file} has no code digest` };
    return parsed as RouteRecord;
  } catch (error) {
    return { missing: `${file} is unreadable (${(error as Error).message.split('\n')[0]})` };
  }
}

export async function writeRouteRecord(out: string, record: RouteRecord): Promise<void> {
  await writeJsonAtomically(routeRecordPath(out), record);
}

/** Before a new site is swapped in: the old record must never stand beside it. */
export async function removeRouteRecord(out: string): Promise<void> {
  await rm(routeRecordPath(out), { force: true });
}
