/**
 * JSON-LD serialised so it cannot break out of `<script type="application/ld+json">`:
 * `<`, `>` and `&` become \u escapes (no `</script>` or `<!--` can form), and so do
 * U+2028/U+2029, which some parsers treat as line ends. The result is still valid
 * JSON that parses to the same value.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;

export function serializeJsonLd(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) => (v === null || v === undefined || v === '' ? undefined : v));
  if (json === undefined) return 'null';
  return json.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export type JsonLd = Record<string, unknown>;
