/**
 * Which files behind a press room's data are originals worth keeping: the
 * `original` rendition of every `sizes`-like object (or its largest rendition
 * when there is no original), the files of documents, sounds and movies,
 * release PDFs and the logo. Article links and embeds are never included.
 */

/** Media types whose item is a downloadable file (not just a picture). */
export const FILE_TYPES: ReadonlySet<string> = new Set(['document', 'sound', 'movie']);
const FILE_KEYS = ['url', 'mp4_url', 'webm_url'] as const;

interface RenditionLike {
  url?: unknown;
  width?: unknown;
  height?: unknown;
}

/** A rendition with a file (`{url, width, …}`). */
function isRendition(value: unknown): value is RenditionLike & { url: string } {
  return isRenditionShape(value) && typeof value.url === 'string';
}

/** Shaped like a rendition; older answers send `url: null` for one with no file. */
function isRenditionShape(value: unknown): value is RenditionLike {
  return (
    !!value &&
    typeof value === 'object' &&
    'url' in value &&
    'width' in value &&
    ((value as RenditionLike).url === null || typeof (value as RenditionLike).url === 'string')
  );
}

/** A `sizes`-like object: named renditions (`{url, width, …}`) of which at least one has a file, nulls allowed, nothing else. */
function isRenditionSet(record: Record<string, unknown>): boolean {
  const values = Object.values(record);
  return values.length > 0 && values.some(isRendition) && values.every((v) => v === null || isRenditionShape(v));
}

/**
 * The original of a `sizes` object: its `original` rendition, else its
 * largest; undefined when the object is not a set of renditions. The image
 * pipeline downloads exactly this URL, and snapshots record exactly this URL.
 */
export function originalUrlOf(renditions: Record<string, unknown>): string | undefined {
  if (!isRenditionSet(renditions)) return undefined;
  const entries = Object.entries(renditions).filter((entry): entry is [string, RenditionLike & { url: string }] => isRendition(entry[1]));
  const original = entries.find(([name]) => name === 'original');
  if (original) return original[1].url;
  const area = (r: RenditionLike) => Number(r.width) * Number(r.height) || 0;
  return entries.sort((a, b) => area(b[1]) - area(a[1]))[0]![1].url;
}

const isHttp = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//i.test(value);

/** Every original media URL in a JSON value, in first-seen order, without duplicates. */
export function mediaOriginalUrls(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) mediaOriginalUrls(item, into);
    return into;
  }
  if (!value || typeof value !== 'object') return into;
  const record = value as Record<string, unknown>;
  if (isRenditionSet(record)) {
    const url = originalUrlOf(record);
    if (url && isHttp(url)) into.add(url);
    return into;
  }
  if (typeof record.type === 'string' && FILE_TYPES.has(record.type)) {
    for (const key of FILE_KEYS) if (isHttp(record[key])) into.add(record[key]);
  }
  if (isHttp(record.pdf)) into.add(record.pdf);
  if (isHttp(record.original_url)) into.add(record.original_url);
  for (const [key, child] of Object.entries(record)) {
    if (key !== 'pdf' && child && typeof child === 'object') mediaOriginalUrls(child, into);
  }
  return into;
}
