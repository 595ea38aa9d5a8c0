/**
 * Files for crawlers besides @astrojs/sitemap's sitemap-index.xml:
 *
 * - the Google News sitemap (`/sitemap-news.xml`): the releases published
 *   since two days before the build's day began (src/lib/build-day.ts: the
 *   build's clock rounded down to the day in the press room's time zone), so
 *   it covers the last two days for any moment of that day and a cron rebuild
 *   with no upstream change writes the same bytes until the next day. Past
 *   1,000 articles (Google's limit per file) it becomes an index of
 *   `/sitemap-news-<n>.xml`. With no article in the window there is none
 *   (an empty urlset is invalid), and robots.txt does not name it.
 * - robots.txt: the press room's `noindex` becomes `Disallow: /` (and no
 *   sitemaps are offered); otherwise everything is allowed and the sitemaps are
 *   listed with absolute URLs. `nofollow` cannot be said in robots.txt: it is
 *   on every page's robots meta tag (Base.astro).
 *
 * Pure functions: the endpoints in src/pages/ give them the site data.
 */
import { sitePath } from './paths.ts';
import { el, textEl, xmlDocument } from './xml.ts';

export const NEWS_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;
/** Google: at most 1,000 `news:news` entries per sitemap file. */
const NEWS_SITEMAP_LIMIT = 1000;
export const NEWS_SITEMAP_NAME = 'sitemap-news';
export const NEWS_SITEMAP_PATH = sitePath(`/${NEWS_SITEMAP_NAME}.xml`);
const newsSitemapPartPath = (part: number) => sitePath(`/sitemap-news-${part}.xml`);
/** What @astrojs/sitemap writes (filenameBase `sitemap`). */
export const SITEMAP_INDEX_PATH = sitePath('/sitemap-index.xml');

export interface NewsArticle {
  /** Absolute canonical URL. */
  url: string;
  title: string;
  /** ISO 8601 release date. */
  published: string;
  /** The release's language (any BCP 47 tag; converted for Google). */
  language: string;
}

/**
 * The articles published at or after `windowMs` before `dayStart` (the start of the build's day),
 * newest first; releases without a date are never news.
 */
export function newsArticles(articles: readonly NewsArticle[], dayStart: number, windowMs = NEWS_WINDOW_MS): NewsArticle[] {
  return articles
    .filter((a) => Date.parse(a.published) >= dayStart - windowMs)
    .sort((a, b) => Date.parse(b.published) - Date.parse(a.published) || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** Google News wants ISO 639 (`en`, `nl`), except Chinese: `zh-cn` or `zh-tw`. */
export function newsLanguage(lang: string): string {
  const parts = lang.toLowerCase().split(/[-_]/);
  const base = parts[0] ?? lang.toLowerCase();
  if (base !== 'zh') return base;
  return parts.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo') ? 'zh-tw' : 'zh-cn';
}

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const NEWS_NS = 'http://www.google.com/schemas/sitemap-news/0.9';

/** One Google News urlset. */
export function newsUrlset(publicationName: string, articles: readonly NewsArticle[]): string {
  return xmlDocument(
    el(
      'urlset',
      { xmlns: SITEMAP_NS, 'xmlns:news': NEWS_NS },
      ...articles.map((a) =>
        el(
          'url',
          {},
          textEl('loc', a.url),
          el(
            'news:news',
            {},
            el('news:publication', {}, textEl('news:name', publicationName), textEl('news:language', newsLanguage(a.language))),
            textEl('news:publication_date', new Date(a.published).toISOString()),
            textEl('news:title', a.title),
          ),
        ),
      ),
    ),
  );
}

/** A sitemap index of the news sitemap's parts (only when there are more than 1,000 articles). */
export function newsSitemapIndex(site: URL, parts: readonly (readonly NewsArticle[])[]): string {
  return xmlDocument(
    el(
      'sitemapindex',
      { xmlns: SITEMAP_NS },
      ...parts.map((part, i) =>
        el(
          'sitemap',
          {},
          textEl('loc', new URL(newsSitemapPartPath(i + 1), site).href),
          textEl('lastmod', part[0] ? new Date(part[0].published).toISOString() : null),
        ),
      ),
    ),
  );
}

/** The articles split into files of at most `limit`. */
export function newsSitemapParts(articles: readonly NewsArticle[], limit = NEWS_SITEMAP_LIMIT): NewsArticle[][] {
  const parts: NewsArticle[][] = [];
  for (let i = 0; i < articles.length; i += limit) parts.push(articles.slice(i, i + limit));
  return parts;
}

export interface RobotsOptions {
  noindex: boolean;
  nofollow: boolean;
  /** Absolute URLs of the sitemaps. */
  sitemaps: readonly string[];
  /** The site's base path (`/press/`): the rules cover the site, not the whole host. Default `/`. */
  base?: string;
}

export function robotsTxt({ noindex, nofollow, sitemaps, base = '/' }: RobotsOptions): string {
  const lines = ['User-agent: *'];
  if (noindex) {
    lines.push(`Disallow: ${base}`, '', '# The press room asks not to be indexed (noindex): no sitemaps are offered.');
  } else {
    lines.push(`Allow: ${base}`);
    if (nofollow) lines.push('', '# The press room asks robots not to follow links (nofollow): every page says so in its robots meta tag.');
    lines.push('', ...sitemaps.map((url) => `Sitemap: ${url}`));
  }
  return `${lines.join('\n')}\n`;
}

/** Whether the site has news for the news sitemap this build (the release URLs do not matter for that). */
export function hasNews(siteData: { releases: Parameters<typeof releaseNewsArticles>[0]; buildDay: { start: number } }): boolean {
  return releaseNewsArticles(siteData.releases, new URL('http://localhost/'), siteData.buildDay.start).length > 0;
}

/** The news articles of the site's releases (see newsArticles for the window). */
export function releaseNewsArticles(
  releases: ReadonlyArray<{ href: string; title: string; release_date: string | null | undefined; language: string }>,
  site: URL,
  dayStart: number,
): NewsArticle[] {
  return newsArticles(
    releases.flatMap((r) =>
      r.release_date ? [{ url: new URL(r.href, site).href, title: r.title, published: r.release_date, language: r.language }] : [],
    ),
    dayStart,
  );
}
