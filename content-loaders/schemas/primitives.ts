/**
 * Building blocks shared by every resource schema. They are lenient where
 * the live API is (numbers as strings, nulls, unknown fields are dropped) and
 * idempotent, so parsing their own output again gives the same value.
 */
import { z } from 'astro/zod';

/** A number, or a string holding one (`"200"`), stored as a number. */
export const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'expected a number or a numeric string')
    .transform(Number),
]);

export const id = z.union([z.number().int(), z.string().trim().regex(/^\d+$/, 'expected an integer id').transform(Number)]);

/** ISO-8601 instant, normalised to UTC with milliseconds. */
export const isoDate = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO-8601 date')
  .transform((value) => new Date(value).toISOString());

/** A string the API may send as null or leave out; stored as null. */
export const optionalText = z.string().nullish().transform((value) => value ?? null);

export const optionalDate = isoDate.nullish().transform((value) => value ?? null);

export const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
    .nullish()
    .transform((value) => value ?? fallback);

/** An absolute http(s) URL. */
export const httpUrl = z.string().refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'expected an absolute http(s) URL');

export const optionalUrl = httpUrl.nullish().catch(null).transform((value) => value ?? null);

/**
 * A site-relative path from the API, e.g. `/123-slug`. Pages are written at
 * these paths, so one that could climb out of the site (`..`, backslashes,
 * control characters, `//host`) is refused here, before anything is written.
 */
export const permalink = z
  .string()
  .regex(/^\/(?!\/)[^\\\u0000-\u001f?#]*$/, 'expected a path starting with a single / and no \\, ?, # or control characters')
  .refine((value) => !value.split('/').some((segment) => segment === '.' || segment === '..'), 'expected a path without . or .. segments');

/** A slug used as one path segment (tags): no `/`, `\`, control characters, `.` or `..`. */
export const slug = z
  .string()
  .min(1)
  .regex(/^[^/\\\u0000-\u001f?#]+$/, 'expected a single path segment')
  .refine((value) => value !== '.' && value !== '..', 'expected a slug, not . or ..');

export const rendition = z.object({ width: numeric, height: numeric, url: httpUrl });
export type Rendition = z.output<typeof rendition>;

/** `sizes`: named renditions; empty or missing ones are dropped. */
export const sizes = z
  .record(z.string(), rendition.nullish())
  .nullish()
  .transform((value) => {
    const out: Record<string, Rendition> = {};
    for (const [name, r] of Object.entries(value ?? {})) if (r) out[name] = r;
    return out;
  });
export type Sizes = z.output<typeof sizes>;
