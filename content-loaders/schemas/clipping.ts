import { z } from 'astro/zod';
import { flag, id, httpUrl, isoDate, optionalDate, optionalText, permalink, sizes, numeric } from './primitives.ts';

export const clipping = z.object({
  id,
  press_release_id: id.nullish().transform((v) => v ?? null),
  title: z.string(),
  description: optionalText,
  /** The outlet; the live API sometimes sends it as a number. */
  source: z.union([z.string(), z.number().transform(String)]).nullish().transform((v) => v ?? null),
  url: httpUrl,
  release_date: isoDate,
  published_at: optionalDate,
  language: optionalText,
  show_iframe: flag(false),
  permalink,
  shares: z.record(z.string(), numeric.nullish()).nullish().transform((v) => v ?? null),
  sizes,
  tags: z.array(z.object({ id })).optional(),
});
export type Clipping = z.output<typeof clipping>;
