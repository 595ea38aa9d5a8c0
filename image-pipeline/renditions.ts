/**
 * Renditions: which outputs an original's declared sizes become (one per
 * distinct geometry, a WebP each and the fallback format only where a reader
 * needs it, `roles.ts`; named by a hash of the source bytes, the geometry, the
 * rasters it is resized through and the encoding parameters), and making the
 * missing ones from one decode of the original (`cascade.ts`), all through the
 * sharp job limiter, raw pixels in flight bounded by bytes.
 */
import { createByteBudget } from './byte-budget.ts';
import { rm } from 'node:fs/promises';
import { baseGeometry, decodeBase, derive, fromRaster, parentOf, rasterBytes, rasterFile, type Raster } from './cascade.ts';
import {
  ENCODER_SETTINGS,
  ENCODER_VERSION,
  ENCODERS,
  WEBP_MAX_SIDE,
  extensionOf,
  fallbackFormat,
  renditionGeometry,
  shownGeometry,
  type Declared,
  type Geometry,
  type OutputFormat,
} from './encode.ts';
import { hash16, type Outputs } from './outputs.ts';
import { fallbackRenditions } from './roles.ts';
import { SharedStoreError } from './shared-store.ts';
import type { Source } from './sources.ts';
import type { Store } from './store.ts';
import type { Limit, PipelineStats, SharedRenditionStore } from './types.ts';

/** One output file of a rendition. */
export interface PlannedOutput {
  format: OutputFormat;
  /** Output name under `out/` and `_media/`. */
  name: string;
}

/** One rendition to make: its geometry, the declared names it serves, one output per format. */
export interface Planned {
  geometry: Geometry;
  /**
   * The renditions it is resized through, largest first: the first resized from the base, each
   * next from the one before, the last its own source (`parentOf`). Empty when resized from the base.
   */
  via: Geometry[];
  names: string[];
  outputs: PlannedOutput[];
}

/** Every rendition of one original at its declared sizes, and the raster they are all resized from. */
export interface Plan {
  base: Geometry;
  renditions: Planned[];
}

export interface Renditions {
  /** The renditions `declared` asks of `src`, one per distinct geometry. */
  plan(src: Source, declared: Declared[]): Plan;
  /** Makes sure every output of a plan exists in the cache: one decode of the original when any is missing. */
  realise(src: Source, plan: Plan): Promise<void>;
  /** Takes into the cache every output of a plan the shared store holds and the cache lacks; encodes nothing. */
  take(src: Source, plan: Plan): Promise<void>;
}

export interface RenditionsContext {
  store: Store;
  stats: PipelineStats;
  outputs: Outputs;
  /** The sharp job limiter. */
  cpu: Limit;
  maxPixels: number;
  /** Raw pixel bytes held at once by renditions between their decode and their last encode. */
  maxRawBytes: number;
  avif: boolean;
  /** Outputs missing from the cache are taken from here, when it has them, before any is encoded. */
  shared?: SharedRenditionStore | undefined;
  /** See `ImagePipelineOptions.awaitShared`. */
  awaitShared?: ((url: string) => Promise<void>) | undefined;
}

/** Whether a rendition is the base itself (encoded from the decode, no resize). */
const isBase = (g: Geometry, base: { width: number; height: number }) => !g.crop && g.width === base.width && g.height === base.height;

const sizeKey = (g: Geometry) => `${g.width}x${g.height}${g.crop ? 'c' : ''}`;

/** The renditions `g` is resized through, from the base down (`Planned.via`). */
function chainOf(g: Geometry, naturals: readonly Geometry[], base: Geometry): Geometry[] {
  const via: Geometry[] = [];
  for (let parent = parentOf(g, naturals, base); parent !== base; parent = parentOf(parent, naturals, base)) via.unshift(parent);
  return via;
}

