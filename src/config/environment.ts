/**
 * The configuration contract (docs/configuration.md), read from an
 * environment record. Pure: it reads only the record it is given (`.env` is
 * loaded into the environment first by `dot-env.ts`). Empty values count as unset.
 *
 * A wrong value throws a ConfigError whose message is one line naming the
 * variable, the value (secrets shown as "(hidden)") and what is expected:
 *
 *   PRESSROOM_CONCURRENCY must be an integer from 1 to 64, got "abc"
 *
 * The secrets (`apiKey`, `webhookSecret`) and the IndexNow key (public in the
 * site by design, yet kept out of logs) are non-enumerable on the returned
 * object, so logging or serialising the config never prints them.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'astro/zod';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '@pressroom-static/content-loaders';

export const DEFAULT_SITE_URL = 'http://localhost:4321';
/** The IndexNow endpoint shared by every participating search engine (indexnow.org). */
export const DEFAULT_INDEXNOW_ENDPOINT = 'https://api.indexnow.org/indexnow';

export interface PressroomConfig {
  /** `PRESSROOM_API_URL` without a trailing slash; undefined = use the bundled emulator. */
  apiUrl: string | undefined;
  /** `PRESSROOM_ID`: numeric id or domain; undefined = the demo press room. */
  pressroomId: string | undefined;
  /** `PRESSROOM_API_KEY` (non-enumerable). */
  readonly apiKey: string | undefined;
  /** `PRESSROOM_SITE_URL` without a trailing slash (`https://example.com/press`). */
  siteUrl: string;
  /** The site URL's origin: Astro's `site` (`https://example.com`). */
  siteOrigin: string;
  /** The site URL's path, Astro's `base`: `/` at the root of the host, else `/press` (no trailing slash). */
  basePath: string;
  /** `PRESSROOM_SNAPSHOT`: snapshot folder, as given. */
  snapshotDir: string | undefined;
  /** `PRESSROOM_IMAGE_HOSTS`: lower-cased host names, no duplicates. */
  imageHosts: string[];
  /** `PRESSROOM_CONCURRENCY`, 1..64. */
  concurrency: number;
  /** `PRESSROOM_WEBHOOK_SECRET` (non-enumerable). */
  readonly webhookSecret: string | undefined;
  /** `PRESSROOM_DEPLOY_COMMAND`. */
  deployCommand: string | undefined;
  /** `PRESSROOM_STRICT`: every data warning fails the build. */
  strict: boolean;
  /** `PRESSROOM_WARM`: the webhook receiver keeps a renderer warm between deliveries (scripts/warm/). */
  warm: boolean;
  /** `PRESSROOM_CACHE_DIR`: where the HTTP and image caches live, as given; undefined = `.cache/` in the project. */
  cacheDir: string | undefined;
  /** `PRESSROOM_WEBSUB_HUB`: the WebSub hub every feed names and each changed feed is announced to; undefined = off. */
  websubHub: string | undefined;
  /** `PRESSROOM_INDEXNOW_KEY` (non-enumerable): the site serves it as `/<key>.txt` and submits changed pages with it; undefined = off. */
  readonly indexNowKey: string | undefined;
  /** `PRESSROOM_INDEXNOW_ENDPOINT`: where IndexNow submissions go. */
  indexNowEndpoint: string;
  /** `PRESSROOM_QUEUE_URL` (non-enumerable: it may carry a Redis password): `redis://` or `rediss://`; undefined = renditions made in the build's own process. */
  readonly queueUrl: string | undefined;
  /** `PRESSROOM_STORE_URL`: the renditions' shared store; undefined = none. */
  store: SharedStoreLocation | undefined;
  /** How a value was read when it was not taken as written, one info line each (an API URL ending in `/v1`). */
  notes: string[];
}

