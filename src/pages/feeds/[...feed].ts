/**
 * Every feed file under /feeds/: the subscription documents per language and per tag and the
 * archive documents of every feed, e.g. /feeds/nl/rss.xml, /feeds/archive/3/atom.xml,
 * /feeds/tags/<slug>/archive/1/feed.json (see src/lib/feeds.ts). The subscription documents
 * of all releases are /rss.xml, /atom.xml and /feed.json.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { feedResponse, feedRoutes, type FeedRoute } from '../../lib/feeds.ts';
import { routePath } from '../../lib/paths.ts';

export const getStaticPaths = (async () =>
  (await feedRoutes())
    .map((route) => ({ path: routePath(route.href), route }))
    .filter(({ path }) => path.startsWith('/feeds/'))
    .map(({ path, route }) => ({ params: { feed: path.slice('/feeds/'.length) }, props: { route } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ route: FeedRoute }> = ({ props, site }) =>
  feedResponse(props.route.scope, props.route.file, site, props.route.archive);
