/**
 * Images inside upstream HTML: every `<img src>` that is a rendition URL of
 * one of the item's media gets a site-local copy (the WebPs of that rendition
 * and the narrower ones of its shape as `srcset`, the shape's one JPEG or PNG
 * as `src` for feed readers and mail clients), and the sanitizer gets a
 * synchronous lookup from the upstream `src` to the copy (null: drop the image).
 */
import { fallbackFormat } from './encode.ts';
import { defaultRendition, onePerWidth } from './roles.ts';
import { declaredOf } from './media-input.ts';
import type { CallOptions, ImagePipeline, InlineImage, MediaInput, MediaLists } from './types.ts';

/** Where a rendition URL comes from: its media item and the rendition's name. */
interface RenditionHit {
  media: MediaInput;
  name: string;
}

const IMG_SRC = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

const decodeEntities = (text: string) =>
  text.replace(
    /&(amp|quot|#39|apos|lt|gt);/g,
    (_m, e: string) => ({ amp: '&', quot: '"', '#39': "'", apos: "'", lt: '<', gt: '>' })[e] ?? _m,
  );

/** Lists this long or longer are looked up through an index made once per list (the site's library). */
const INDEXED_FROM = 16;

/** The `src` of every `<img>` in `html`, entities decoded, each once: the images `inlineImages` looks up. */
export function inlineImageSources(html: string): string[] {
  const wanted = new Set<string>();
  for (const m of html.matchAll(IMG_SRC)) wanted.add(decodeEntities((m[1] ?? m[2] ?? m[3] ?? '').trim()));
  return [...wanted];
}

/** Every rendition URL of a list's items → the first item that has it: the item `inlineImages` copies for that `src`. */
export function mediaByRenditionUrl<T extends MediaInput>(list: ReadonlyArray<T | null | undefined>): Map<string, T> {
  const index = new Map<string, T>();
  for (const media of list) {
    if (!media) continue;
    for (const { url } of declaredOf(media.sizes)) if (!index.has(url)) index.set(url, media);
  }
  return index;
}

/** Every rendition URL of a list's items → its first item and rendition name. */
function renditionIndex(list: ReadonlyArray<MediaInput | null | undefined>): Map<string, RenditionHit> {
  const index = new Map<string, RenditionHit>();
  for (const media of list) {
    if (!media) continue;
    for (const { name, url } of declaredOf(media.sizes)) if (!index.has(url)) index.set(url, { media, name });
  }
  return index;
}

export function createInlineImages(picture: ImagePipeline['picture']): ImagePipeline['inlineImages'] {
  // By list, for the build: every release page and feed item looks in the whole library (thousands
  // of items at 10,000 releases), and scanning it per body was the largest cost of rendering.
  // A list is indexed as it is when first asked; the site's lists do not change during a build.
  const indexes = new WeakMap<object, Map<string, RenditionHit>>();
  function find(src: string, lists: MediaLists): RenditionHit | undefined {
    for (const list of lists) {
      if (list.length >= INDEXED_FROM) {
        let index = indexes.get(list);
        if (!index) indexes.set(list, (index = renditionIndex(list)));
        const hit = index.get(src);
        if (hit) return hit;
        continue;
      }
      for (const media of list) {
        if (!media) continue;
        const rendition = declaredOf(media.sizes).find((d) => d.url === src);
        if (rendition) return { media, name: rendition.name };
      }
    }
    return undefined;
  }

  return async function inlineImages(
    html: string | Iterable<string>,
    lists: MediaLists,
    opts: CallOptions = {},
  ): Promise<(src: string) => InlineImage | null> {
    const wanted = new Set(typeof html === 'string' ? inlineImageSources(html) : html);
    const found = new Map<string, InlineImage>();
    await Promise.all(
      [...wanted].map(async (src) => {
        const hit = find(src, lists);
        if (!hit) return;
        const pic = await picture(hit.media, { page: opts.page, shape: 'natural' });
        if (!pic.ok) return;
        const r = pic.all.find((x) => x.names.includes(hit.name));
        if (!r) return;
        const shape = onePerWidth(pic.all.filter((x) => x.crop === r.crop));
        const fallback = defaultRendition(shape).files[fallbackFormat(pic.alpha)]!;
        const group = shape.filter((x) => x.width <= r.width && x.files.webp);
        found.set(src, {
          src: fallback,
          ...(group.length > 0 ? { srcset: group.map((x) => `${x.files.webp} ${x.width}w`).join(', ') } : {}),
          width: r.width,
          height: r.height,
        });
      }),
    );
    return (src: string) => found.get(src) ?? found.get(decodeEntities(src)) ?? null;
  };
}
