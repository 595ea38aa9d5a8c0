import { z } from 'astro/zod';
import { mediaItem } from './media.ts';
import { flag, id, numeric, optionalDate, optionalText, permalink } from './primitives.ts';

export const mediaKit = z.object({
  id,
  title: z.string(),
  description_title: optionalText,
  description: optionalText,
  category_id: id.nullish().transform((v) => v ?? null),
  position: numeric.nullish().transform((v) => v ?? 0),
  is_locked: flag(false),
  is_password_protected: flag(false),
  permalink: permalink.nullish().transform((v) => v ?? null),
  updated_at: optionalDate,
  media_count: numeric.nullish().transform((v) => v ?? null),
  total_size: numeric.nullish().transform((v) => v ?? null),
  media: z.array(mediaItem).nullish().transform((v) => v ?? []),
});
export type MediaKit = z.output<typeof mediaKit>;

export const mediaKitCategory = z.object({
  id,
  name: z.string(),
  description: optionalText,
  parent_id: id.nullish().transform((v) => v ?? null),
  position: numeric.nullish().transform((v) => v ?? 0),
  image_id: id.nullish().transform((v) => v ?? null),
  media_kits_count: numeric.nullish().transform((v) => v ?? null),
});
export type MediaKitCategory = z.output<typeof mediaKitCategory>;

export interface CategoryNode extends z.input<typeof mediaKitCategory> {
  children?: CategoryNode[] | null;
}
/** A node of `media_kit_categories/tree`: a category with its children. */
export const categoryNode: z.ZodType<CategoryNode> = mediaKitCategory.extend({
  children: z.lazy(() => z.array(categoryNode).nullish()),
}) as never;
