/** A movie's poster frame for `<video poster>`: the WebP of its picture's default rendition. */
import { defaultRendition } from './roles.ts';
import type { Picture, Poster } from './types.ts';

export function posterOf(pic: Picture): Poster | null {
  if (!pic.ok) return null;
  const def = defaultRendition(pic.renditions);
  return { src: def.files.webp ?? pic.src, width: def.width, height: def.height, picture: pic };
}
