import { z } from 'astro/zod';
import { mediaItem } from './media.ts';
import { count, flag, id, numeric, optionalDate, optionalText, permalink, requiredText } from './primitives.ts';

export const mediaKit = z.object({
  id,
  title: requiredText,
  description_title: optionalText,
  description: optionalText,
  category_id: id.nullish().transform((v) => v ?? null),
  position: numeric.nullish().transform((v) => v ?? 0),
  is_locked: flag(false),
  is_password_protected: flag(false),
  permalink: permalink.nullish().transform((v) => v ?? null),
  updated_at: optionalDate,
  media_count: count.nullish().transform((v) => v ?? null),
  total_size: count.nullish().transform((v) => v ?? null),
  media: z
    .array(mediaItem)
    .nullish()
    .transform((v) => v ?? []),
});
export type MediaKit = z.output<typeof mediaKit>;

export const mediaKitCategory = z.object({
  id,
  name: requiredText,
  description: optionalText,
  parent_id: id.nullish().transform((v) => v ?? null),
  position: numeric.nullish().transform((v) => v ?? 0),
  image_id: id.nullish().transform((v) => v ?? null),
  media_kits_count: count.nullish().transform((v) => v ?? null),
});
export type MediaKitCategory = z.output<typeof mediaKitCategory>;
