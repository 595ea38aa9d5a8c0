/**
 * Fault rules: what to break, where, how often. Rules arrive as untrusted JSON
 * from the admin endpoint, so `validateFaultRule` checks every field and
 * reports the first bad one in a single line.
 */

export const FAULT_KINDS = ['latency', 'status', 'reset', 'stall', 'truncate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', '*'] as const;
const MAX_MS = 600_000;

/** A rule as accepted from callers; `id` is generated when absent. */
export interface FaultRuleInput {
  id?: string;
  /** Glob on the URL path (query excluded); `*` matches any characters, including `/`. */
  route: string;
  /** HTTP method (case-insensitive); absent or `*` = any. */
  method?: string;
  kind: FaultKind;
  /** Required for kind `status`. */
  status?: FaultStatus;
  /** `Retry-After` for status 429/503; default 1. */
  retryAfterSeconds?: number;
  /** Required for kind `latency`. */
  latencyMs?: number;
  /** For kind `stall`: how long to hold the connection before destroying it; default until the client gives up. */
  stallMs?: number;
  /** Fire for the next N matching requests (that the rate lets through), then expire. */
  count?: number;
  /** Probability 0..1 per matching request, drawn from the injector's seeded PRNG. Default 1. */
  rate?: number;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
}

export type FaultValidation = { ok: true; rule: FaultRuleInput } | { ok: false; error: string };

const KNOWN_FIELDS = new Set(['id', 'route', 'method', 'kind', 'status', 'retryAfterSeconds', 'latencyMs', 'stallMs', 'count', 'rate']);

function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** Checks an untrusted value; on failure `error` is one line starting with the field name. */
export function validateFaultRule(input: unknown): FaultValidation {
  const fail = (error: string): FaultValidation => ({ ok: false, error });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('rule: expected a JSON object');
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN_FIELDS.has(key)) return fail(`${key}: unknown field`);
  }

  const rule: FaultRuleInput = { route: '', kind: 'status' };

  if (o.id !== undefined) {
    if (typeof o.id !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(o.id)) {
      return fail('id: must be 1-64 characters of A-Z a-z 0-9 _ . : -');
    }
    rule.id = o.id;
  }

  if (typeof o.route !== 'string' || o.route.length === 0) return fail('route: required non-empty string');
  if (!o.route.startsWith('/') && o.route !== '*') return fail("route: must start with '/' (or be '*')");
  if (o.route.length > 500) return fail('route: longer than 500 characters');
  rule.route = o.route;

  if (o.method !== undefined) {
    const m = typeof o.method === 'string' ? o.method.toUpperCase() : null;
    if (m === null || !(METHODS as readonly string[]).includes(m)) return fail(`method: must be one of ${METHODS.join(', ')}`);
    rule.method = m;
  }

  if (typeof o.kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(o.kind)) {
    return fail(`kind: must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const kind = o.kind as FaultKind;
  rule.kind = kind;

  if (o.status !== undefined) {
    if (kind !== 'status') return fail("status: only allowed with kind 'status'");
    if (!(FAULT_STATUSES as readonly unknown[]).includes(o.status)) return fail(`status: must be one of ${FAULT_STATUSES.join(', ')}`);
    rule.status = o.status as FaultStatus;
  } else if (kind === 'status') {
    return fail("status: required for kind 'status'");
  }

  if (o.retryAfterSeconds !== undefined) {
    if (kind !== 'status') return fail("retryAfterSeconds: only allowed with kind 'status'");
    if (!isInt(o.retryAfterSeconds, 0, 86_400)) return fail('retryAfterSeconds: must be an integer 0..86400');
    rule.retryAfterSeconds = o.retryAfterSeconds;
  }

  if (o.latencyMs !== undefined) {
    if (kind !== 'latency') return fail("latencyMs: only allowed with kind 'latency'");
    if (!isInt(o.latencyMs, 0, MAX_MS)) return fail(`latencyMs: must be an integer 0..${MAX_MS}`);
    rule.latencyMs = o.latencyMs;
  } else if (kind === 'latency') {
    return fail("latencyMs: required for kind 'latency'");
  }

  if (o.stallMs !== undefined) {
    if (kind !== 'stall') return fail("stallMs: only allowed with kind 'stall'");
    if (!isInt(o.stallMs, 0, MAX_MS)) return fail(`stallMs: must be an integer 0..${MAX_MS}`);
    rule.stallMs = o.stallMs;
  }

  if (o.count !== undefined) {
    if (!isInt(o.count, 1, Number.MAX_SAFE_INTEGER)) return fail('count: must be a positive integer');
    rule.count = o.count;
  }

  if (o.rate !== undefined) {
    if (typeof o.rate !== 'number' || !Number.isFinite(o.rate) || o.rate < 0 || o.rate > 1) {
      return fail('rate: must be a number between 0 and 1');
    }
    rule.rate = o.rate;
  }

  return { ok: true, rule };
}

/** Compiles a route glob: `*` matches any run of characters (including `/`); everything else is literal. */
export function compileRouteGlob(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's');
}
