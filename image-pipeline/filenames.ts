/** File names offered to the reader (`<a download>`, zip entries): cleaned titles with the real extension. */
import { slugify } from '@pressroom-static/content-loaders';

/**
 * A name for people as a path segment (`Northwind Hub, Berlin` → `northwind-hub-berlin.jpg`):
 * an ASCII slug, so it is the same name in a URL, a zip and every file system; null when
 * nothing of `name` is letter-like.
 */
export function personName(name: string | null | undefined, ext: string): string | null {
  const slug = name ? slugify(name, 80) : '';
  return slug ? `${slug}.${ext}` : null;
}

/** Cleans a title into a file name (letters, digits, space, dot, dash, underscore), with `ext`. */
export function safeFilename(title: string | null | undefined, ext: string, fallback = 'file'): string {
  let base = (title ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const dot = `.${ext}`.toLowerCase();
  if (base.toLowerCase().endsWith(dot)) base = base.slice(0, -dot.length).trim();
  else base = base.replace(/\.(jpe?g|png|gif|webp|tiff?|pdf|mp4|mov|webm|wav|mp3|ogg|flac|zip|avif)$/i, '').trim();
  if (base.length > 80) base = base.slice(0, 80).trim();
  return `${base || fallback}.${ext}`;
}
