/**
 * /sitemap-news.xml: the Google News sitemap, releases of the two days before
 * the build's day (see src/lib/crawlers.ts); an index of
 * /sitemap-news-<n>.xml past 1,000 of them.
 */
import type { APIRoute } from 'astro';
import { getSite } from '../lib/data.ts';
import { newsSitemapIndex, newsSitemapParts, newsUrlset, releaseNewsArticles } from '../lib/crawlers.ts';

export const GET: APIRoute = async ({ site: siteUrl }) => {
  if (!siteUrl) throw new Error('pressroom-static: the news sitemap needs the site URL (PRESSROOM_SITE_URL)');
  const site = await getSite();
  const parts = newsSitemapParts(releaseNewsArticles(site.releases, siteUrl, site.buildDay.start));
  const body = parts.length <= 1 ? newsUrlset(site.pressroom.name, parts[0] ?? []) : newsSitemapIndex(siteUrl, parts);
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