/** `PRESSROOM_STORE_URL` read: a folder (a shared volume) or an S3-compatible bucket and key prefix (`''` or ending in `/`). */
export type SharedStoreLocation = { kind: 'file'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

export const CONFIG_VARIABLES = [
  'PRESSROOM_API_URL',
  'PRESSROOM_ID',
  'PRESSROOM_API_KEY',
  'PRESSROOM_SITE_URL',
  'PRESSROOM_SNAPSHOT',
  'PRESSROOM_IMAGE_HOSTS',
  'PRESSROOM_CONCURRENCY',
  'PRESSROOM_WEBHOOK_SECRET',
  'PRESSROOM_DEPLOY_COMMAND',
  'PRESSROOM_STRICT',
  'PRESSROOM_WARM',
  'PRESSROOM_CACHE_DIR',
  'PRESSROOM_WEBSUB_HUB',
  'PRESSROOM_INDEXNOW_KEY',
  'PRESSROOM_INDEXNOW_ENDPOINT',
  'PRESSROOM_QUEUE_URL',
  'PRESSROOM_STORE_URL',
] as const;
export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/** Never echoed in a message (the IndexNow key is public in the site, but kept out of logs all the same). */
const SECRET_VARIABLES: ReadonlySet<string> = new Set(['PRESSROOM_API_KEY', 'PRESSROOM_WEBHOOK_SECRET', 'PRESSROOM_INDEXNOW_KEY']);

/** S3's bucket naming rules, loosely (as the deploy command's target). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** `file:///absolute/folder` or `s3://bucket[/prefix]`, read. */
function storeLocation(value: string): SharedStoreLocation | string {
  const s3 = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value);
  if (s3) {
    const parts = (s3[2] ?? '').split('/').filter(Boolean);
    if (!BUCKET_NAME.test(s3[1]!) || parts.some((part) => part === '.' || part === '..')) return 'bad';
    return { kind: 's3', bucket: s3[1]!, prefix: parts.length ? `${parts.join('/')}/` : '' };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'bad';
  }
  if (url.protocol !== 'file:' || url.host !== '' || url.search || url.hash) return 'bad';
  return { kind: 'file', dir: fileURLToPath(url) };
}
/** Names this project sets for others (the receiver, for the deploy command) and never reads. */
const SET_FOR_OTHERS: ReadonlySet<string> = new Set(['PRESSROOM_SITE_DIR', 'PRESSROOM_CHANGES']);

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly variable: string;
  /** Every problem found, one line each (the message is the first). */
  readonly problems: string[];

  constructor(variable: string, problems: string[]) {
    super(problems[0] ?? `${variable} is invalid`);
    this.variable = variable;
    this.problems = problems;
  }
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

function isHostName(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host.split('.').every((n) => Number(n) <= 255);
  return host.split('.').every((label) => HOST_LABEL.test(label));
}

/** `''`, `/` or `/<segment>/…` with an optional trailing slash; a segment follows the rule src/lib/paths.ts applies to the site's own paths. */
const SITE_PATH = /^(\/[A-Za-z0-9][A-Za-z0-9._~-]*)*\/?$/;

/** The path of a URL as written (`https://x/a/../b?q` → `/a/../b`), before any resolution; `''` without a scheme (the URL check names that). */
function rawPathOf(value: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/.exec(value)?.[1] ?? '';
}

/**
 * Zod check for an http(s) URL; `what` is what the message says is expected. A base URL loses
 * its trailing slash (paths are appended to it); an `endpoint` is kept as written (normalised),
 * since a server may tell `/hub` from `/hub/`.
 */
