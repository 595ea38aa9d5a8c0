/**
 * Refused and broken images of one build: one warning per URL when it is first
 * refused, the pages that wanted it, and the list the build's last lines report.
 */
import type { RefusedError } from './errors.ts';
import type { PipelineLog, PipelineStats, RefusedImage } from './types.ts';

export interface Refusals {
  /** Records that `page` wanted `url` and got `error`; warns the first time a URL is refused. */
  refuse(url: string, page: string | undefined, error: RefusedError): void;
  /** A copy of every refusal so far. */
  list(): RefusedImage[];
}

export function createRefusals(log: PipelineLog, stats: PipelineStats): Refusals {
  // Pages in a Set: a refused logo is wanted by every page of the site.
  const refusals = new Map<string, Omit<RefusedImage, 'pages'> & { pages: Set<string> }>();
  return {
    refuse(url, page, error) {
      let entry = refusals.get(url);
      if (!entry) {
        entry = { url, kind: error.kind, reason: error.message, pages: new Set() };
        refusals.set(url, entry);
        stats.refused++;
        log.warn(`image refused: ${url} (wanted by ${page ?? 'an unnamed page'}): ${error.message}; the page shows a placeholder`);
      }
      if (page) entry.pages.add(page);
    },
    list: () => [...refusals.values()].map((r) => ({ ...r, pages: [...r.pages] })),
  };
}
