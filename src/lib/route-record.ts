/**
 * What each route of a build is made of, observed while it renders: the dependency keys it read
 * (an item `release:42`, a list `list:releases`, a map entry `map:releasesByTag/7`, a site field
 * `site:pressroom`; src/lib/recorded-site.ts notes them as the page reads the data) and the
 * `_media/` files it asked the image pipeline for. The build's prerenderer
 * (src/integrations/route-recorder.ts) runs each route's render inside `recordRoute()`; an
 * `AsyncLocalStorage` carries the route through Astro's components, slots and awaits.
 *
 * Kept in the build session: the integration and the pages are loaded by separate module graphs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sessionState } from '../config/session.ts';
import { detached } from './detached.ts';

/** What one route used while it rendered. */
export interface RouteUse {
  keys: Set<string>;
  /** Site paths of `_media/` outputs, without the base (`_media/ab12….webp`). */
  files: Set<string>;
}

/** What a route used, as it rendered now (`RouteUse`) or as a record says it did (its lists, shared, not copied). */
export interface UsedByRoute {
  readonly keys: ReadonlySet<string> | readonly string[];
  readonly files: ReadonlySet<string> | readonly string[];
}

/** How the pages' graph digests what routes read, once it has loaded the site (src/lib/recorded-site.ts). */
export interface SiteDigests {
  /** Each key's digest over the data the build loaded; a key that names nothing readable is left out. */
  keys(keys: Iterable<string>): Map<string, string>;
  /** A route's props from getStaticPaths: which items (by key) and values, in order. */
  props(props: unknown): string;
  /** The build's day the pages print "past" and "upcoming" by (src/lib/build-day.ts). */
  buildDay(): { day: string; timeZone: string };
}

interface Holder {
  storage: AsyncLocalStorage<RouteUse>;
  /** Set by the pages' graph once the site is loaded (src/lib/data.ts). */
  digests?: SiteDigests;
  /** The site's base path with a trailing slash, to turn media URLs into site paths. */
  base: string;
  /** `derived:<name>` keys: what each is computed from the site's raw data (noteDerived). */
  derived: Map<string, (site: object) => unknown>;
  /** `lookup:<name>/<entry>` keys: the index each looks its entry up in, made from the site's raw data (lookupKey). */
  lookups: Map<string, (site: object) => LookupIndex>;
  /** Every key and file noted, once, as a flat string of its own (canonical). */
  names: Map<string, string>;
}

/** What a `lookup:` key's entries are looked up in: a Map, or entries computed when asked (related releases). */
export type LookupIndex = Pick<ReadonlyMap<string, unknown>, 'get'>;

declare module '../config/session.ts' {
  interface SessionState {
    routeRecord: Holder;
  }
}

const holder = (): Holder =>
  sessionState('routeRecord', () => ({
    storage: new AsyncLocalStorage<RouteUse>(),
    base: '/',
    derived: new Map(),
    lookups: new Map(),
    names: new Map(),
  }));

/**
 * The one copy of `name` every route's record holds. A full L build's 39,636 routes note 2.6 million
 * keys and files, of 156,574 distinct names. Each kept as made (a template's tree of parts, a slice
 * that keeps the whole text it was cut from), the records held 1.0 MiB of heap for the demo's 396
 * routes; kept once, 0.6 MiB.
 */
function canonical(name: string): string {
  const { names } = holder();
  let kept = names.get(name);
  if (kept === undefined) {
    kept = detached(name);
    names.set(kept, kept);
  }
  return kept;
}

/** Runs `render` with `use` as the route that reads data and asks for media meanwhile. */
export function recordRoute<T>(use: RouteUse, render: () => T): T {
  return holder().storage.run(use, render);
}

/** The route rendering now, if any (getStaticPaths and the build's own steps run outside every route). */
export function currentRoute(): RouteUse | undefined {
  return holder().storage.getStore();
}