function httpUrl(what: string, { endpoint = false }: { endpoint?: boolean } = {}) {
  return z
    .string()
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: what });
        return;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: what });
      else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: `${what} without a user name or password in it` });
      else if (url.search || url.hash) ctx.addIssue({ code: 'custom', message: `${what} without a query or fragment` });
    })
    .transform((value) => {
      const url = new URL(value);
      return endpoint ? url.href : `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    });
}

const schema = z.object({
  PRESSROOM_API_URL: httpUrl('an http:// or https:// URL (the API base, e.g. https://api.example.com)').optional(),
  PRESSROOM_ID: z
    .string()
    .refine((v) => /^\d+$/.test(v) || (v.includes('.') && isHostName(v)), {
      message: 'a numeric press room id (e.g. 4201) or the press room domain (e.g. acme.pr.example)',
    })
    .optional(),
  PRESSROOM_API_KEY: z
    .string()
    .regex(/^[\x21-\x7e]+$/, { message: 'a single token of printable characters without spaces' })
    .optional(),
  PRESSROOM_SITE_URL: z
    .string()
    // Checked on the text as given: `new URL` would quietly resolve `/a/../b` to `/b`.
    .refine((value) => SITE_PATH.test(rawPathOf(value)), {
      message:
        'an http:// or https:// URL whose path, if any, is plain folder names (letters, digits, -, _, ., ~; no "..", no empty or encoded parts), e.g. https://example.com/press/',
    })
    .pipe(httpUrl('an http:// or https:// URL (the public site, e.g. https://press.example.com or https://example.com/press/)'))
    .default(DEFAULT_SITE_URL),
  PRESSROOM_SNAPSHOT: z
    .string()
    .refine((v) => !v.includes('\0'), { message: 'a folder path' })
    .optional(),
  PRESSROOM_IMAGE_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ''),
    )
    .refine((hosts) => hosts.every(isHostName), {
      message: 'a comma-separated list of host names (e.g. images.example.com,cdn.example.net)',
    })
    .transform((hosts) => [...new Set(hosts)])
    .optional(),
  PRESSROOM_CONCURRENCY: z
    .string()
    .regex(/^\d+$/, { message: `an integer from 1 to ${MAX_CONCURRENCY}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { message: `an integer from 1 to ${MAX_CONCURRENCY}` })
        .max(MAX_CONCURRENCY, { message: `an integer from 1 to ${MAX_CONCURRENCY}` }),
    )
    .optional(),
  PRESSROOM_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, { message: 'a secret starting with "whsec_" followed by its base64 key' })
    .optional(),
  PRESSROOM_DEPLOY_COMMAND: z
    .string()
    .refine((v) => !v.includes('\0'), { message: 'a shell command' })
    .optional(),
  PRESSROOM_STRICT: z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v) => ['1', 'true', '0', 'false'].includes(v), { message: '1 or true (on), 0 or false (off)' })
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  PRESSROOM_WARM: z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v) => ['1', 'true', '0', 'false'].includes(v), { message: '1 or true (on), 0 or false (off)' })
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  PRESSROOM_CACHE_DIR: z
    .string()
    .refine((v) => !v.includes('\0'), { message: 'a folder path' })
    .optional(),
  // Written into every feed: a password in it would be published.
  PRESSROOM_WEBSUB_HUB: httpUrl('an http:// or https:// URL of a WebSub hub (e.g. https://pubsubhubbub.appspot.com/)', {
    endpoint: true,
  }).optional(),
  // The IndexNow protocol's rule for a key (indexnow.org/documentation).
  PRESSROOM_INDEXNOW_KEY: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,128}$/, { message: 'an IndexNow key: 8 to 128 letters a-z, A-Z, digits 0-9 or dashes' })
    .optional(),
  PRESSROOM_INDEXNOW_ENDPOINT: httpUrl(`an http:// or https:// URL of an IndexNow endpoint (e.g. ${DEFAULT_INDEXNOW_ENDPOINT})`, {
    endpoint: true,
  }).optional(),
  PRESSROOM_QUEUE_URL: z
    .string()
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && !url.search && !url.hash;
        } catch {
          return false;
        }
      },
      { message: 'a redis:// or rediss:// URL of the Redis the workers share (e.g. redis://queue.internal:6379/0)' },
    )
    .optional(),
  PRESSROOM_STORE_URL: z
    .string()
    .transform((value, ctx) => {
      const location = storeLocation(value);
      if (typeof location !== 'string') return location;
      ctx.addIssue({
        code: 'custom',
        message: 'file:///absolute/folder (a shared volume) or s3://bucket/prefix (an S3-compatible bucket, AWS_* variables as for deploy)',
      });
      return z.NEVER;
    })
    .optional(),
});