export function createRenditions(context: RenditionsContext): Renditions {
  const { store, stats, outputs, cpu, maxPixels, maxRawBytes, avif, shared, awaitShared } = context;
  const budget = createByteBudget(maxRawBytes);
  // Plans by source and declared sizes: every page showing an image plans it again, and hashing is the cost.
  const plans = new Map<string, Plan>();
  // Each output is taken from the shared store at most once a build, whoever asks (a page, or `take` while the workers run).
  const takes = new Map<string, Promise<boolean>>();
  const takenEarlier = new Set<string>();

  function plan(src: Source, declared: Declared[]): Plan {
    const key = `${src.sha256} ${JSON.stringify(declared.map((d) => [d.name, d.width, d.height]))}`;
    let known = plans.get(key);
    if (!known) plans.set(key, (known = planOf(src, declared)));
    return known;
  }

  function planOf(src: Source, declared: Declared[]): Plan {
    const alpha = !!src.hasAlpha;
    const byGeometry = new Map<string, { geometry: Geometry; names: string[] }>();
    for (const d of declared) {
      // Sizes are planned from the measured original: declared sizes may be missing or larger than it.
      const geometry = shownGeometry(renditionGeometry(d, src.width!, src.height!));
      const key = sizeKey(geometry);
      const existing = byGeometry.get(key);
      if (existing) existing.names.push(d.name);
      else byGeometry.set(key, { geometry, names: [d.name] });
    }
    const geometries = [...byGeometry.values()].map((r) => r.geometry);
    const base = baseGeometry(geometries, src.width!, src.height!);
    const withFallback = fallbackRenditions(geometries);
    const naturals = geometries.filter((g) => !g.crop);
    const renditions = [...byGeometry.values()].map(({ geometry, names }) => {
      const via = isBase(geometry, base) ? [] : chainOf(geometry, naturals, base);
      return { geometry, via, names, outputs: plannedOutputs(src, geometry, [base, ...via], withFallback.has(geometry), alpha) };
    });
    return { base, renditions };
  }

  function plannedOutputs(src: Source, geometry: Geometry, from: Geometry[], fallback: boolean, alpha: boolean): PlannedOutput[] {
    const formats: OutputFormat[] = [];
    const webp = geometry.width <= WEBP_MAX_SIDE && geometry.height <= WEBP_MAX_SIDE;
    if (avif) formats.push('avif');
    if (webp) formats.push('webp');
    if (fallback || !webp) formats.push(fallbackFormat(alpha));
    return formats.map((format) => {
      const h = hash16(
        ENCODER_VERSION,
        src.sha256,
        geometry.width,
        geometry.height,
        geometry.crop,
        format,
        JSON.stringify(ENCODER_SETTINGS[format]),
        `from ${from.map(sizeKey).join(' ')}`,
      );
      return { format, name: `${h}-${geometry.width}x${geometry.height}.${extensionOf(format)}` };
    });
  }

  function realise(src: Source, p: Plan): Promise<void> {
    const all = p.renditions.flatMap((r) => r.outputs.map((o) => o.name));
    return outputs.once(all.join(' '), async () => {
      const lefts: PlannedOutput[][] = [];
      for (const r of p.renditions) {
        const left: PlannedOutput[] = [];
        for (const o of r.outputs) {
          // Taken from the shared store earlier in this build: counted there, not as reused.
          if (await store.exists(store.outPath(o.name))) stats.reused += takenEarlier.has(o.name) ? 0 : 1;
          else left.push(o);
        }
        lefts.push(left);
      }
      if (shared && lefts.some((left) => left.length > 0)) {
        await sharedReady(src.url);
        await Promise.all(lefts.map((left) => takeFromShared(shared, left)));
      }
      const missing: Planned[] = p.renditions.flatMap((r, i) => (lefts[i]!.length > 0 ? [{ ...r, outputs: lefts[i]! }] : []));
      const count = missing.reduce((n, r) => n + r.outputs.length, 0);
      stats.toEncode += count;
      if (count === 0) return;
      // The base and every raster resized from it (the missing renditions and those they are resized through) are held until the last encode.
      const alpha = !!src.hasAlpha;
      const resized = new Map<string, Geometry>();
      for (const r of missing) {
        for (const g of [...r.via, r.geometry]) if (!isBase(g, p.base)) resized.set(sizeKey(g), g);
      }
      const bytes = rasterBytes(p.base, alpha) + [...resized.values()].reduce((n, g) => n + rasterBytes(g, alpha), 0);
      await budget.run(bytes, () => {
        stats.peakRawBytes = budget.peak();
        return encode(src, p.base, missing);
      });
    });
  }

  /** Resolves once the shared store has what it will get of `url`'s renditions; its failure is the build's, never a refused image. */
  async function sharedReady(url: string): Promise<void> {
    if (!awaitShared) return;
    try {
      await awaitShared(url);
    } catch (error) {
      throw error instanceof SharedStoreError ? error : new SharedStoreError(error instanceof Error ? error.message : String(error));
    }
  }

  /** Copies into the cache every output of `left` the shared store has, and leaves in `left` only those it has not. */
  async function takeFromShared(from: SharedRenditionStore, left: PlannedOutput[]): Promise<void> {
    const taken = await Promise.all(left.map((o) => takeOne(from, o.name)));
    const kept = left.filter((_, i) => !taken[i]);
    left.splice(0, left.length, ...kept);
  }

  /** The output `name` copied from the shared store into the cache, once a build; false when the store has none. */
  function takeOne(from: SharedRenditionStore, name: string): Promise<boolean> {
    let taking = takes.get(name);
    if (!taking) {
      taking = (async () => {
        const tmp = await store.tmpPath(name);
        if (!(await from.get(name, tmp))) return false;
        await store.commit(tmp, store.outPath(name));
        stats.fromStore++;
        return true;
      })();
      takes.set(name, taking);
      // A failure is the build's (SharedStoreError): nothing to remember; absent stays absent (a later job may still put it).
      void taking.then(
        (got) => (got ? undefined : takes.delete(name)),
        () => takes.delete(name),
      );
    }
    return taking;
  }

  async function take(src: Source, p: Plan): Promise<void> {
    if (!shared) return;
    const names = p.renditions.flatMap((r) => r.outputs.map((o) => o.name));
    await Promise.all(
      names.map(async (name) => {
        if (!(await store.exists(store.outPath(name))) && (await takeOne(shared, name))) takenEarlier.add(name);
      }),
    );
  }

  async function encode(src: Source, base: Geometry, missing: Planned[]): Promise<void> {
    const files: string[] = [];
    const fileFor = async (g: Geometry) => {
      const file = rasterFile(await store.tmpPath(`raster-${sizeKey(g)}`));
      files.push(file);
      return file;
    };
    try {
      await encodeFromFiles(src, base, missing, fileFor);
    } finally {
      await Promise.all(files.map((file) => rm(file, { force: true })));
    }
  }

  async function encodeFromFiles(
    src: Source,
    base: Geometry,
    missing: Planned[],
    fileFor: (g: Geometry) => Promise<string>,
  ): Promise<void> {
    const baseFile = await fileFor(base);
    const raster = await cpu(() => {
      stats.sharpOps++;
      stats.decodes++;
      return decodeBase(src.path, base, { maxPixels }, baseFile);
    });
    // Each raster resized once, from the one before it in its chain (`Planned.via`).
    const rasters = new Map<string, Promise<Raster>>();
    const rasterOf = (chain: Geometry[]): Promise<Raster> => {
      const g = chain.at(-1);
      if (!g || isBase(g, raster)) return Promise.resolve(raster);
      let made = rasters.get(sizeKey(g));
      if (!made) {
        const from = Promise.all([rasterOf(chain.slice(0, -1)), fileFor(g)]);
        made = from.then(([parent, file]) =>
          cpu(() => {
            stats.sharpOps++;
            return derive(parent, g, file);
          }),
        );
        rasters.set(sizeKey(g), made);
      }
      return made;
    };
    // Each resize and each encode is its own job, so the renditions of one original run on every core.
    await Promise.all(
      missing.map(async (r) => {
        const pixels = await rasterOf([...r.via, r.geometry]);
        await Promise.all(r.outputs.map((o) => cpu(() => encodeOne(pixels, o))));
      }),
    );
  }

  async function encodeOne(pixels: Raster, o: PlannedOutput): Promise<void> {
    stats.sharpOps++;
    await outputs.write(o.name, (tmp) => ENCODERS[o.format](fromRaster(pixels)).toFile(tmp));
    stats.encoded++;
  }

  return { plan, realise, take };
}
