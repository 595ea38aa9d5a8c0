/**
 * Images inside upstream HTML (`<img>` in release bodies, pages, live updates)
 * point at the API's media host and must never be requested when a page is
 * viewed. Before sanitizing, a page asks the image pipeline for site-local
 * copies of them; the sanitizer then calls the returned `rewriteInlineImage(src)`
 * for each `<img>` and drops any image without a copy (and a figure left empty).
 *
 * What the page depends on is noted per image (src/lib/route-record.ts): for each `<img src>`, the
 * library item that has that rendition URL (or that none has it), not the whole library, so a new
 * library image re-renders only the pages whose HTML already names one of its URLs.
 */
import { inlineImageSources, mediaByRenditionUrl, type MediaInput } from '@pressroom-static/image-pipeline';
import { inlineImages, type MediaLists } from './image-pipeline.ts';
import { lookupKey, withoutRecording } from './route-record.ts';
import type { InlineImageRewriter } from './sanitize.ts';

const noteLibraryImage = lookupKey('libraryImageByUrl', (site) => mediaByRenditionUrl((site as { images: MediaInput[] }).images));

/** Notes what `html`'s inline images depend on, the library entry each `<img src>` names (or that none does), and gives those sources. */
export function noteInlineImages(html: string): string[] {
  const sources = inlineImageSources(html);
  for (const src of sources) noteLibraryImage(src);
  return sources;
}

/**
 * rewriteInlineImage for `html`: the pipeline copies every `<img src>` that is a rendition of an item
 * of `own` (the page's own media, read by the caller; looked in in order) or else of the site's library.
 */
export async function inlineImageRewriter(
  html: string,
  own: MediaLists,
  siteData: { readonly images: ReadonlyArray<MediaInput> },
  page: string,
): Promise<InlineImageRewriter> {
  if (!/<img\b/i.test(html)) return () => null;
  const sources = noteInlineImages(html);
  // The library is the same array every time (the pipeline indexes it once); the reads of indexing it,
  // and of the item each source finds, are what the keys above stand for.
  return withoutRecording(() => inlineImages(sources, [...own, siteData.images], { page }));
}
