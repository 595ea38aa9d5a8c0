/**
 * Press releases. `draft_content_as_json` (unpublished edits) and the editor
 * blocks are deliberately not part of the schema: they never reach a page.
 */
import { z } from 'astro/zod';
import { mediaItem } from './media.ts';
import { flag, id, numeric, optionalDate, optionalText, optionalUrl, permalink, requiredText } from './primitives.ts';

export const pressRelease = z.object({
  id,
  title: requiredText,
  subtitle: optionalText,
  release_date: optionalDate,
  release_location: optionalText,
  language: z.string().min(2),
  social_media_pitch: optionalText,
  summary: optionalText,
  body_html: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  permalink,
  /** Set by the data policy when `permalink` could not be used (kept for a redirect page). */
  unusable_permalink: z.string().nullish(),
  full_url: optionalUrl,
  short_link: optionalUrl,
  pdf: optionalUrl,
  show_in_timeline: flag(true),
  show_boilerplate_text: flag(false),
  reading_time: numeric.nullish().transform((v) => v ?? null),
  updated_at: optionalDate,
  /** Includes: the site keeps only the ids of tags and clippings (their own collections hold them whole). */
  tags: z.array(z.object({ id })).optional(),
  featured_images: z.array(mediaItem).optional(),
  clippings: z.array(z.object({ id })).optional(),
});
export type PressRelease = z.output<typeof pressRelease>;
