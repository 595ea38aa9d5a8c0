import { z } from 'astro/zod';
import { id, numeric, optionalText, optionalUrl, rendition } from './primitives.ts';

export const prContact = z.object({
  id,
  name: z.string(),
  job_title: optionalText,
  email: optionalText,
  phone: optionalText,
  /** Free text with line breaks (phone, e-mail) as the live API sends it. */
  contact_info: optionalText,
  urls: z
    .object({ twitter: optionalUrl, linkedin: optionalUrl, skype: optionalText })
    .nullish()
    .transform((v) => v ?? { twitter: null, linkedin: null, skype: null }),
  avatar: z.record(z.string(), rendition.nullish()).nullish().transform((value) => {
    const out: Record<string, z.output<typeof rendition>> = {};
    for (const [name, r] of Object.entries(value ?? {})) if (r) out[name] = r;
    return out;
  }),
  position: numeric.nullish().transform((v) => v ?? 0),
});
export type PrContact = z.output<typeof prContact>;
