/**
 * Errors of the Newsroom API client.
 *
 * `AttemptFailure` describes one failed HTTP attempt (internal currency between
 * request, retry and client); `NewsroomApiError` is what callers see: one line
 * saying what failed, where, after how many attempts, and what to do.
 *
 * Secrets: an error never holds the API key. Endpoints are built from the path
 * and query only (the key travels in a header), and every cause is copied
 * through `sanitizeCause`, which drops everything but name, code and message
 * and replaces any secret it finds with "(hidden)".
 */

export type FailureKind =
  | 'network' // could not connect, connection reset before the response
  | 'timeout' // no complete response within timeoutMs
  | 'stall' // no body bytes for stallTimeoutMs
  | 'truncated' // connection closed before the body was complete
  | 'http' // a non-2xx status
  | 'too-large' // body over maxResponseBytes
  | 'invalid-json' // body is not JSON
  | 'bad-envelope' // JSON, but not the `{data: ...}` shape
  | 'repeated-page' // paging: the server answered a page already seen
  | 'page-ceiling' // paging: more pages than the safety net allows
  | 'undecodable' // Content-Encoding the client cannot decode, or a damaged compressed body
  | 'redirect' // redirects that loop back or go on past the limit
  | 'aborted'; // the caller's AbortSignal fired

/** Kinds that describe the transport; their message says "after N attempts". */
const TRANSPORT_KINDS: ReadonlySet<FailureKind> = new Set([
  'network',
  'timeout',
  'stall',
  'truncated',
  'http',
  'too-large',
  'invalid-json',
  'bad-envelope',
  'undecodable',
  'redirect',
]);

/** Statuses worth another attempt. Every other 4xx/5xx is final. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export interface FailureInit {
  kind: FailureKind;
  /** What happened, e.g. `HTTP 503 Service Unavailable` or `no body bytes for 100 ms`. */
  detail: string;
  /** What the user can do about it. */
  advice: string;
  retryable: boolean;
  status?: number;
  /** From a Retry-After header, already converted to milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** One failed attempt. Thrown inside the client; callers receive a NewsroomApiError instead. */
export class AttemptFailure extends Error {
  override name = 'AttemptFailure';
  readonly kind: FailureKind;
  readonly detail: string;
  readonly advice: string;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: FailureInit) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.detail = init.detail;
    this.advice = init.advice;
    this.retryable = init.retryable;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * What the advice of an error calls each setting. The package names its options
 * (`the apiUrl option`); an application that reads its settings from elsewhere
 * (environment variables, a CMS) passes its own names, so its users read the names they set.
 */
export interface SettingNames {
  apiUrl: string;
  pressroomId: string;
  apiKey: string;
  concurrency: string;
  strict: string;
}

export const OPTION_SETTING_NAMES: Readonly<SettingNames> = {
  apiUrl: 'the apiUrl option',
  pressroomId: 'the pressroomId option',
  apiKey: 'the apiKey option',
  concurrency: 'the concurrency option',
  strict: 'the strict option',
};

/** Advice is written with `{apiUrl}`-style placeholders for the settings it names. */
function resolveAdvice(template: string, names: Readonly<SettingNames>): string {
  return template.replace(/\{(apiUrl|pressroomId|apiKey|concurrency|strict)\}/g, (_m, name: keyof SettingNames) => names[name]);
}

export interface NewsroomApiErrorInit extends FailureInit {
  /** Path and query of the request, without secrets, e.g. `/v1/pressrooms/4201/press_releases?page=3&limit=100`. */
  endpoint: string;
  attempts: number;
  method?: string;
  /** The whole request URL (origin, path, query; never a secret), when known. */
  url?: string;
  /** How the advice names settings (default: the package's option names). */
  settingNames?: Readonly<SettingNames>;
}

/**
 * What a caller of the client sees: one line saying what failed, where, after how
 * many attempts and what to do, with the parts as fields (url, endpoint, status,
 * kind) for code that handles failures itself.
 */
