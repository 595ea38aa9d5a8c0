/** Small formatting helpers for numbers and contact details. */
import { formatBytes } from '@pressroom-static/content-loaders';

/** "11.4 MB" in the page language: the project's one byte formatter (content-loaders/format-bytes.ts). */
export function formatFileSize(bytes: number, lang: string): string {
  return formatBytes(bytes, lang);
}

/** A `tel:` URL for a phone number as people write it ("+31 20 794 1139"), or null. */
export function telHref(phone: string | null | undefined): string | null {
  if (!phone) return null;
  // "+31 (0)20 …": the bracketed trunk zero is dialled at home only, never after the country code.
  const digits = phone.replace(/^(\s*\+\d{1,3})\s*\(0\)/, '$1').replace(/[^\d+]/g, '');
  return /^\+?\d{5,}$/.test(digits) ? `tel:${digits}` : null;
}

/** A `mailto:` URL for a plausible address, or null. */
export function mailtoHref(email: string | null | undefined): string | null {
  const trimmed = email?.trim();
  return trimmed && /^[^\s@<>"'()]+@[^\s@<>"'()]+\.[^\s@<>"'()]+$/.test(trimmed) ? `mailto:${trimmed}` : null;
}

/** An http(s) URL as given, or null (guards hrefs built from API fields). */
export function httpHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
