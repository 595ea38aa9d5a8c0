import { z } from 'astro/zod';
import { mediaItem } from './media.ts';
import { flag, id, isoDate, optionalDate, optionalText, optionalUrl, permalink, requiredText } from './primitives.ts';

export const pressEvent = z.object({
  id,
  title: requiredText,
  description: optionalText,
  starts_at: isoDate,
  ends_at: optionalDate,
  timezone: optionalText,
  location: optionalText,
  online: flag(false),
  stream_url: optionalUrl,
  permalink,
  language: optionalText,
  tags: z.array(z.object({ id })).optional(),
  featured_images: z.array(mediaItem).optional(),
});
export type PressEvent = z.output<typeof pressEvent>;

export const liveEvent = z.object({
  id,
  event_id: id.nullish().transform((v) => v ?? null),
  title: requiredText,
  description: optionalText,
  starts_at: isoDate,
  ends_at: optionalDate,
  stream_url: optionalUrl,
  permalink,
  language: optionalText,
  updates: z
    .array(z.object({ id, posted_at: isoDate, body_html: z.string() }))
    .nullish()
    .transform((v) => v ?? []),
});
export type LiveEvent = z.output<typeof liveEvent>;
