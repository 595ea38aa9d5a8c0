/**
 * A bounded, in-memory log of the requests the emulator answered. It proves
 * what a client sent (which key, conditional or not, which faults fired)
 * without ever holding a secret: the Authorization header is reduced to a
 * short SHA-256 fingerprint and secret-looking query values are redacted.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type AuthKind = 'none' | 'bearer' | 'other';

export interface RequestLogEntry {
  /** Increasing from 1 for the life of the log (not reset by `clear`). */
  seq: number;
  /** ISO time the entry was recorded. */
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  ms: number;
  auth: AuthKind;
  /** First 12 hex characters of SHA-256 of the bearer token; null without one. */
  keyFingerprint: string | null;
  /** Label of the injected fault (e.g. `status:503`), null when none fired. */
  fault: string | null;
  ifNoneMatch: boolean;
}

/** What the server derives from the request itself; it adds status, ms and fault. */
export interface RequestDescription {
  method: string;
  path: string;
  query: Record<string, string>;
  auth: AuthKind;
  keyFingerprint: string | null;
  ifNoneMatch: boolean;
}

export type RequestLogInput = RequestDescription & {
  status: number;
  ms: number;
  fault?: string | null;
  at?: string;
};

export interface RequestLogFilter {
  /** Only entries whose path starts with this. */
  pathPrefix?: string;
  /** Only entries with `seq` greater than this (poll with the last seq you saw). */
  since?: number;
  /** At most this many, the newest ones. */
  limit?: number;
}

export interface RequestLog {
  record(entry: RequestLogInput): RequestLogEntry;
  /** Matching entries, oldest first. */
  entries(filter?: RequestLogFilter): RequestLogEntry[];
  clear(): void;
  /** seq of the newest entry ever recorded (0 if none). */
  lastSeq(): number;
  readonly size: number;
  readonly capacity: number;
}

export const REDACTED = '[redacted]';

const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'signature',
  'sig',
  'auth',
  'authorization',
  'credential',
  'credentials',
]);
const SECRET_NAMES = new Set(['apikey', 'accesstoken', 'authtoken', 'refreshtoken', 'idtoken', 'clientsecret', 'sessionid', 'xapikey']);

/**
 * True for parameter names that may carry a secret: `key`, `api_key`, `apiKey`,
 * `apikey`, `token`, `access_token`, `secret`, `client_secret`, `password`, …
 * (any word of the name, split on separators and camelCase, is a secret word).
 */
export function isSecretParam(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  return SECRET_NAMES.has(words.join(''));
}

export function redactQuery(query: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) out[name] = isSecretParam(name) ? REDACTED : String(value);
  return out;
}

/** First 12 hex characters of SHA-256 of the token. */
export function keyFingerprint(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 12);
}

/** Classifies an Authorization header value and fingerprints a bearer token. */
export function describeAuth(header: string | undefined): { auth: AuthKind; keyFingerprint: string | null } {
  if (header === undefined || header.trim() === '') return { auth: 'none', keyFingerprint: null };
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1]) return { auth: 'bearer', keyFingerprint: keyFingerprint(match[1]) };
  return { auth: 'other', keyFingerprint: null };
}

/** Derives the loggable facts of a request; never keeps the Authorization value. */
export function describeRequest(req: IncomingMessage): RequestDescription {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    const prev = query[name];
    query[name] = prev === undefined ? value : `${prev},${value}`;
  }
  const { auth, keyFingerprint: fp } = describeAuth(req.headers.authorization);
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: redactQuery(query),
    auth,
    keyFingerprint: fp,
    ifNoneMatch: req.headers['if-none-match'] !== undefined,
  };
}

export function createRequestLog(options: { capacity?: number; now?: () => Date } = {}): RequestLog {
  const capacity = options.capacity ?? 10_000;
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity: must be a positive integer');
  const now = options.now ?? (() => new Date());
  const ring: Array<RequestLogEntry | undefined> = new Array<RequestLogEntry | undefined>(capacity);
  let start = 0; // index of the oldest entry
  let size = 0;
  let seq = 0;

  const copy = (e: RequestLogEntry): RequestLogEntry => ({ ...e, query: { ...e.query } });

  return {
    record(input) {
      // Copy only the known fields, so nothing else a caller passes (headers, a raw URL) is kept.
      const entry: RequestLogEntry = {
        seq: ++seq,
        at: input.at ?? now().toISOString(),
        method: input.method,
        path: input.path,
        query: redactQuery(input.query),
        status: input.status,
        ms: input.ms,
        auth: input.auth,
        keyFingerprint: input.keyFingerprint,
        fault: input.fault ?? null,
        ifNoneMatch: input.ifNoneMatch,
      };
      if (size < capacity) {
        ring[(start + size) % capacity] = entry;
        size++;
      } else {
        ring[start] = entry;
        start = (start + 1) % capacity;
      }
      return copy(entry);
    },

    entries(filter = {}) {
      const out: RequestLogEntry[] = [];
      for (let i = 0; i < size; i++) {
        const e = ring[(start + i) % capacity];
        if (e === undefined) continue;
        if (filter.since !== undefined && e.seq <= filter.since) continue;
        if (filter.pathPrefix !== undefined && !e.path.startsWith(filter.pathPrefix)) continue;
        out.push(copy(e));
      }
      if (filter.limit !== undefined && filter.limit >= 0 && out.length > filter.limit) {
        return out.slice(out.length - filter.limit);
      }
      return out;
    },

    clear() {
      ring.fill(undefined);
      start = 0;
      size = 0;
    },

    lastSeq() {
      return seq;
    },

    get size() {
      return size;
    },

    get capacity() {
      return capacity;
    },
  };
}
