/**
 * Every release's Markdown twin next to its page (`/<permalink>/index.md`, src/lib/llms.ts and
 * src/lib/release-markdown.ts); none when the press room is noindex.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite, type Release } from '../../lib/data.ts';
import { markdownTwins, releaseMarkdown } from '../../lib/llms.ts';
import { routePath } from '../../lib/paths.ts';

export const getStaticPaths = (async () => {
  const siteData = await getSite();
  const twins = markdownTwins(siteData);
  return siteData.releases
    .filter((r) => twins.has(r.id))
    .map((release) => ({ params: { permalink: routePath(release.href).replace(/^\/|\/$/g, '') }, props: { release } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ release: Release }> = async ({ props, site: siteUrl }) => {
  if (!siteUrl) throw new Error('pressroom-static: Markdown twins need the site URL (PRESSROOM_SITE_URL)');
  return new Response(await releaseMarkdown(props.release, siteUrl), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
