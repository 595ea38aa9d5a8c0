import { z } from 'astro/zod';
import { flag, optionalColor, id, numeric, optionalText, optionalUrl, requiredText } from './primitives.ts';

export const pressroom = z.object({
  id,
  slug: optionalText,
  permalink: optionalUrl,
  domain: optionalText,
  name: requiredText,
  description: optionalText,
  boilerplate_html: optionalText,
  language: z.string().min(2),
  languages: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  timezone: optionalText,
  contact_info: optionalText,
  urls: z
    .record(z.string(), optionalUrl)
    .nullish()
    .transform((value) => {
      const out: Record<string, string> = {};
      for (const [name, url] of Object.entries(value ?? {})) if (url) out[name] = url;
      return out;
    }),
  logo: z
    .object({
      small_url: optionalUrl,
      square_url: optionalUrl,
      original_url: optionalUrl,
      width: numeric.nullish().transform((v) => v ?? null),
      height: numeric.nullish().transform((v) => v ?? null),
    })
    .nullish()
    .transform((v) => v ?? null),
  design: z
    .object({
      link_color: optionalColor,
      background_color: optionalColor,
      header_color: optionalColor,
      layout: optionalText,
    })
    .nullish()
    .transform((v) => v ?? null),
  noindex: flag(false),
  nofollow: flag(false),
  subscribe_enabled: flag(false),
  show_presskit: flag(true),
});
export type Pressroom = z.output<typeof pressroom>;
