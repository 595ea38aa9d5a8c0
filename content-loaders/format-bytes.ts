/**
 * The one byte formatter of the project (log lines, error messages, download
 * labels on pages): decimal units (1 kB = 1000 bytes, as file managers and
 * browsers show them), at most one decimal: `512 B`, `3.9 kB`, `2.4 MB`.
 * Pages pass their language for the number format (`2,4 MB` in German).
 */
import prettyBytes from 'pretty-bytes';

export function formatBytes(bytes: number, locale?: string): string {
  const options = { maximumFractionDigits: 1 } as const;
  if (locale) {
    try {
      return prettyBytes(bytes, { ...options, locale });
    } catch {
      // a language tag Intl does not know: the plain format
    }
  }
  return prettyBytes(bytes, options);
}
