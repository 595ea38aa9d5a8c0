/** /llms.txt and /llms-full.txt for AI assistants (src/lib/llms.ts); neither when the press room is noindex. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite } from '../lib/data.ts';
import { llmsFullTxt, llmsTxt } from '../lib/llms.ts';
import { aiFilesOffered } from '../lib/llms-rules.ts';

const FILES = { llms: llmsTxt, 'llms-full': llmsFullTxt } as const;

export const getStaticPaths = (async () => {
  const siteData = await getSite();
  return aiFilesOffered(siteData.pressroom) ? Object.keys(FILES).map((llms) => ({ params: { llms } })) : [];
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params, site: siteUrl }) => {
  if (!siteUrl) throw new Error('pressroom-static: llms.txt needs the site URL (PRESSROOM_SITE_URL)');
  const write = FILES[params.llms as keyof typeof FILES];
  return new Response(await write(siteUrl), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
