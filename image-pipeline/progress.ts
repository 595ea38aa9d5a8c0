/**
 * Progress of the image work while pages render: pages ask for images as they
 * go, and a cold build encodes hundreds of files inside the page phase, so a
 * line every few seconds says how far it is (one line per update, as cron and
 * CI logs want): files encoded of those asked for so far, the rate, an
 * estimate for what is queued, and the originals fetched.
 */
import type { PipelineStats } from './types.ts';

export const PROGRESS_EVERY_MS = 5_000;

export interface ProgressSample {
  at: number;
  stats: PipelineStats;
}

/** The line for `now`, the rate taken since `previous`; undefined when there is nothing to say (no image work yet). */
export function progressLine(previous: ProgressSample, now: ProgressSample): string | undefined {
  const s = now.stats;
  if (s.originals === 0 && s.toEncode === 0) return undefined;
  const seconds = Math.max(0.001, (now.at - previous.at) / 1000);
  const encodedSince = s.encoded - previous.stats.encoded;
  const rate = encodedSince / seconds;
  const left = s.toEncode - s.encoded;
  const estimate = left > 0 && rate > 0 ? `, about ${duration(left / rate)} left for those` : '';
  return (
    `images: ${s.encoded}/${s.toEncode} files encoded so far (${rate.toFixed(1)}/s${estimate}), ${s.reused} reused; ` +
    `${s.downloads + s.notModified + s.trusted}/${s.originals} originals fetched (${s.downloads} downloaded, ${s.notModified} not modified${s.trusted > 0 ? `, ${s.trusted} as recorded` : ''})`
  );
}

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
}