export class NewsroomApiError extends Error {
  override name = 'NewsroomApiError';
  readonly method: string;
  /** Path and query, never a secret. */
  readonly endpoint: string;
  /** The whole request URL when known (never a secret). */
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly attempts: number;
  readonly kind: FailureKind;
  readonly retryable: boolean;
  /** What happened, e.g. `HTTP 503 Service Unavailable`. */
  readonly detail: string;
  /** What to do about it, with the settings named as `settingNames` says. */
  readonly advice: string;
  readonly #init: NewsroomApiErrorInit;

  constructor(init: NewsroomApiErrorInit) {
    const method = init.method ?? 'GET';
    const what = `${method} ${init.endpoint}`;
    const how = TRANSPORT_KINDS.has(init.kind) ? `failed after ${init.attempts} attempt${init.attempts === 1 ? '' : 's'}` : 'failed';
    const advice = resolveAdvice(init.advice, init.settingNames ?? OPTION_SETTING_NAMES);
    super(oneLine(`${what} ${how}: ${init.detail} — ${advice}`), init.cause === undefined ? undefined : { cause: init.cause });
    this.#init = init;
    this.method = method;
    this.endpoint = init.endpoint;
    this.url = init.url;
    this.status = init.status;
    this.attempts = init.attempts;
    this.kind = init.kind;
    this.retryable = init.retryable;
    this.detail = init.detail;
    this.advice = advice;
  }

  /** The same failure with its URL and the settings named the caller's way. */
  with(changes: Pick<NewsroomApiErrorInit, 'url' | 'settingNames'>): NewsroomApiError {
    return new NewsroomApiError({
      ...this.#init,
      url: changes.url ?? this.#init.url,
      settingNames: changes.settingNames ?? this.#init.settingNames,
    });
  }

  static fromFailure(failure: AttemptFailure, endpoint: string, attempts: number): NewsroomApiError {
    return new NewsroomApiError({
      kind: failure.kind,
      detail: failure.detail,
      advice: failure.advice,
      retryable: failure.retryable,
      status: failure.status,
      cause: failure.cause,
      endpoint,
      attempts,
    });
  }
}

/** Collapses whitespace so a message is always one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Replaces every occurrence of each secret (of 4+ characters) with "(hidden)". */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('(hidden)');
  }
  return out;
}

/**
 * A copy of an error chain that keeps only name, code and message (with secrets
 * redacted), at most `depth` levels deep. Fetch errors can carry request
 * objects; this keeps none of that on a thrown error.
 */
export function sanitizeCause(cause: unknown, secrets: readonly string[], depth = 4): Error | undefined {
  if (cause === undefined || cause === null || depth <= 0) return undefined;
  if (!(cause instanceof Error)) return new Error(redact(String(cause), secrets));
  const inner = sanitizeCause((cause as { cause?: unknown }).cause, secrets, depth - 1);
  const copy = new Error(redact(cause.message, secrets), inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') (copy as Error & { code?: string | number }).code = code;
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** The innermost `code` of an error chain (e.g. ECONNRESET), if any. */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let i = 0; i < 6 && current instanceof Error; i++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found = code;
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

/** The innermost message of an error chain. */
export function innermostMessage(error: unknown): string {
  let current: unknown = error;
  let message = String(error);
  for (let i = 0; i < 6 && current instanceof Error; i++) {
    if (current.message) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

/** Advice for a failed HTTP status (with setting placeholders, see SettingNames). */
export function adviceForStatus(status: number): string {
  if (status === 401) return 'the API wants a valid key; set or check {apiKey}';
  if (status === 403) return 'the API refused this key; check {apiKey} and its permissions';
  if (status === 404)
    return 'not found: the item does not exist or is not public, or {pressroomId} (numeric id or domain) or {apiUrl} is wrong';
  if (status === 422) return 'the API rejected a parameter (e.g. a tag that does not exist); not retried';
  if (status === 400) return 'the API rejected a malformed parameter; not retried';
  if (status === 429) return 'the API is rate limiting; retry later or lower {concurrency}';
  if (status >= 500) return 'the API is unavailable; retry later or lower {concurrency}';
  return 'unexpected answer from the API; check {apiUrl}';
}
