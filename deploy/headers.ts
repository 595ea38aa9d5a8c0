/**
 * The headers every object is stored with, so the bucket (and the CDN in front
 * of it) serves each file as the site means it: its Content-Type, with
 * `charset=utf-8` on text, and its Cache-Control. Content-hashed files (a new
 * content gets a new name) are cached for a year and never revalidated; every
 * other file (pages, feeds, sitemaps, files at a stable name) briefly, then
 * revalidated, so a deploy is seen within a minute even where no purge reaches.
 */

const TEXT = '; charset=utf-8';

const TYPES: Record<string, string> = {
  html: `text/html${TEXT}`,
  css: `text/css${TEXT}`,
  js: `text/javascript${TEXT}`,
  mjs: `text/javascript${TEXT}`,
  json: `application/json${TEXT}`,
  map: `application/json${TEXT}`,
  webmanifest: `application/manifest+json${TEXT}`,
  xml: `application/xml${TEXT}`,
  xsl: `application/xslt+xml${TEXT}`,
  rss: `application/rss+xml${TEXT}`,
  atom: `application/atom+xml${TEXT}`,
  txt: `text/plain${TEXT}`,
  md: `text/markdown${TEXT}`,
  ics: `text/calendar${TEXT}`,
  vcf: `text/vcard${TEXT}`,
  csv: `text/csv${TEXT}`,
  svg: `image/svg+xml${TEXT}`,
  webp: 'image/webp',
  avif: 'image/avif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  wasm: 'application/wasm',
  // Pagefind's index: its own binary formats, fetched by its script.
  pagefind: 'application/octet-stream',
  pf_meta: 'application/octet-stream',
  pf_index: 'application/octet-stream',
  pf_fragment: 'application/octet-stream',
  pf_filter: 'application/octet-stream',
};

/** The Content-Type a site file is served with (by its extension; unknown ones as bytes). */
export function contentTypeOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return TYPES[extension] ?? 'application/octet-stream';
}

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATED_CACHE = 'public, max-age=60, must-revalidate';

/**
 * Files whose name changes with their content: Astro's bundles (`_astro/`), the image
 * pipeline's renditions, downloads and kit zips (`_media/`), the search bundle's
 * `_search/<name>.<hash>.js`, and Pagefind's index chunks (`*.pf_meta`, `*.pf_index`,
 * `*.pf_fragment`, `*.pf_filter`). The entry files that name them (`_search/entry.js`,
 * `pagefind-entry.json`, `pagefind.js`, `wasm.*.pagefind`) keep their names.
 */
export function isContentHashed(file: string): boolean {
  if (file.startsWith('_astro/') || file.startsWith('_media/')) return true;
  if (/^_search\/[^/]+\.[0-9a-f]{8,}\.js$/.test(file)) return true;
  return /(?:^|\/)pagefind\/.+\.pf_(?:meta|index|fragment|filter)$/.test(file);
}

export const cacheControlOf = (file: string): string => (isContentHashed(file) ? IMMUTABLE_CACHE : REVALIDATED_CACHE);
