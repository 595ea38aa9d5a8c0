/**
 * A release's body as its page shows it: read from the body store, inline images
 * replaced by the image pipeline's copies (src/lib/inline-images.ts), sanitized
 * last (src/lib/sanitize.ts). The page sets it with `set:html`; the feed item
 * (src/lib/feeds.ts) makes its links absolute, and the Markdown twin converts that.
 *
 * Made once for the page and the feed item, and let go by whichever asks second,
 * so the sanitizer runs once per release without the build holding every body.
 */
import { readBody } from '@pressroom-static/content-loaders';
import type { Release, SiteData } from './data.ts';
import { detached } from './detached.ts';
import { inlineImageRewriter } from './inline-images.ts';
import { sanitizeArticle } from './sanitize.ts';

const waiting = new WeakMap<Release, Promise<string>>();

/** The sanitized body of `release` (see the module comment). */
export function sanitizedBody(release: Release, site: SiteData): Promise<string> {
  const made = waiting.get(release);
  if (made) {
    waiting.delete(release);
    return made;
  }
  const body = sanitized(release, site);
  waiting.set(release, body);
  body.catch(() => waiting.delete(release));
  return body;
}

async function sanitized(release: Release, site: SiteData): Promise<string> {
  const storedBody = await readBody(release.body);
  const rewriteInlineImage = await inlineImageRewriter(storedBody, [release.featured_images, site.images], release.href);
  // Flat: the sanitizer's output is a tree of slices of the stored body, which kept every body whole
  // while it waited for its second taker (+80 MiB at 10,000 releases, the feeds rendering first).
  return detached(sanitizeArticle(storedBody, { rewriteInlineImage }));
}
