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

/** One step of a breadcrumb trail: what `<Breadcrumbs>` shows and what `breadcrumbList` describes. */
export interface Crumb {
  name: string;
  href?: string;
}

/**
 * The schema.org BreadcrumbList for a trail, built from the same items the page gives its
 * visible `<Breadcrumbs>`: every href resolved to an absolute URL on `site`; an item without
 * href (normally the last, the page itself) gets `current`, the page's own URL (absolute, or a
 * path resolved on `site`).
 */
export function breadcrumbList(items: readonly Crumb[], site: URL | string | undefined, current: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: new URL(item.href ?? current, site).href,
    })),
  };
}

/**
 * A NewsArticle's `image`, which Google requires: the article's own pictures (absolute URLs, the
 * ones that could be had), else the publisher's logo; omitted only when there is neither.
 */
export function articleImages(pictures: ReadonlyArray<string | null>, logo: string | null): string[] | undefined {
  const own = pictures.filter((url): url is string => !!url);
  if (own.length > 0) return own;
  return logo ? [logo] : undefined;
}
