/** /sitemap-news-<n>.xml: parts of the Google News sitemap, only when it has more than 1,000 articles. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite } from '../lib/data.ts';
import { newsSitemapParts, newsUrlset, releaseNewsArticles } from '../lib/crawlers.ts';

export const getStaticPaths = (async () => {
  const siteData = await getSite();
  // Only the number of parts matters here; the URLs are made in GET with the site URL.
  const parts = newsSitemapParts(releaseNewsArticles(siteData.releases, new URL('http://localhost/'), siteData.buildDay.start));
  return parts.length <= 1 ? [] : parts.map((_, i) => ({ params: { part: String(i + 1) } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params, site: siteUrl }) => {
  if (!siteUrl) throw new Error('pressroom-static: the news sitemap needs the site URL (PRESSROOM_SITE_URL)');
  const siteData = await getSite();
  const articles =
    newsSitemapParts(releaseNewsArticles(siteData.releases, siteUrl, siteData.buildDay.start))[Number(params.part) - 1] ?? [];
  return new Response(newsUrlset(siteData.pressroom.name, articles), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
