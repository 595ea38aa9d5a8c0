/** /feeds/<lang>/rss.xml, atom.xml, feed.json: the releases of one language (see src/lib/feeds.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite } from '../../../lib/data.ts';
import { FEED_FILES, feedResponse, type FeedFile } from '../../../lib/feeds.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.languages.flatMap((lang) => FEED_FILES.map((file) => ({ params: { lang, file }, props: { file } })));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ file: FeedFile }> = ({ params, props, site }) =>
  feedResponse({ kind: 'language', language: params.lang! }, props.file, site);
