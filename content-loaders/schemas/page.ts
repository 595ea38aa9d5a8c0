import { z } from 'astro/zod';
import { flag, id, numeric, optionalDate, optionalText, permalink, requiredText, slug } from './primitives.ts';

export const page = z.object({
  id,
  title: requiredText,
  slug,
  permalink,
  body_html: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  position: numeric.nullish().transform((v) => v ?? 0),
  show_in_menu: flag(false),
  language: optionalText,
  updated_at: optionalDate,
  tags: z.array(z.object({ id })).optional(),
});
export type Page = z.output<typeof page>;
