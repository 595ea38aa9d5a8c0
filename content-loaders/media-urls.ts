/**
 * Which files behind a press room's data are originals worth keeping: the
 * `original` rendition of every `sizes`-like object (or its largest rendition
 * when there is no original), the files of documents, sounds and movies,
 * release PDFs and the logo. Article links and embeds are never included.
 */

const FILE_TYPES = new Set(['document', 'sound', 'movie']);
const FILE_KEYS = ['url', 'mp4_url', 'webm_url'] as const;

interface RenditionLike {
  url?: unknown;
  width?: unknown;
  height?: unknown;
}

function isRendition(value: unknown): value is RenditionLike & { url: string } {
  return !!value && typeof value === 'object' && typeof (value as RenditionLike).url === 'string' && 'width' in value;
}

function largest(renditions: Record<string, unknown>): string | undefined {
  const entries = Object.entries(renditions).filter((entry): entry is [string, RenditionLike & { url: string }] => isRendition(entry[1]));
  if (entries.length === 0) return undefined;
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
  const values = Object.values(record);
  if (values.length > 0 && values.some(isRendition) && values.every((v) => v === null || isRendition(v))) {
    const url = largest(record);
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
