import { z } from 'astro/zod';
import { flag, id, numeric, optionalText, optionalUrl } from './primitives.ts';

export const pressroom = z.object({
  id,
  slug: optionalText,
  permalink: optionalUrl,
  domain: optionalText,
  name: z.string(),
  description: optionalText,
  boilerplate_html: optionalText,
  language: z.string().min(2),
  languages: z.array(z.string()).nullish().transform((v) => v ?? []),
  timezone: optionalText,
  contact_info: optionalText,
  urls: z.record(z.string(), z.string().nullish()).nullish().transform((value) => {
    const out: Record<string, string> = {};
    for (const [name, url] of Object.entries(value ?? {})) if (url && /^https?:\/\//.test(url)) out[name] = url;
    return out;
  }),
  logo: z
    .object({ small_url: optionalUrl, square_url: optionalUrl, original_url: optionalUrl, width: numeric.nullish(), height: numeric.nullish() })
    .nullish()
    .transform((v) => v ?? null),
  design: z
    .object({
      link_color: z.string().regex(/^#[0-9a-f]{3,8}$/i).nullish().catch(null),
      background_color: z.string().regex(/^#[0-9a-f]{3,8}$/i).nullish().catch(null),
      header_color: z.string().regex(/^#[0-9a-f]{3,8}$/i).nullish().catch(null),
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
