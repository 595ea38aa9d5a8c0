/** What a build's image work came to, as log lines, and the cache pruning that follows it. */
import { formatBytes } from '@pressroom-static/content-loaders';
import type { ImagePipeline } from './types.ts';

/** Where the lines go (an Astro integration's logger will do). */
export interface BuildLog {
  info(line: string): void;
  warn(line: string): void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** One summary line, always ending with the count of refused images, then one line per refused URL naming the pages that wanted it. */
export function reportImageWork(l: BuildLog, pipeline: ImagePipeline, mediaDir: string, started: number): void {
  const s = pipeline.stats();
  const refused = pipeline.refused();
  l.info(
    `images: ${s.originals} originals (${s.downloads} downloaded, ${formatBytes(s.downloadedBytes)}; ${s.notModified} not modified${s.trusted > 0 ? `, ${s.trusted} as recorded` : ''}), ` +
      `${s.encoded} files encoded, ${s.fromStore > 0 ? `${s.fromStore} made by workers (shared store), ` : ''}${s.reused} reused from cache, ${s.zipsWritten} zips written, ${s.sharpOps} sharp operations, ` +
      `${s.published} files in ${mediaDir}/, ${Math.round(performance.now() - started)} ms since build start; ` +
      `${refused.length} refused image${refused.length === 1 ? '' : 's'}`,
  );
  for (const r of refused) {
    const pages =
      r.pages.length > 3 ? `${r.pages.slice(0, 3).join(', ')} and ${r.pages.length - 3} more` : r.pages.join(', ') || 'no named page';
    l.warn(`refused (${r.kind}): ${r.url}: ${r.reason} (wanted by ${pages})`);
  }
}

export async function pruneCache(l: BuildLog, pipeline: ImagePipeline, days: number): Promise<void> {
  const pruned = await pipeline.pruneCache(days * DAY_MS);
  if (pruned.files > 0)
    l.info(`images: removed ${pruned.files} cache files (${formatBytes(pruned.bytes)}) no build has used for ${days} days`);
}
