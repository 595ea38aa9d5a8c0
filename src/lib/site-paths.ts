/**
 * Site paths of releases, custom pages and tags. Each path is claimed once, in
 * that order; an unsafe or clashing permalink falls back to a path from the id,
 * and a path already taken gets no page.
 */
import type { CollectionEntry } from 'astro:content';
import type { CustomPage, Release, Tag } from './data.ts';
import { hrefOf, permalinkSegments, sitePath, tagHref } from './paths.ts';
import { readBody } from '@pressroom-static/content-loaders';
import { detached } from './detached.ts';
import { featuredOutsideBody } from './images.ts';
import { htmlToText } from './sanitize.ts';
import { newestFirst } from './site-indexes.ts';

type Claim = (href: string, what: string) => string | null;

const warned = new Set<string>();
function warn(message: string) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[pressroom-static] ${message}`);
}

/** Hands out each path once; a second claim is warned about and refused (null). */
export function createPathClaims(): Claim {
  const claimed = new Set<string>();
  return (href, what) => {
    if (claimed.has(href)) {
      warn(`${what}: path ${href} is already taken; it gets no page`);
      return null;
    }
    claimed.add(href);
    return href;
  };
}

/** The longest summary of a body the site writes (feeds: 300 characters) plus one, so `truncate` cuts it as it would the whole text. */
export const BODY_LEAD_CHARS = 301;

/** Releases newest first, each with its path and what the pages show of its body (its bodies are read once, here). */
export async function placeReleases(entries: CollectionEntry<'pressReleases'>[], claim: Claim): Promise<Release[]> {
  const placed: Array<{ data: CollectionEntry<'pressReleases'>['data']; href: string }> = [];
  for (const { data } of entries.sort((a, b) =>
    newestFirst<CollectionEntry<'pressReleases'>['data']>((r) => r.release_date)(a.data, b.data),
  )) {
    const segments = permalinkSegments(data.permalink);
    if (!segments)
      warn(
        `press release ${data.id}: permalink ${JSON.stringify(data.permalink)} is not a safe path; published at ${sitePath(`/${data.id}/`)}`,
      );
    const href = claim(segments ? hrefOf(segments) : sitePath(`/${data.id}/`), `press release ${data.id}`);
    if (href) placed.push({ data, href });
  }
  return Promise.all(
    placed.map(async ({ data, href }) => {
      const html = await readBody(data.body);
      const text = htmlToText(html);
      return {
        ...data,
        href,
        bodyLead: detached(text.slice(0, BODY_LEAD_CHARS)),
        wordCount: text.split(/\s+/).filter(Boolean).length,
        picturesOutsideBody: featuredOutsideBody(data.featured_images, html),
      };
    }),
  );
}

/** Custom pages in menu order, each with its path. */
export function placePages(entries: CollectionEntry<'pages'>[], claim: Claim): CustomPage[] {
  const pages: CustomPage[] = [];
  for (const { data } of entries.sort((a, b) => a.data.position - b.data.position || a.data.id - b.data.id)) {
    const segments = permalinkSegments(data.permalink, { allowFirst: ['pages'] });
    const fallback = /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(data.slug) ? sitePath(`/pages/${data.slug}/`) : sitePath(`/pages/${data.id}/`);
    if (!segments) warn(`page ${data.id}: permalink ${JSON.stringify(data.permalink)} is not a safe path; published at ${fallback}`);
    const href = claim(segments ? hrefOf(segments) : fallback, `page ${data.id}`);
    if (href) pages.push({ ...data, href });
  }
  return pages;
}

/** Tags by name in the press room's language, each with its path. */
export function placeTags(entries: CollectionEntry<'tags'>[], claim: Claim, language: string): Tag[] {
  return entries
    .map(({ data }) => ({ ...data, href: tagHref(data) }))
    .filter((tag) => claim(tag.href, `tag ${tag.slug}`) !== null)
    .sort((a, b) => a.name.localeCompare(b.name, language));
}
