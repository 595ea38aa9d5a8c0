/**
 * Images inside upstream HTML: every `<img src>` that is a rendition URL of
 * one of the item's media gets a site-local copy (that rendition and the
 * narrower ones of its shape as `srcset`), and the sanitizer gets a
 * synchronous lookup from the upstream `src` to the copy (null: drop the image).
 */
import { fallbackFormat } from './encode.ts';
import type { CallOptions, ImagePipeline, InlineImage, MediaInput } from './types.ts';

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

export function createInlineImages(picture: ImagePipeline['picture']): ImagePipeline['inlineImages'] {
  /** Per media item (kept for the build): rendition URL → rendition name. */
  const renditionNames = new WeakMap<MediaInput, Map<string, string>>();
  const namesOf = (m: MediaInput): Map<string, string> => {
    let names = renditionNames.get(m);
    if (!names) {
      names = new Map();
      for (const [name, r] of Object.entries(m.sizes ?? {}))
        if (r && typeof r.url === 'string' && !names.has(r.url)) names.set(r.url, name);
      renditionNames.set(m, names);
    }
    return names;
  };
  /** The first media item of the list each wanted URL is a rendition of (callers pass a fresh list per page). */
  function findRenditions(wanted: ReadonlySet<string>, media: Iterable<MediaInput | null | undefined>): Map<string, RenditionHit> {
    const hits = new Map<string, RenditionHit>();
    if (wanted.size === 0) return hits;
    for (const m of media) {
      if (!m) continue;
      const names = namesOf(m);
      for (const src of wanted) {
        const name = hits.has(src) ? undefined : names.get(src);
        if (name !== undefined) hits.set(src, { media: m, name });
      }
      if (hits.size === wanted.size) break;
    }
    return hits;
  }

  return async function inlineImages(
    html: string | Iterable<string>,
    media: Iterable<MediaInput | null | undefined>,
    opts: CallOptions = {},
  ): Promise<(src: string) => InlineImage | null> {
    const wanted = new Set<string>();
    if (typeof html === 'string') {
      for (const m of html.matchAll(IMG_SRC)) wanted.add(decodeEntities((m[1] ?? m[2] ?? m[3] ?? '').trim()));
    } else {
      for (const src of html) wanted.add(src);
    }
    const index = findRenditions(wanted, media);
    const found = new Map<string, InlineImage>();
    await Promise.all(
      [...wanted].map(async (src) => {
        const hit = index.get(src);
        if (!hit) return;
        const pic = await picture(hit.media, { page: opts.page, shape: 'natural' });
        if (!pic.ok) return;
        const r = pic.all.find((x) => x.names.includes(hit.name));
        if (!r) return;
        const format = fallbackFormat(pic.alpha);
        const group = pic.all.filter((x) => x.crop === r.crop && x.width <= r.width && x.files[format]);
        found.set(src, {
          src: r.files[format]!,
          srcset: group.map((x) => `${x.files[format]} ${x.width}w`).join(', '),
          width: r.width,
          height: r.height,
        });
      }),
    );
    return (src: string) => found.get(src) ?? found.get(decodeEntities(src)) ?? null;
  };
}
