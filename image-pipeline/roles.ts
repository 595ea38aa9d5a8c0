/**
 * Which rendition serves which reader. Every current browser takes WebP from a
 * `srcset`; readers that cannot (feed readers, e-mail clients, social cards,
 * vCards) take the one `<img src>` of a shape, its default rendition. So every
 * rendition is a WebP, and only each shape's default also gets the fallback
 * format (JPEG, or PNG when the image has alpha).
 */

/** The default `src` is the widest rendition up to this width. */
export const DEFAULT_SRC_WIDTH = 1200;

interface Sized {
  width: number;
  height: number;
}

/** One rendition per width (a `srcset` lists each width once): the tallest of each, narrowest first. */
export function onePerWidth<T extends Sized>(renditions: readonly T[]): T[] {
  const byWidth = new Map<number, T>();
  for (const r of [...renditions].sort((a, b) => a.width - b.width || a.height - b.height)) byWidth.set(r.width, r);
  return [...byWidth.values()];
}

/** The rendition behind a shape's `src`: the widest up to DEFAULT_SRC_WIDTH, else the narrowest. */
export function defaultRendition<T extends Sized>(renditions: readonly T[]): T {
  return [...renditions].reverse().find((r) => r.width <= DEFAULT_SRC_WIDTH) ?? renditions[0]!;
}

/** The renditions that get a fallback-format file: the default of each shape (natural, square crop). */
export function fallbackRenditions<T extends Sized & { crop: boolean }>(renditions: readonly T[]): Set<T> {
  const defaults = new Set<T>();
  for (const crop of [false, true]) {
    const shape = onePerWidth(renditions.filter((r) => r.crop === crop));
    if (shape.length > 0) defaults.add(defaultRendition(shape));
  }
  return defaults;
}
