import { z } from 'astro/zod';
import { id, optionalText, sizes, slug } from './primitives.ts';

export const tag = z.object({
  id,
  slug,
  name: z.string(),
  description: optionalText,
  layout: optionalText,
  image: sizes,
  hero_image: sizes,
});
export type Tag = z.output<typeof tag>;
