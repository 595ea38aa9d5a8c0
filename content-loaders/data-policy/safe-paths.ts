/**
 * Rescues for paths the API sent that cannot be used safely (one that would
 * climb out of the site, an empty one, one with `?`, `#` or control
 * characters): the item is published at a path made from its id and its
 * title instead, in the form the hosted newsroom uses (`/<id>-<slug>`).
 */
import { slugify } from '../slug.ts';
import type { Rescue } from './repair.ts';

/** The slug of a title (content-loaders/slug.ts), at most `max` characters, possibly empty. */
export function slugOf(title: unknown, max = 80): string {
  return typeof title === 'string' ? slugify(title, max) : '';
}

/** `<id>-<slug of the title>`, or the id alone when the title gives no slug. */
export function idSlug(item: Record<string, unknown>): string | undefined {
  const id = item.id;
  if ((typeof id !== 'number' || !Number.isInteger(id)) && (typeof id !== 'string' || !/^\d+$/.test(id.trim()))) return undefined;
  const slug = slugOf(item.title ?? item.name);
  return slug ? `${String(id).trim()}-${slug}` : String(id).trim();
}

/**
 * A permalink rescue: `<prefix>/<id>-<slug>`, e.g. `/123-quarterly-results` or `/clippings/5-award`.
 * The unusable value is kept as `unusable_permalink` (a string, or null), so the site can put a
 * redirect page where a browser would land when following the hosted newsroom's old link.
 */
export function safePermalink(prefix = ''): Rescue {
  return (item) => {
    const segment = idSlug(item);
    if (!segment) return undefined;
    const value = `${prefix}/${segment}`;
    const unusable = typeof item.permalink === 'string' && item.permalink !== '' ? item.permalink : null;
    return { value, replacement: `published at ${value}`, also: { unusable_permalink: unusable } };
  };
}

/** A slug rescue (pages, tags): the title's slug, else the id. */
export const safeSlug: Rescue = (item) => {
  const slug = slugOf(item.title ?? item.name);
  const value = slug || (item.id === undefined || item.id === null ? '' : String(item.id));
  return value ? { value, replacement: `slug ${JSON.stringify(value)} used instead` } : undefined;
};
