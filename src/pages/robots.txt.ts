/**
 * /robots.txt: honours the press room's noindex (Disallow: /; always for the
 * demo press room) and lists the sitemaps with absolute URLs, the news sitemap only when
 * this build has one (see src/lib/crawlers.ts).
 * Under a base path its rules name that path: crawlers read only the host's root
 * robots.txt, so the operator merges this one into it (docs/operating.md, "Serving under a path").
 */
import type { APIRoute } from 'astro';
import { getSite } from '../lib/data.ts';
import { isDemoBuild } from '../lib/demo.ts';
import { NEWS_SITEMAP_PATH, SITEMAP_INDEX_PATH, hasNews, robotsTxt } from '../lib/crawlers.ts';
import { homeHref } from '../lib/paths.ts';

export const GET: APIRoute = async ({ site: siteUrl }) => {
  if (!siteUrl) throw new Error('pressroom-static: robots.txt needs the site URL (PRESSROOM_SITE_URL)');
  const siteData = await getSite();
  const { pressroom } = siteData;
  const body = robotsTxt({
    noindex: pressroom.noindex || isDemoBuild(),
    nofollow: pressroom.nofollow,
    sitemaps: [SITEMAP_INDEX_PATH, ...(hasNews(siteData) ? [NEWS_SITEMAP_PATH] : [])].map((path) => new URL(path, siteUrl).href),
    base: homeHref,
  });
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
