/** /feeds/tags/<slug>/rss.xml, atom.xml, feed.json: the releases with one tag (see src/lib/feeds.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite, type Tag } from '../../../../lib/data.ts';
import { FEED_FILES, feedResponse, type FeedFile } from '../../../../lib/feeds.ts';
import { tagSegment } from '../../../../lib/paths.ts';

export const getStaticPaths = (async () => {
  const site = await getSite();
  return site.tags.flatMap((tag) => FEED_FILES.map((file) => ({ params: { slug: tagSegment(tag), file }, props: { tag, file } })));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ tag: Tag; file: FeedFile }> = ({ props, site }) => feedResponse({ kind: 'tag', tag: props.tag }, props.file, site);
