/**
 * `picture()`: an item's `sizes` → its original → every declared rendition
 * made and published → what `<picture>` needs (a `srcset` per format, the
 * default `src`, width and height), or a placeholder of the right shape when
 * there is no image or it was refused.
 */
import { fallbackFormat as fallbackOf, mimeOf, type Declared, type OutputFormat } from './encode.ts';
import { RefusedError, asRefusal } from './errors.ts';
import { declaredOf, originalOf } from './media-input.ts';
import type { Publisher } from './publish.ts';
import { SharedStoreError } from './shared-store.ts';
import type { Refusals } from './refusals.ts';
import type { Renditions } from './renditions.ts';
import { defaultRendition, onePerWidth } from './roles.ts';
import type { Source, Sources } from './sources.ts';
import type { Store } from './store.ts';
import type { ImagePipeline, MediaInput, Picture, PictureOptions, PictureRendition } from './types.ts';

export interface PictureContext {
  store: Store;
  sources: Sources;
  renditions: Renditions;
  refusals: Refusals;
  publisher: Publisher;
  avif: boolean;
}

function placeholder(status: 'missing' | 'refused', reason: string, declared: Declared[]): Picture {
  const largest = declared.filter((d) => d.width > 0 && d.height > 0).sort((a, b) => b.width * b.height - a.width * a.height)[0];
  return { ok: false, status, reason, width: largest?.width, height: largest?.height };
}

/** A decode failure as the refusal a reader understands (cut off, or cannot be decoded). */
function decodeRefusal(error: unknown): RefusedError {
  const refusal = asRefusal(error);
  if (refusal.kind === 'broken' && /premature|truncat|end of|unexpected end|short/i.test(refusal.message)) {
    return new RefusedError('truncated', `the image is cut off (${refusal.message})`);
  }
  if (refusal.kind === 'broken') return new RefusedError('broken', `the image cannot be decoded (${refusal.message})`);
  return refusal;
}

interface ReadSizes {
  declared: Declared[];
  url: string | undefined;
  /** Original and declared sizes: with the shape, what a picture is made from. */
  key: string;
}

function readSizes(sizes: MediaInput['sizes']): ReadSizes {
  const declared = declaredOf(sizes);
  const url = originalOf(sizes);
  return { declared, url, key: `${url} ${JSON.stringify(declared)}` };
}

export function createPicture(ctx: PictureContext): ImagePipeline['picture'] {
  const { refusals } = ctx;
  // One picture per original, declared sizes and shape a build: listings show the same image on many pages.
  const made = new Map<string, Promise<Picture | RefusedError>>();
  // The same media items are asked for on many pages (a build's data is one set of objects): their
  // sizes are read once (1.4 s of a 10,000-release build's route generation when read every time).
  const read = new WeakMap<object, ReadSizes>();
  const sizesOf = (sizes: MediaInput['sizes']): ReadSizes => {
    if (!sizes || typeof sizes !== 'object') return readSizes(sizes);
    let known = read.get(sizes);
    if (!known) read.set(sizes, (known = readSizes(sizes)));
    return known;
  };
  return async function picture(media: MediaInput | null | undefined, opts: PictureOptions = {}): Promise<Picture> {
    const { declared, url, key: sizesKey } = sizesOf(media?.sizes);
    if (!url) return placeholder('missing', 'no image', declared);
    const shape = opts.shape ?? 'auto';
    const key = `${shape} ${sizesKey}`;
    let result = made.get(key);
    if (!result) made.set(key, (result = pictureOf(ctx, url, declared, shape)));
    const outcome = await result;
    if (!(outcome instanceof RefusedError)) return outcome;
    // Every page that asks is named in the refusal report.
    refusals.refuse(url, opts.page, outcome);
    return placeholder('refused', outcome.message, declared);
  };
}

/** The picture of one original at its declared sizes, or why it was refused. */
async function pictureOf(
  ctx: PictureContext,
  url: string,
  declared: Declared[],
  shape: NonNullable<PictureOptions['shape']>,
): Promise<Picture | RefusedError> {
  const { store, publisher } = ctx;
  let src: Source;
  try {
    src = await ctx.sources.source(url, 'image');
  } catch (error) {
    return asRefusal(error);
  }
  // `url` is one of the declared renditions' URLs, so `declared` is never empty here.
  const plan = ctx.renditions.plan(src, declared);
  try {
    await ctx.renditions.realise(src, plan);
  } catch (error) {
    // An unreachable shared store is the build's failure, not a fault of this image.
    if (error instanceof SharedStoreError) throw error;
    const refusal = decodeRefusal(error);
    // Only bytes that are there and fail to decode are remembered as broken; a source file that
    // went missing (removed from a shared cache mid-build) is fetched again by the next build.
    if (await store.exists(src.path)) await ctx.sources.markBroken(src, 'image', refusal).catch(() => undefined);
    return refusal;
  }
  const all: PictureRendition[] = plan.renditions
    .map((p) => ({
      names: p.names,
      width: p.geometry.width,
      height: p.geometry.height,
      crop: p.geometry.crop,
      files: Object.fromEntries(
        p.outputs.map((o) => [o.format, publisher.publish(o.name, store.outPath(o.name))]),
      ) as PictureRendition['files'],
    }))
    .sort((a, b) => a.width - b.width || a.height - b.height);
  const crops = all.filter((r) => r.crop).length;
  const wantSquare = shape === 'square' || (shape === 'auto' && crops > all.length - crops);
  let chosen = all.filter((r) => r.crop === wantSquare);
  if (chosen.length === 0) chosen = all;
  const renditions = onePerWidth(chosen);
  const alpha = !!src.hasAlpha;
  const fallbackFormat = fallbackOf(alpha);
  const srcset = (format: OutputFormat) =>
    renditions
      .filter((r) => r.files[format])
      .map((r) => `${r.files[format]} ${r.width}w`)
      .join(', ');
  const modern: OutputFormat[] = ctx.avif ? ['avif', 'webp'] : ['webp'];
  const sources = modern.map((f) => ({ type: mimeOf(f), srcset: srcset(f) })).filter((s) => s.srcset !== '');
  const def = defaultRendition(renditions);
  return {
    ok: true,
    src: def.files[fallbackFormat]!,
    width: def.width,
    height: def.height,
    sources,
    fallback: { type: mimeOf(fallbackFormat), srcset: srcset(fallbackFormat) },
    renditions,
    all,
    alpha,
  };
}
