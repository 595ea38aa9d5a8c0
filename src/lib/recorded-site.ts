/**
 * The site data as pages read it, with every read noted for the route rendering (route-record.ts),
 * and the digests of what they read. Recording is by item, not by field: one proxy per item,
 * made once per build, so a full build pays a Set insertion per property read.
 *
 * Dependency keys:
 *   `<kind>:<id>`       an item whose fields were read (`release:42`); digest: the item's data
 *   `list:<field>`      a list of items read as a whole (`list:releases`); digest: its ids in order
 *   `map:<field>/<k>…`  one entry of an index (`map:releasesByTag/7`, `map:releasesByYearMonth/2026/3`);
 *                       digest: the ids it holds in order, or `absent`
 *   `map:<field>`       an index iterated whole; digest: every key and the ids under it
 *   `site:<field>`      anything else of the site (`site:pressroom`, `site:theme`); digest: its value
 *   `derived:<name>`    a fact about the whole site a module computes (route-record.ts noteDerived)
 *   `lookup:<name>/<entry>`  one entry of an index a module makes of the site (route-record.ts lookupKey,
 *                       `lookup:libraryImageByUrl/<src>`, `lookup:relatedReleases/<id>:<count>`); digest: the
 *                       entry's whole value, or `absent`
 *   `<list or map key>#<field>`  one field of every item of a list, in order (`map:releasesByTag/7#language`):
 *                       for shared work that reads one field of many items (related releases)
 * Reading `id` alone records nothing: who is listed is the list's key, not the items'.
 */
import { createHash } from 'node:crypto';
import { derivedCompute, lookupIndex, noteKey, type LookupIndex, type SiteDigests } from './route-record.ts';

/** The kind each list's items are recorded as; items reached only through a map are named by the map. */
const ITEM_KINDS: Readonly<Record<string, string>> = {
  releases: 'release',
  tags: 'tag',
  clippings: 'clipping',
  events: 'event',
  pages: 'page',
  contacts: 'contact',
  mediaKits: 'kit',
  categories: 'category',
  images: 'image',
  movies: 'movie',
  videos: 'video',
  sounds: 'sound',
  documents: 'document',
  liveEventById: 'liveEvent',
};

const ITEM_KIND_NAMES = new Set(Object.values(ITEM_KINDS));

type Item = { id: number | string };
type Site = object;

const isItem = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && 'id' in value;

/** Raw item → its key, for every item of the site. */
function itemKeys(site: Site): Map<object, string> {
  const keys = new Map<object, string>();
  for (const [field, kind] of Object.entries(ITEM_KINDS)) {
    const value = (site as Record<string, unknown>)[field];
    const items = value instanceof Map ? [...value.values()] : Array.isArray(value) ? value : [];
    for (const item of items) if (isItem(item) && !keys.has(item)) keys.set(item, `${kind}:${String(item.id)}`);
  }
  return keys;
}

const mapKeySegment = (key: unknown): string => encodeURIComponent(JSON.stringify(key));

/** A Map that notes which of its entries a route looked up, or that it read it whole. */
class RecordingMap<K, V> extends Map<K, V> {
  private readonly key: string;
  constructor(entries: Iterable<readonly [K, V]>, key: string) {
    super(entries);
    this.key = key;
  }
  override get(k: K): V | undefined {
    noteKey(`${this.key}/${mapKeySegment(k)}`);
    return super.get(k);
  }
  override has(k: K): boolean {
    noteKey(`${this.key}/${mapKeySegment(k)}`);
    return super.has(k);
  }
  override get size(): number {
    noteKey(this.key);
    return super.size;
  }
  override keys(): MapIterator<K> {
    noteKey(this.key);
    return super.keys();
  }
  override values(): MapIterator<V> {
    noteKey(this.key);
    return super.values();
  }
  override entries(): MapIterator<[K, V]> {
    noteKey(this.key);
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    noteKey(this.key);
    return super.entries();
  }
  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    noteKey(this.key);
    super.forEach(callback, thisArg);
  }
}

function itemProxy<T extends object>(item: T, key: string): T {
  return new Proxy(item, {
    get(target, property) {
      if (property !== 'id') noteKey(key);
      return Reflect.get(target, property, target) as unknown;
    },
    has(target, property) {
      noteKey(key);
      return Reflect.has(target, property);
    },
    ownKeys(target) {
      noteKey(key);
      return Reflect.ownKeys(target);
    },
  });
}

/**
 * `site` with every list, index and item noting its reads, and how to digest what routes read of
 * it. Every list and index holds the same proxy for an item, so pages comparing items by identity
 * still can.
 */
