/**
 * The route record of a built site, kept beside it as `<out>.routes.json` (never inside it) and
 * written with its fingerprint: for every route (the file it writes), the `_media/` files it asked
 * for and the dependency keys it read, and each key's digest (src/integrations/route-recorder.ts).
 * The planner (route-plan.ts) reads it to tell which routes a change touches. No secret and no
 * clock time: the same input gives the same bytes.
 *
 * On disk every key and file name is written once, in one sorted list, and each route names them by
 * their place in it: a full L build's 39,636 routes name 2.6 million keys and files, of 156,574
 * distinct names (34 MB; the demo's record: 680 KB written out in full, 238 KB so).
 */
import { readFile, rm } from 'node:fs/promises';
import type { RecordedRoutes } from '../src/integrations/route-recorder.ts';
import { writeJsonAtomically } from './json-beside.ts';

export const ROUTE_RECORD_FORMAT = 'pressroom-routes/2';

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
  /** Key → digest, for every key a route read: `NO_DIGEST` for one that could not be digested then. */
  digests: Record<string, string>;
}

/**
 * The digest of a key that could not be digested when its routes rendered: never a digest of
 * anything, so the planner renders again a route that reads it once it can be (and in full while
 * it cannot). Every key a route read has a digest in a record, so the planner need not look for one.
 */
export const NO_DIGEST = '';

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
    digests: Object.fromEntries(sorted(keysOf(recorded)).map((key) => [key, recorded.digests.get(key) ?? NO_DIGEST])),
  };
}

/** Every key digested or read by a route. */
function keysOf(recorded: RecordedRoutes): Set<string> {
  const keys = new Set(recorded.digests.keys());
  for (const use of recorded.routes.values()) for (const key of use.keys) keys.add(key);
  return keys;
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
    const parsed = JSON.parse(text) as Partial<StoredRouteRecord>;
    if (parsed.format !== ROUTE_RECORD_FORMAT) return { missing: `${file} is not a ${ROUTE_RECORD_FORMAT} file` };
    for (const field of ['configuration', 'routes', 'digests'] as const)
      if (!parsed[field] || typeof parsed[field] !== 'object') return { missing: `${file} has no usable ${field}` };
    if (typeof parsed.code !== 'string') return { missing: `${file} has no code digest` };
    if (!Array.isArray(parsed.names) || parsed.names.some((name) => typeof name !== 'string'))
      return { missing: `${file} has no usable names` };
    const names = parsed.names;
    const named = (places: unknown): string[] => {
      if (!Array.isArray(places)) throw new Error('a route without its list of names');
      return places.map((place) => {
        const name = names[place as number];
        if (name === undefined) throw new Error(`a route names place ${String(place)} of ${names.length}`);
        return name;
      });
    };
    const routes: RouteRecord['routes'] = {};
    /** 1 at the place of each name a route read as a key (`named` has checked every place). */
    const isKey = new Uint8Array(names.length);
    for (const [route, [keys, files] = []] of Object.entries(parsed.routes!)) {
      routes[route] = { keys: named(keys), files: named(files) };
      for (const place of keys as number[]) isKey[place] = 1;
    }
    const { names: _, routes: __, ...rest } = parsed as StoredRouteRecord;
    // A record written before every key had one: a key without a digest reads as one that could not be digested.
    names.forEach((name, place) => {
      if (isKey[place] && !Object.hasOwn(rest.digests, name)) rest.digests[name] = NO_DIGEST;
    });
    return { ...rest, routes };
  } catch (error) {
    return { missing: `${file} is unreadable (${(error as Error).message.split('\n')[0]})` };
  }
}

/** As written: each route's keys and files as places in `names` (sorted, so sorted places are sorted names). */
interface StoredRouteRecord extends Omit<RouteRecord, 'routes'> {
  names: string[];
  routes: Record<string, [number[], number[]]>;
}

export async function writeRouteRecord(out: string, record: RouteRecord): Promise<void> {
  const all = new Set<string>();
  for (const { keys, files } of Object.values(record.routes)) {
    for (const key of keys) all.add(key);
    for (const file of files) all.add(file);
  }
  const names = [...all].sort();
  const place = new Map(names.map((name, i) => [name, i]));
  const placesOf = (values: readonly string[]): number[] => values.map((value) => place.get(value)!).sort((a, b) => a - b);
  const { routes, digests, ...rest } = record;
  const stored: StoredRouteRecord = {
    ...rest,
    names,
    routes: Object.fromEntries(Object.entries(routes).map(([route, { keys, files }]) => [route, [placesOf(keys), placesOf(files)]])),
    digests,
  };
  await writeJsonAtomically(routeRecordPath(out), stored);
}

/** Before a new site is swapped in: the old record must never stand beside it. */
export async function removeRouteRecord(out: string): Promise<void> {
  await rm(routeRecordPath(out), { force: true });
}
