/**
 * An item of the mixed timeline and archive lists, read as a reference: which
 * item (`type` and `id`) and what orders it (its date). Its title, permalink
 * and the rest live in the item's own collection (releases, clippings, events),
 * so the content layer holds one copy of them.
 */
import { z } from 'astro/zod';
import { id, optionalDate } from './primitives.ts';

export const timelineItem = z.object({
  id,
  /** `press_release` (older payloads say `story`), `clipping`, `event`. */
  type: z.string().transform((t) => (t === 'story' ? 'press_release' : t)),
  release_date: optionalDate,
  starts_at: optionalDate,
  published_at: optionalDate,
});
export type TimelineItem = z.output<typeof timelineItem>;
