import { z } from 'astro/zod';
import { id, numeric, optionalText, optionalUrl, renditions, requiredText } from './primitives.ts';

export const prContact = z.object({
  id,
  name: requiredText,
  job_title: optionalText,
  email: optionalText,
  phone: optionalText,
  /** Found in `contact_info` (the live API has no field for it). */
  mobile: optionalText,
  website: optionalUrl,
  /** Free text with line breaks (phone, e-mail) as the live API sends it. */
  contact_info: optionalText,
  urls: z
    .object({ twitter: optionalUrl, linkedin: optionalUrl, skype: optionalText })
    .nullish()
    .transform((v) => v ?? { twitter: null, linkedin: null, skype: null }),
  avatar: renditions,
  position: numeric.nullish().transform((v) => v ?? 0),
});
export type PrContact = z.output<typeof prContact>;
