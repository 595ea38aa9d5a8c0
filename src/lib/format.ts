/** Small formatting helpers for numbers and contact details. */

/** "11.4 MB" in the page language. */
export function formatFileSize(bytes: number, lang: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const format = sizeFormat(lang, units[unit]!, unit === 0 ? 0 : 1);
  return format ? format.format(value) : `${value.toFixed(unit === 0 ? 0 : 1)} ${['B', 'kB', 'MB', 'GB'][unit]}`;
}

const sizeFormats = new Map<string, Intl.NumberFormat | null>();
/** One formatter per language and unit (pages format many sizes); null for a language Intl refuses. */
function sizeFormat(lang: string, unit: string, digits: number): Intl.NumberFormat | null {
  const key = `${lang} ${unit}`;
  let format = sizeFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: digits });
    } catch {
      format = null;
    }
    sizeFormats.set(key, format);
  }
  return format;
}

/** A `tel:` URL for a phone number as people write it ("+31 20 794 1139"), or null. */
export function telHref(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = phone.replace(/[^\d+]/g, '');
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
