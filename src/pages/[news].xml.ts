/**
 * /sitemap-news.xml: the Google News sitemap, releases of the two days before
 * the build's day (see src/lib/crawlers.ts); an index of /sitemap-news-<n>.xml
 * past 1,000 of them. Only when there is news: an empty `<urlset/>` is invalid
 * under the sitemaps.org schema (a urlset holds at least one url), so a build
 * with no release that recent writes no news sitemap and robots.txt names none.
 * A route with a parameter, because a static route is always written.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite } from '../lib/data.ts';
import { NEWS_SITEMAP_NAME, hasNews, newsSitemapIndex, newsSitemapParts, newsUrlset, releaseNewsArticles } from '../lib/crawlers.ts';

export const getStaticPaths = (async () => {
  const siteData = await getSite();
  return hasNews(siteData) ? [{ params: { news: NEWS_SITEMAP_NAME } }] : [];
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ site: siteUrl }) => {
  if (!siteUrl) throw new Error('pressroom-static: the news sitemap needs the site URL (PRESSROOM_SITE_URL)');
  const siteData = await getSite();
  const parts = newsSitemapParts(releaseNewsArticles(siteData.releases, siteUrl, siteData.buildDay.start));
  const body = parts.length <= 1 ? newsUrlset(siteData.pressroom.name, parts[0] ?? []) : newsSitemapIndex(siteUrl, parts);
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