/** The key of one entry of an index of the site (`map:releasesByTag/7`), nested indexes entry by entry. */
export const mapEntryKey = (field: string, ...entry: unknown[]): string =>
  [`map:${field}`, ...entry.map((k) => encodeURIComponent(JSON.stringify(k)))].join('/');

/** Runs `work` with its reads noted nowhere: the caller notes what its result depends on itself. */
export function withoutRecording<T>(work: () => T): T {
  return recordRoute({ keys: new Set(), files: new Set() }, work);
}

/**
 * A key for what a route depends on that no list or item states alone (which releases have no
 * Markdown twin): `compute` derives it from the site's data, for the digest. Made when its module
 * loads, so a partial build can digest it before any route renders; call the result to note it.
 */
export function derivedKey(name: string, compute: (site: object) => unknown): () => void {
  holder().derived.set(name, compute);
  const key = `derived:${name}`;
  return () => noteKey(key);
}

/** How a `derived:` key is computed. */
export function derivedCompute(name: string): ((site: object) => unknown) | undefined {
  return holder().derived.get(name);
}

/**
 * A key for one entry of an index of the site a module makes (the library image a `<img src>`
 * names): `index` makes it from the site's data, once per digest, and an entry's digest is the
 * entry's whole value, so a route depends on that entry alone, not on the whole list it is made
 * from. Made when its module loads, like derivedKey; call the result with the entry to note it.
 */
export function lookupKey(name: string, index: (site: object) => LookupIndex): (entry: string) => void {
  holder().lookups.set(name, index);
  return (entry) => noteKey(`lookup:${name}/${encodeURIComponent(entry)}`);
}

/** How a `lookup:` key's index is made. */
export function lookupIndex(name: string): ((site: object) => LookupIndex) | undefined {
  return holder().lookups.get(name);
}

export function noteKey(key: string): void {
  const keys = holder().storage.getStore()?.keys;
  // A page reads many fields of one item: only its first read of a key looks the key up among all names.
  if (keys && !keys.has(key)) keys.add(canonical(key));
}

/** Notes the `_media/` files named by the URLs in `value` (a picture, a download, a zip, a srcset…). */
export function noteMediaIn(value: unknown): void {
  const use = holder().storage.getStore();
  if (!use || value === null || value === undefined) return;
  const { base } = holder();
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const prefix = `${base}_media/`;
  for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + prefix.length)) {
    const rest = text.slice(at + base.length);
    const end = rest.search(/[\s"'?#,)\\]/);
    use.files.add(canonical(decodeURI(end === -1 ? rest : rest.slice(0, end))));
  }
}

export function setRecordBase(base: string): void {
  holder().base = base.endsWith('/') ? base : `${base}/`;
}

/** The pages' graph hands over how to digest what routes read once it has loaded the site. */
export function provideSiteDigests(digests: SiteDigests): void {
  holder().digests = digests;
}

export function siteDigests(): SiteDigests | undefined {
  return holder().digests;
}

/** Work made once and shared by routes (a feed item, a tag index), with what it read and asked for while made. */
export interface SharedWork<T> {
  value: T;
  use: RouteUse;
}

/**
 * Makes `make()` once for every route that will use it: its reads are noted apart and handed to each
 * user by `usedShared` (to the first too), not only to the route that happened to make it.
 */
export function shareWork<T>(make: () => T): SharedWork<T> {
  const use: RouteUse = { keys: new Set(), files: new Set() };
  return { value: recordRoute(use, make), use };
}

/** Notes what shared work read for the route using it now, and gives its value (sync work). */
export function usedShared<T>(work: SharedWork<T>): T {
  const current = currentRoute();
  if (current && current !== work.use) {
    for (const key of work.use.keys) current.keys.add(key);
    for (const file of work.use.files) current.files.add(file);
  }
  return work.value;
}

/** The same for asynchronous work: noted once it is complete. */
export async function awaitShared<T>(work: SharedWork<Promise<T>>): Promise<T> {
  const value = await work.value;
  usedShared(work);
  return value;
}
