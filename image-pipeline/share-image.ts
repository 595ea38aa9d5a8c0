/** The image for Open Graph and JSON-LD: a picture's default JPEG (PNG with alpha) of the natural shape. */
import { fallbackFormat, mimeOf } from './encode.ts';
import type { Picture, ShareImage } from './types.ts';

export function shareImageOf(pic: Picture): ShareImage | null {
  if (!pic.ok) return null;
  return { src: pic.src, width: pic.width, height: pic.height, mime: mimeOf(fallbackFormat(pic.alpha)) };
}
