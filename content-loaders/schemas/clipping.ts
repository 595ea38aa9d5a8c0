import { z } from 'astro/zod';
import { flag, id, optionalDate, optionalText, optionalUrl, permalink, requiredText, sizes, numeric } from './primitives.ts';

export const clipping = z.object({
  id,
  press_release_id: id.nullish().transform((v) => v ?? null),
  title: requiredText,
  description: optionalText,
  /** The outlet; the live API sometimes sends it as a number. */
  source: z
    .union([z.string(), z.number().transform(String)])
    .nullish()
    .transform((v) => v ?? null),
  /** The article; older answers and bad data leave clippings without a usable link. */
  url: optionalUrl,
  /** Older answers send null: the clipping is listed by `published_at`, or undated. */
  release_date: optionalDate,
  published_at: optionalDate,
  language: optionalText,
  show_iframe: flag(false),
  permalink,
  shares: z
    .record(z.string(), numeric.nullish())
    .nullish()
    .transform((v) => v ?? null),
  sizes,
  tags: z.array(z.object({ id })).optional(),
});
export type Clipping = z.output<typeof clipping>;
