/**
 * A release's body as its page shows it: read from the body store, inline images
 * replaced by the image pipeline's copies (src/lib/inline-images.ts), sanitized
 * last (src/lib/sanitize.ts), and its "images are in the media kit" made a link to
 * the release's pictures (`<release>#images`) or the media kits (src/lib/media-kit-mention.ts). The page sets it with `set:html`; the feed item
 * (src/lib/feeds.ts) makes its links absolute, and the Markdown twin converts that.
 *
 * Made once for the page and the feed item, and let go by whichever asks second,
 * so the sanitizer runs once per release without the build holding every body.
 */
import { readBody } from '@pressroom-static/content-loaders';
import type { Release, SiteData } from './data.ts';
import { detached } from './detached.ts';
import { awaitShared, shareWork, type SharedWork } from './route-record.ts';
import { hasPicture } from './images.ts';
import { inlineImageRewriter } from './inline-images.ts';
import { linkMediaKitMention } from './media-kit-mention.ts';
import { mediaKitsHref } from './paths.ts';
import { sanitizeArticle } from './sanitize.ts';

const waiting = new WeakMap<Release, SharedWork<Promise<string>>>();

/** The sanitized body of `release` (see the module comment); what it read is noted for both takers. */
export function sanitizedBody(release: Release, siteData: SiteData): Promise<string> {
  const made = waiting.get(release);
  if (made) {
    waiting.delete(release);
    return awaitShared(made);
  }
  const body = shareWork(() => sanitized(release, siteData));
  waiting.set(release, body);
  body.value.catch(() => waiting.delete(release));
  return awaitShared(body);
}

async function sanitized(release: Release, siteData: SiteData): Promise<string> {
  const storedBody = await readBody(release.body);
  const rewriteInlineImage = await inlineImageRewriter(storedBody, [release.featured_images], siteData, release.href);
  // Flat: the sanitizer's output is a tree of slices of the stored body, which kept every body whole
  // while it waited for its second taker (+80 MiB at 10,000 releases, the feeds rendering first).
  const body = withMediaKitLink(storedBody, release, siteData);
  return detached(sanitizeArticle(body, { rewriteInlineImage }));
}

/** The body with its mention of the media kit linked to the release's pictures, else the media kits; before sanitizing, like all of it. */
function withMediaKitLink(html: string, release: Release, siteData: SiteData): string {
  const pictures = release.featured_images.some(hasPicture) ? `${release.href}#${RELEASE_PICTURES_ID}` : null;
  const target = pictures ?? (siteData.mediaKits.length > 0 ? mediaKitsHref : null);
  return target ? linkMediaKitMention(html, target) : html;
}

/** The id of a release page's pictures (the section with their downloads, else the lead picture). */
export const RELEASE_PICTURES_ID = 'images';
