/**
 * Building blocks shared by every resource schema. They are lenient where
 * the live API is (numbers as strings, nulls, unknown fields are dropped) and
 * idempotent, so parsing their own output again gives the same value.
 */
import { z } from 'astro/zod';
import { FLAG_FORMS, readFlag } from '../data-policy/flags.ts';
import { readInstant } from '../data-policy/instants.ts';

/** A number, or a string holding one (`"200"`), stored as a number. */
export const numeric = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
  z.number({ message: 'expected a number or a numeric string' }),
);

/** `""` where older answers mean "nothing": read as null, so the schema's own message names real mistakes. */
const blankAsNull = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? null : value), schema.nullish()).transform((value) => value ?? null);

/**
 * An integer id, as a number or a string of digits. Ids past 2^53 − 1 are refused: as numbers two of
 * them can be one (`"9007199254740993"` reads as …992), and an id must name one item.
 */
export const id = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(n)) return n;
  ctx.addIssue({ code: 'custom', message: Number.isInteger(n) ? 'expected an integer id below 2^53' : 'expected an integer id' });
  return z.NEVER;
});

/** Years a date the site writes may have: four digits, as calendars (RFC 5545), sitemaps and feeds require. */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/**
 * An instant in any form the live API sends (ISO 8601 extended or basic, epoch seconds or
 * milliseconds), normalised to ISO 8601 UTC with milliseconds; a time without offset is UTC.
 */
export const isoDate = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const reading = readInstant(value);
  if (reading.kind !== 'instant') {
    ctx.addIssue({ code: 'custom', message: 'expected an ISO-8601 date or epoch seconds/milliseconds' });
    return z.NEVER;
  }
  const year = new Date(reading.at).getUTCFullYear();
  if (year < FIRST_YEAR || year > LAST_YEAR) {
    ctx.addIssue({ code: 'custom', message: `expected a date in the years ${FIRST_YEAR}–${LAST_YEAR}` });
    return z.NEVER;
  }
  return new Date(reading.at).toISOString();
});

/** A string the API may send as null, as `""` or leave out; stored as null unless it holds text. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value && value.trim() !== '' ? value : null));

/** An optional instant; `""` (older answers) counts as absent. */
export const optionalDate = blankAsNull(isoDate);

/** A yes/no value in any spelling `readFlag` knows; `fallback` when missing, null or blank. */
export const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.number(), z.string()])
    .nullish()
    .transform((value, ctx) => {
      const reading = readFlag(value);
      if (reading === 'absent') return fallback;
      if (reading !== 'unreadable') return reading;
      ctx.addIssue({ code: 'custom', message: FLAG_FORMS });
      return z.NEVER;
    });

/** Text that must be there: not missing, not empty or blank (a title, a name). */
export const requiredText = z.string().refine((value) => value.trim() !== '', 'expected text, not an empty string');

/** A count or a size in bytes: a whole number, never negative. */
export const count = numeric.refine((n) => Number.isInteger(n) && n >= 0, 'expected a whole number, not negative');

/** An optional colour as `#rgb`, `#rrggbb` or with alpha; `""` counts as absent. */
export const optionalColor = blankAsNull(z.string().regex(/^#[0-9a-f]{3,8}$/i, 'expected a colour like #0a5fb4'));

/** An absolute http(s) URL. */
export const httpUrl = z.string().refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'expected an absolute http(s) URL');

/** An optional http(s) URL; `""` counts as absent. */
export const optionalUrl = blankAsNull(httpUrl);

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

/** A declared pixel size: unknown (null) when the API sends null, `""` or leaves it out. */
const dimension = blankAsNull(numeric.refine((value) => value > 0, 'expected a positive size'));

/**
 * One rendition. The live API sends `{"width": null, "height": null, "url": "https://…"}` for
 * renditions whose size it never measured (the image pipeline measures the bytes), and
 * `url: null` for a rendition with no file (a contact without a photo): that one is absent.
 */
export const rendition = z.object({ width: dimension, height: dimension, url: httpUrl.nullish() });
export type Rendition = { width: number | null; height: number | null; url: string };

/** Named renditions (`sizes`, avatars); empty, missing and file-less ones are dropped. */
export const renditions = z
  .record(z.string(), rendition.nullish())
  .nullish()
  .transform((value) => {
    const out: Record<string, Rendition> = {};
    for (const [name, r] of Object.entries(value ?? {})) if (r?.url) out[name] = { width: r.width, height: r.height, url: r.url };
    return out;
  });
export const sizes = renditions;
export type Sizes = z.output<typeof sizes>;