export function recordingSite<T extends Site>(site: T): { view: T; digests: SiteDigests } {
  const keys = itemKeys(site);
  const proxies = new Map<object, object>();
  const proxyKeys = new WeakMap<object, string>();
  const wrap = (value: unknown, mapKey: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => wrap(v, mapKey));
    if (value instanceof Map)
      return new RecordingMap(
        [...value].map(([k, v]) => [k, wrap(v, `${mapKey}/${mapKeySegment(k)}`)] as const),
        mapKey,
      );
    if (typeof value === 'object' && value !== null) {
      const key = keys.get(value);
      if (!key) return value;
      let proxy = proxies.get(value);
      if (!proxy) {
        proxies.set(value, (proxy = itemProxy(value, key)));
        proxyKeys.set(proxy, key);
      }
      return proxy;
    }
    return value;
  };
  const view = {} as T;
  for (const [field, value] of Object.entries(site)) {
    if (value instanceof Map) {
      Object.defineProperty(view, field, { value: wrap(value, `map:${field}`), enumerable: true });
    } else if (Array.isArray(value) && value.some(isItem)) {
      const list = wrap(value, `list:${field}`);
      const key = `list:${field}`;
      Object.defineProperty(view, field, {
        get: () => (noteKey(key), list),
        enumerable: true,
      });
    } else {
      const key = `site:${field}`;
      Object.defineProperty(view, field, {
        get: () => (noteKey(key), value),
        enumerable: true,
      });
    }
  }
  const shapes = siteShapes(site, keys);
  return {
    view,
    digests: {
      keys: shapes.digests,
      props: (props) => sha256(JSON.stringify(propsShape(props, (value) => proxyKeys.get(value) ?? keys.get(value))) ?? ''),
      buildDay: () => {
        const { date, timeZone } = (site as { buildDay: { date: string; timeZone: string } }).buildDay;
        return { day: date, timeZone };
      },
    },
  };
}

/** Props as what they name: items by key (a route printing them reads them, recorded then), everything else by value. */
function propsShape(value: unknown, keyOf: (value: object) => string | undefined, seen = new Set<object>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const key = keyOf(value);
  if (key) return { item: key };
  if (seen.has(value)) return '[seen]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => propsShape(v, keyOf, seen));
  if (value instanceof Map) return { map: [...value].map(([k, v]) => [k, propsShape(v, keyOf, seen)]) };
  if (value instanceof Date) return value.toISOString();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, propsShape(v, keyOf, seen)]));
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** Each key's digest over `site` (the raw data, not the recording view); keys that cannot be read are left out. */
function siteShapes(site: Site, keys: Map<object, string>): { digests: (keys: Iterable<string>) => Map<string, string> } {
  const byKey = new Map<string, object>([...keys].map(([item, key]) => [key, item]));
  // A list's or an index's shape: items by their key, so an edited item leaves its lists' digests alone.
  const shape = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shape);
    if (value instanceof Map) return [...value].map(([k, v]) => [k, shape(v)]);
    if (typeof value === 'object' && value !== null && keys.has(value)) return keys.get(value);
    return value;
  };
  const fields = site as Record<string, unknown>;
  /** The list a `list:` or `map:` key names; null when the map has no such entry. */
  const valueOf = (kind: string, rest: string): unknown => {
    if (kind === 'list') return fields[rest];
    const [field, ...path] = rest.split('/');
    let value: unknown = fields[field!];
    for (const segment of path) {
      if (!(value instanceof Map)) return undefined;
      value = value.get(JSON.parse(decodeURIComponent(segment))) ?? null;
    }
    return value;
  };
  const indexes = new Map<string, LookupIndex | undefined>();
  const lookedUp = (name: string, entry: string): string | undefined => {
    if (!indexes.has(name)) indexes.set(name, lookupIndex(name)?.(site));
    const index = indexes.get(name);
    if (!index) return undefined;
    const value = index.get(decodeURIComponent(entry));
    return value === undefined ? 'absent' : sha256(JSON.stringify(value) ?? 'undefined');
  };
  const digestOf = (key: string): string | undefined => {
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const rest = key.slice(colon + 1);
    if (kind === 'derived') {
      const compute = derivedCompute(rest);
      return compute && sha256(JSON.stringify(compute(site)) ?? 'undefined');
    }
    if (kind === 'lookup') {
      const slash = rest.indexOf('/');
      return slash === -1 ? undefined : lookedUp(rest.slice(0, slash), rest.slice(slash + 1));
    }
    if (kind === 'site') return rest in fields ? sha256(JSON.stringify(fields[rest]) ?? 'undefined') : undefined;
    if (kind === 'list') return Array.isArray(fields[rest]) ? sha256(JSON.stringify(shape(fields[rest]))) : undefined;
    const hash = rest.indexOf('#');
    if (hash !== -1 && (kind === 'list' || kind === 'map')) {
      const items = valueOf(kind, rest.slice(0, hash));
      const field = rest.slice(hash + 1);
      if (items === undefined) return undefined;
      return Array.isArray(items)
        ? sha256(JSON.stringify(items.map((item: unknown) => (isItem(item) ? ((item as Record<string, unknown>)[field] ?? null) : null))))
        : 'absent';
    }
    if (kind === 'map') {
      const [field, ...path] = rest.split('/');
      let value: unknown = fields[field!];
      if (!(value instanceof Map)) return undefined;
      for (const segment of path) {
        if (!(value instanceof Map)) return undefined;
        value = value.get(JSON.parse(decodeURIComponent(segment)));
      }
      return value === undefined ? 'absent' : sha256(JSON.stringify(shape(value)));
    }
    if (!ITEM_KIND_NAMES.has(kind)) return undefined;
    const item = byKey.get(key);
    return item ? sha256(JSON.stringify(item)) : 'absent';
  };
  return {
    digests: (wanted) => {
      const digests = new Map<string, string>();
      for (const key of wanted) {
        const digest = digestOf(key);
        if (digest !== undefined) digests.set(key, digest);
      }
      return digests;
    },
  };
}
