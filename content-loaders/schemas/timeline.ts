/** An item of the mixed timeline: the full object, told apart by `type`. */
import { z } from 'astro/zod';
import { id, optionalDate, optionalText } from './primitives.ts';

export const timelineItem = z.object({
  id,
  /** `press_release` (older payloads say `story`), `clipping`, `event`. */
  type: z.string().transform((t) => (t === 'story' ? 'press_release' : t)),
  /** A reference to an item of another collection: its title is shown from there. */
  title: optionalText,
  permalink: z.string().nullish().transform((v) => v ?? null),
  release_date: optionalDate,
  starts_at: optionalDate,
  published_at: optionalDate,
});
export type TimelineItem = z.output<typeof timelineItem>;
