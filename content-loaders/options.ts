/**
 * The loaders' options, checked by a small strict schema (an unknown option is
 * an error, as in @astrojs/sitemap): where the press room comes from (`apiUrl` +
 * `pressroomId`, or a recorded `snapshot`), how hard to ask, where to cache,
 * what to do with bad data. Nothing here reads the environment: the
 * application decides where settings come from and passes them in.
 */
import { z } from 'astro/zod';
import { OPTION_SETTING_NAMES, type SettingNames } from './client/errors.ts';
import type { FetchLike } from './client/transport.ts';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './client/limiter.ts';

/** Where lines outside a collection's own logger go (Astro's `AstroIntegrationLogger` fits). */
export interface LoaderLogger {
  info(message: string): void;
  warn(message: string): void;
}

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:$/.test(new URL(value).protocol), { message: 'must be an http:// or https:// URL' });

const functionOf = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `must be ${what}` });

export const loaderOptionsSchema = z
  .object({
    /** The Newsroom API base URL, e.g. `https://api.example.com`. */
    apiUrl: httpUrl.optional(),
    /** The press room's numeric id or its domain. */
    pressroomId: z
      .union([z.string().regex(/^[A-Za-z0-9.-]+$/, { message: 'must be a numeric id or a domain' }), z.number().int().positive()])
      .transform(String)
      .optional(),
    /** Sent as a bearer token; never logged, never in an error, never in the cache's file names. */
    apiKey: z
      .string()
      .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' })
      .optional(),
    /** Requests (and the downloads of whoever uses `runtime.client.limit`) at once. */
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(DEFAULT_CONCURRENCY),
    /** Folder of the conditional-request (ETag) cache; unset: no cache on disk. */
    cacheDir: z.string().min(1).optional(),
    /**
     * Folder for release bodies kept out of Astro's data store (one `<sha256>.html` file each; the
     * entry's `body` holds the path, `readBody` reads it). Unset: bodies stay in the entries.
     */
    bodyDir: z.string().min(1).optional(),
    /** A snapshot folder recorded by `recordSnapshot`: read instead of the API, with no network at all. */
    snapshot: z.string().min(1).optional(),
    /** Every data warning (a dropped field, a skipped item) fails the load. */
    strict: z.boolean().default(false),
    /** UNSAFE: keep upstream HTML fields as the API sent them instead of sanitising them. Only for a consumer that sanitises every field itself. */
    rawHtml: z.boolean().default(false),
    /** The instant (ms) embargoes are judged at; default: the time the runtime is created. */
    now: z.number().int().nonnegative().optional(),
    /** Where lines outside a collection's logger go (and every line, when set, instead of Astro's collection logger). */
    logger: z
      .custom<LoaderLogger>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as LoaderLogger).warn === 'function' &&
          typeof (value as LoaderLogger).info === 'function',
        { message: 'must have info() and warn()' },
      )
      .optional(),
    /** The fetch for API requests and downloads (an in-process API, a proxy); addresses are then not checked. */
    fetch: functionOf<FetchLike>('a fetch function').optional(),
    /** How error messages name the settings (an application reading them from environment variables passes those names). */
    settingNames: z
      .object({ apiUrl: z.string(), pressroomId: z.string(), apiKey: z.string(), concurrency: z.string(), strict: z.string() })
      .partial()
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((options, ctx) => {
    if (options.snapshot) return;
    if (!options.apiUrl) ctx.addIssue({ code: 'custom', path: ['apiUrl'], message: 'is required (or give a snapshot folder)' });
    if (!options.pressroomId) ctx.addIssue({ code: 'custom', path: ['pressroomId'], message: 'is required with apiUrl' });
  });

export type LoaderOptions = z.input<typeof loaderOptionsSchema>;
export type ResolvedLoaderOptions = Omit<z.output<typeof loaderOptionsSchema>, 'settingNames'> & { settingNames: Readonly<SettingNames> };

/** Thrown for options that do not pass the schema (or a snapshot that cannot be opened); names the option. */
export class LoaderOptionsError extends Error {
  override name = 'LoaderOptionsError';
  /** The first option at fault, e.g. `apiUrl`. */
  readonly option: string;

  constructor(option: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.option = option;
  }
}

/** Checks and completes the options; throws a LoaderOptionsError naming the first wrong one. */
export function parseLoaderOptions(options: LoaderOptions): ResolvedLoaderOptions {
  const result = loaderOptionsSchema.safeParse(options);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const option = issue.code === 'unrecognized_keys' ? String(issue.keys[0]) : String(issue.path[0] ?? 'options');
    const what = issue.code === 'unrecognized_keys' ? 'is not an option of @pressroom-static/content-loaders' : issue.message;
    throw new LoaderOptionsError(option, `pressroom loaders: ${option} ${what}`);
  }
  return { ...result.data, settingNames: { ...OPTION_SETTING_NAMES, ...result.data.settingNames } };
}
