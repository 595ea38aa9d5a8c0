/**
 * Where the site's feeds are (src/lib/feeds.ts writes them): all releases at the root, each
 * language under `/feeds/<lang>/`, each tag under `/feeds/tags/<slug>/`, each as RSS, Atom and
 * JSON Feed. Kept apart from the feeds' making, so pages and a team's components can link them.
 */
import type { Tag } from './data.ts';
import type { FeedFile } from './feed-formats.ts';
import { sitePath, tagSegment } from './paths.ts';

export type FeedScope = { kind: 'all' } | { kind: 'language'; language: string } | { kind: 'tag'; tag: Tag };

/** The folder of a scope's feeds: `/`, `/feeds/nl/`, `/feeds/tags/<slug>/`. */
function feedFolder(scope: FeedScope): string {
  if (scope.kind === 'all') return '/';
  if (scope.kind === 'language') return `/feeds/${scope.language}/`;
  return `/feeds/tags/${tagSegment(scope.tag)}/`;
}

/** Site path of one feed file, e.g. `/feeds/nl/atom.xml`, or of one of its archives (`/feeds/nl/archive/3/atom.xml`); under the base path. */
export function feedHref(scope: FeedScope, file: FeedFile, archive: number | null = null): string {
  if (archive === null) return sitePath(`${feedFolder(scope)}${file}`);
  return sitePath(`${scope.kind === 'all' ? '/feeds/' : feedFolder(scope)}archive/${archive}/${file}`);
}
