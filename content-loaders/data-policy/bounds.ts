/**
 * Bounds on what one item may bring into a build, so that no single value
 * multiplies the work or the output: a 10 MB title would be an 82 MB page and
 * an 8.5 MB feed, 50,000 tags on one release a landing page and three feeds
 * per tag, each carrying that release with all 50,000 categories. An item
 * over a bound is cut to it (at a word, with an ellipsis) and published, with
 * one warning naming the field; the bounds are far above anything a real
 * press room sends.
 */
import { shown, type DataWarning } from './issues.ts';
import { itemIdOf, type Where } from './repair.ts';

/** Longest plain-text field, in characters, by field name. */
export const TEXT_BOUNDS: Readonly<Record<string, number>> = {
  title: 500,
  name: 500,
  subtitle: 1_000,
  summary: 5_000,
  social_media_pitch: 5_000,
};
/**
 * Longest HTML field, in characters: a 20 MB body took a build to ~3 GB, most of it the search
 * indexer reading that one page; this bounds the page, its feed items, its Markdown twin and the
 * text the indexer is given alike. Cut after the last tag that ends before the bound (the sanitizer
 * closes what is left open).
 */
export const HTML_BOUNDS: Readonly<Record<string, number>> = { body_html: 1_000_000 };
/** Most tags one item carries into the site. */
export const MAX_TAGS_PER_ITEM = 100;
/** Most tags one press room publishes (each is a landing page and three feeds, and the API is asked to count each). */
export const MAX_TAGS = 2_000;

/** `text` cut to `max` characters at a word where one is near, with an ellipsis. */
export function cutText(text: string, max: number): string {
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** `raw` within the bounds; each cut is reported as one warning. */
export function boundItem(raw: Record<string, unknown>, where: Where, report: (warning: DataWarning) => void): Record<string, unknown> {
  let item = raw;
  const replaced = (field: string, value: unknown, reason: string, replacement: string, next: unknown) => {
    // Shown shortened anyway: never stringify ten megabytes for a log line.
    const head = typeof value === 'string' ? value.slice(0, 100) : value;
    report({ kind: 'field-replaced', ...where, itemId: itemIdOf(raw), field, value: shown(head), reason, replacement });
    item = { ...item, [field]: next };
  };
  for (const [field, max] of Object.entries(TEXT_BOUNDS)) {
    const value = item[field];
    if (typeof value === 'string' && value.length > max)
      replaced(
        field,
        value,
        `${value.length.toLocaleString('en')} characters, more than ${max.toLocaleString('en')}`,
        `cut to ${max} characters`,
        cutText(value, max),
      );
  }
  for (const [field, max] of Object.entries(HTML_BOUNDS)) {
    const value = item[field];
    if (typeof value === 'string' && value.length > max) {
      const end = value.lastIndexOf('>', max - 1) + 1;
      replaced(
        field,
        `(${value.length} characters of HTML)`,
        `${value.length.toLocaleString('en')} characters, more than ${max.toLocaleString('en')}`,
        `cut to its first ${max.toLocaleString('en')} characters`,
        value.slice(0, end > 0 ? end : max),
      );
    }
  }
  const tags = item.tags;
  if (Array.isArray(tags) && tags.length > MAX_TAGS_PER_ITEM)
    replaced(
      'tags',
      `(${tags.length} tags)`,
      `${tags.length.toLocaleString('en')} tags, more than ${MAX_TAGS_PER_ITEM}`,
      `the first ${MAX_TAGS_PER_ITEM} are kept`,
      tags.slice(0, MAX_TAGS_PER_ITEM),
    );
  return item;
}
