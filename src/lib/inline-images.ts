/**
 * Images inside upstream HTML (`<img>` in release bodies, pages, live updates)
 * point at the API's media host and must never be requested when a page is
 * viewed. Before sanitizing, a page asks the image pipeline for site-local
 * copies of them; the sanitizer then calls the returned `rewriteInlineImage(src)`
 * for each `<img>` and drops any image without a copy (and a figure left empty).
 */
import { inlineImages, type MediaLists } from './image-pipeline.ts';
import type { InlineImageRewriter } from './sanitize.ts';

/**
 * rewriteInlineImage for `html`: the pipeline copies every `<img src>` that is a rendition of an item
 * of `lists` (looked in in order; pass the site's library as the same array every time, it is indexed once).
 */
export async function inlineImageRewriter(html: string, lists: MediaLists, page: string): Promise<InlineImageRewriter> {
  if (!/<img\b/i.test(html)) return () => null;
  return inlineImages(html, lists, { page });
}
