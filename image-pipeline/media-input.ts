/**
 * Reading what a media item declares: its renditions (names and sizes), the
 * URL of its original, and the file URL of a document, sound or movie.
 */
import { originalUrlOf } from '@pressroom-static/content-loaders';
import { parseDimension, type Declared } from './encode.ts';
import type { MediaInput, MediaItemInput, RenditionInput } from './types.ts';

/** A declared rendition; a width or height the API did not give (null, missing, not a number) is 0. */
export interface DeclaredRendition extends Declared {
  url: string;
}

export function declaredOf(sizes: MediaInput['sizes']): DeclaredRendition[] {
  const out: DeclaredRendition[] = [];
  for (const [name, r] of Object.entries(sizes ?? {})) {
    if (!r || typeof r.url !== 'string') continue;
    const width = parseDimension(r.width);
    const height = parseDimension(r.height);
    out.push({ name, url: r.url, width: width ?? 0, height: height ?? 0 });
  }
  return out;
}

/** The original URL of a `sizes` object: the loaders' own rule (media-urls.ts), so snapshots hold exactly these. */
export function originalOf(sizes: MediaInput['sizes']): string | undefined {
  if (!sizes) return undefined;
  const clean: Record<string, RenditionInput> = {};
  for (const [name, r] of Object.entries(sizes)) if (r && typeof r.url === 'string') clean[name] = r;
  const url = originalUrlOf(clean);
  // `file:` only reaches a picture when it is one of the site's own files (`localOriginals`); any other is refused by the host policy.
  return url && /^(?:https?:\/\/|file:\/\/\/)/i.test(url) ? url : undefined;
}

/** The file URL of a document, sound or movie (the same keys media-urls.ts records). */
export function fileUrlOf(item: MediaItemInput): string | undefined {
  const candidates = item.type === 'movie' ? [item.mp4_url, item.url, item.webm_url] : [item.url, item.mp4_url, item.webm_url];
  return candidates.find((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u));
}
