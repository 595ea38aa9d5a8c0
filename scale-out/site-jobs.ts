/**
 * Every rendition job a site needs, read from its data before any page
 * renders: each `sizes` object anywhere in the content (media items' `sizes`,
 * a tag's `image`, a contact's `avatar`, the press room's logo) is one
 * original with its declared renditions. Locked and password-protected kits
 * are skipped: nothing of theirs is published, so nothing of theirs is made.
 * A `sizes` the walk misses is still made: by the build, as without workers.
 */
import { renditionJobId, renditionJobOf, type RenditionJob } from '@pressroom-static/image-pipeline';

/** An object whose every value is a rendition (`{ url }`) or null, and which has at least one. */
function isSizes(value: Record<string, unknown>): boolean {
  const entries = Object.values(value);
  return (
    entries.some((r) => r !== null) &&
    entries.every((r) => r === null || (typeof r === 'object' && typeof (r as { url?: unknown }).url === 'string'))
  );
}

const isProtected = (value: Record<string, unknown>) => value.is_locked === true || value.is_password_protected === true;

/** The jobs of every `sizes` in `data` (any mix of maps, arrays and objects), one per job id, in the order found. */
export function renditionJobsOf(data: unknown, avif: boolean): Map<string, RenditionJob> {
  const jobs = new Map<string, RenditionJob>();
  const seen = new Set<object>();
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) stack.push(...[...value.values()].reverse());
    else if (Array.isArray(value)) stack.push(...[...value].reverse());
    else {
      const record = value as Record<string, unknown>;
      if (isProtected(record)) continue;
      if (isSizes(record)) {
        const job = renditionJobOf(record as Parameters<typeof renditionJobOf>[0], avif);
        if (job) jobs.set(renditionJobId(job), job);
        continue;
      }
      stack.push(...Object.values(record).reverse());
    }
  }
  return jobs;
}