/** How a value appears in an error: quoted, one line, shortened; secrets never. */
function shown(variable: string, value: string | undefined): string {
  if (SECRET_VARIABLES.has(variable)) return '(hidden)';
  if (value === undefined) return 'nothing';
  // Any value may be a URL (an API base, a hub, an endpoint) carrying a password; never echo it.
  const text = value.replace(
    /\/\/([^/@]*)@/,
    (_m, userinfo: string) => `//${userinfo.includes(':') ? `${userinfo.split(':')[0]}:(hidden)` : userinfo}@`,
  );
  const quoted = JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text);
  return quoted;
}

function closest(name: string): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return row[b.length]!;
  };
  let best: { name: string; d: number } | undefined;
  for (const known of CONFIG_VARIABLES) {
    const d = distance(name, known);
    if (!best || d < best.d) best = { name: known, d };
  }
  return best && best.d <= 3 ? best.name : undefined;
}

/**
 * Reads the configuration from `env` (default `process.env`). Throws ConfigError
 * for the first wrong variable (in the order of the contract table).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): PressroomConfig {
  // A misspelt name would silently leave its setting at the default (a typo in PRESSROOM_API_URL
  // would build the demo press room): unknown names are errors.
  const unknown = Object.keys(env)
    .filter((name) => name.startsWith('PRESSROOM_') && !(CONFIG_VARIABLES as readonly string[]).includes(name) && !SET_FOR_OTHERS.has(name))
    .sort();
  if (unknown.length > 0) {
    throw new ConfigError(
      unknown[0]!,
      unknown.map((name) => {
        const guess = closest(name);
        return `${name} is not a pressroom-static setting${guess ? `; did you mean ${guess}?` : ''} (settings: ${CONFIG_VARIABLES.join(', ')})`;
      }),
    );
  }
  const input: Record<string, string | undefined> = {};
  for (const name of CONFIG_VARIABLES) {
    const raw = env[name];
    const value = raw?.trim();
    input[name] = value === undefined || value === '' ? undefined : value;
  }

  const result = schema.safeParse(input);
  if (!result.success) {
    const problems: Array<{ variable: string; line: string }> = [];
    for (const issue of result.error.issues) {
      const variable = String(issue.path[0] ?? 'configuration');
      if (problems.some((p) => p.variable === variable)) continue;
      // Every check above carries its own "what is expected" message.
      problems.push({ variable, line: `${variable} must be ${issue.message}, got ${shown(variable, input[variable])}` });
    }
    problems.sort(
      (a, b) => CONFIG_VARIABLES.indexOf(a.variable as ConfigVariable) - CONFIG_VARIABLES.indexOf(b.variable as ConfigVariable),
    );
    const firstProblem = problems[0];
    throw new ConfigError(
      firstProblem?.variable ?? 'configuration',
      problems.map((p) => p.line),
    );
  }

  const v = result.data;
  if (v.PRESSROOM_INDEXNOW_ENDPOINT && !v.PRESSROOM_INDEXNOW_KEY)
    throw new ConfigError('PRESSROOM_INDEXNOW_ENDPOINT', [
      'PRESSROOM_INDEXNOW_ENDPOINT is set but PRESSROOM_INDEXNOW_KEY is not: set the key to submit changed pages to IndexNow, or unset the endpoint',
    ]);
  if (v.PRESSROOM_QUEUE_URL && !v.PRESSROOM_STORE_URL)
    throw new ConfigError('PRESSROOM_STORE_URL', [
      'PRESSROOM_QUEUE_URL is set but PRESSROOM_STORE_URL is not: the workers put the renditions in a store the build reads (file:///shared/folder or s3://bucket/prefix), or unset PRESSROOM_QUEUE_URL',
    ]);
  const notes: string[] = [];
  // The API's documented paths start with /v1: a base copied with it would request /v1/v1/… and be answered 404.
  const apiUrl = v.PRESSROOM_API_URL?.replace(/\/v1$/i, '');
  if (apiUrl !== v.PRESSROOM_API_URL)
    notes.push(`PRESSROOM_API_URL ends in /v1: using ${apiUrl} as the API base (every request path starts with /v1/ itself)`);

  const config = {
    apiUrl,
    pressroomId: v.PRESSROOM_ID,
    siteUrl: v.PRESSROOM_SITE_URL,
    siteOrigin: new URL(v.PRESSROOM_SITE_URL).origin,
    basePath: new URL(v.PRESSROOM_SITE_URL).pathname.replace(/(.)\/+$/, '$1'),
    snapshotDir: v.PRESSROOM_SNAPSHOT,
    imageHosts: v.PRESSROOM_IMAGE_HOSTS ?? [],
    concurrency: v.PRESSROOM_CONCURRENCY ?? DEFAULT_CONCURRENCY,
    deployCommand: v.PRESSROOM_DEPLOY_COMMAND,
    strict: v.PRESSROOM_STRICT ?? false,
    warm: v.PRESSROOM_WARM ?? false,
    cacheDir: v.PRESSROOM_CACHE_DIR,
    websubHub: v.PRESSROOM_WEBSUB_HUB,
    indexNowEndpoint: v.PRESSROOM_INDEXNOW_ENDPOINT ?? DEFAULT_INDEXNOW_ENDPOINT,
    store: v.PRESSROOM_STORE_URL,
    notes,
  } as PressroomConfig;
  Object.defineProperty(config, 'apiKey', { value: v.PRESSROOM_API_KEY, enumerable: false });
  Object.defineProperty(config, 'webhookSecret', { value: v.PRESSROOM_WEBHOOK_SECRET, enumerable: false });
  Object.defineProperty(config, 'indexNowKey', { value: v.PRESSROOM_INDEXNOW_KEY, enumerable: false });
  Object.defineProperty(config, 'queueUrl', { value: v.PRESSROOM_QUEUE_URL, enumerable: false });
  return config;
}

/** Where a build reads its press room from. */
export type Upstream = 'api' | 'snapshot' | 'demo';

