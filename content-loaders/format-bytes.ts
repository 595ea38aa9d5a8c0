/**
 * The one byte formatter of the project (log lines, error messages, download
 * labels on pages): decimal units (1 kB = 1000 bytes, as file managers and
 * browsers show them), at most one decimal: `512 B`, `3.9 kB`, `2.4 MB`.
 * Pages pass their language for the number format (`2,4 MB` in German).
 */
import prettyBytes from 'pretty-bytes';

/**
 * Labels already made, by language and size. A localized label costs a `toLocaleString` with
 * options, which builds a new ICU number format every call: 1.3 s of a 10,000-release build's
 * route generation, where the same file sizes are labelled on many pages. Bounded: cleared when full.
 */
const labels = new Map<string, string>();
const MAX_LABELS = 20_000;

export function formatBytes(bytes: number, locale?: string): string {
  const key = `${locale ?? ''} ${bytes}`;
  let label = labels.get(key);
  if (label === undefined) {
    if (labels.size >= MAX_LABELS) labels.clear();
    labels.set(key, (label = format(bytes, locale)));
  }
  return label;
}

function format(bytes: number, locale: string | undefined): string {
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
