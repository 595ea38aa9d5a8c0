/** Media library items: images, movies, videos, sounds, documents. */
import { z } from 'astro/zod';
import { count, flag, id, isoDate, numeric, optionalText, optionalUrl, sizes } from './primitives.ts';

export const mediaItem = z.object({
  id,
  /** Often the file name; older answers may leave it out. */
  title: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  description: optionalText,
  type: z.string(),
  content_type: optionalText,
  permalink: optionalText,
  transparent: flag(false),
  file_size: count.nullish().transform((v) => v ?? null),
  sizes,
  created_at: isoDate.nullish().transform((v) => v ?? null),
  url: optionalUrl,
  mp4_url: optionalUrl,
  webm_url: optionalUrl,
  thumbnail_url: optionalUrl,
  provider: optionalText,
  embed_url: optionalUrl,
  duration: numeric
    .refine((n) => n >= 0, 'expected a duration, not negative')
    .nullish()
    .transform((v) => v ?? null),
});
export type MediaItem = z.output<typeof mediaItem>;