/** PRESSROOM_* variables with a value (empty counts as unset). */
export function configuredNames(env: Record<string, string | undefined>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('PRESSROOM_') && !SET_FOR_OTHERS.has(name) && (env[name] ?? '').trim() !== '')
    .sort();
}

/**
 * The upstream the configuration asks for. The demo press room only when nothing at all is
 * configured, or when asked for (`demo`): any other PRESSROOM_* variable without
 * PRESSROOM_API_URL or PRESSROOM_SNAPSHOT is a configuration error, so a typo never publishes
 * the fictional demo company in place of a real press room.
 *
 * `publish`: the caller builds a site to publish (build, webhooks). A real press room's site then
 * needs PRESSROOM_SITE_URL: the demo's `http://localhost:4321` must never reach canonical links,
 * sitemaps, feeds and robots.txt of a public site.
 *
 * `config`: `env` already parsed (a build's session), so it is not parsed again.
 */
export function upstreamOf(
  env: Record<string, string | undefined>,
  { demo = false, publish = false, config = loadConfig(env) }: { demo?: boolean; publish?: boolean; config?: PressroomConfig } = {},
): Upstream {
  if (demo) return 'demo';
  if (config.snapshotDir) return 'snapshot';
  if (config.apiUrl) {
    if (!config.pressroomId)
      throw new ConfigError('PRESSROOM_ID', [
        'PRESSROOM_ID is not set: give the press room numeric id or domain (PRESSROOM_API_URL is set)',
      ]);
    if (publish && !env.PRESSROOM_SITE_URL?.trim())
      throw new ConfigError('PRESSROOM_SITE_URL', [
        `PRESSROOM_SITE_URL is not set: give the public address the site is published at (e.g. https://press.example.com); without it canonical links, sitemaps and feeds would point at ${DEFAULT_SITE_URL}`,
      ]);
    return 'api';
  }
  const set = configuredNames(env);
  if (set.length === 0) return 'demo';
  throw new ConfigError('PRESSROOM_API_URL', [
    `PRESSROOM_API_URL is not set, but ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'}: set PRESSROOM_API_URL and PRESSROOM_ID (or PRESSROOM_SNAPSHOT) to build your press room, or use --demo for the demo press room`,
  ]);
}
