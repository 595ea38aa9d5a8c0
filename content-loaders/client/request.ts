/**
 * One HTTP attempt over a transport (undici's request, or a fetch), bounded in
 * time and size.
 *
 * - `timeoutMs`: the whole attempt (headers and body) must finish in time.
 * - `stallTimeoutMs`: once the headers are in, the transport aborts the attempt
 *   when no body bytes arrive for this long (undici's `bodyTimeout`, or the
 *   fetch transport's own timer); named here in the failure. (Waiting for the
 *   headers is covered by `timeoutMs`: a slow server is not a stalled one.)
 * - `maxResponseBytes`: a declared Content-Length over the cap fails before any
 *   byte is read; a body that grows past the cap is aborted at that point.
 *
 * Every failure is an `AttemptFailure` that says whether another attempt may
 * help. The attempt never puts a secret in a failure: causes are copied by
 * `sanitizeCause` with the secrets given.
 */
import { TIMEOUT, failureFrom, httpFailure, tooLarge, truncated, type FailureContext } from './attempt-failures.ts';
import { formatBytes } from '../format-bytes.ts';
import { contentCodings } from './content-decoding.ts';
import type { SentRequest, Transport } from './transport.ts';

export interface AttemptOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  stallTimeoutMs: number;
  maxResponseBytes: number;
  transport: Transport;
  /** Strings that must never appear in a failure (the API key). */
  secrets: readonly string[];
  /** The caller's cancellation; aborts the attempt and is never retried. */
  signal?: AbortSignal;
  /** Called for every chunk of body bytes received (progress, stats). */
  onBytes?: (n: number) => void;
  /** Clock for Retry-After dates (tests). */
  now?: () => number;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** Empty for 304. */
  body: Buffer;
}

/** Error bodies are read for their message, but only this much of them. */
const ERROR_BODY_CAP = 64 * 1024;

/** The body's declared size, when the header is a plain number and counts the bytes read (not an encoded size). */
function declaredLength(headers: Headers): number | undefined {
  if (contentCodings(headers.get('content-encoding')).length > 0) return undefined;
  const header = headers.get('content-length');
  return header !== null && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
}

export async function attemptRequest(options: AttemptOptions): Promise<RawResponse> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const deadline = setTimeout(() => controller.abort(TIMEOUT), options.timeoutMs);
  const failure: FailureContext = {
    callerSignal: options.signal,
    attemptSignal: controller.signal,
    timeoutMs: options.timeoutMs,
    stallTimeoutMs: options.stallTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    secrets: options.secrets,
  };

  try {
    let response: SentRequest;
    try {
      response = await options.transport.send(options.url, { headers: options.headers, signal });
    } catch (error) {
      throw failureFrom(error, 'connect', failure);
    }
    if (response.status === 304) {
      await response.discard();
      return { status: 304, statusText: response.statusText, headers: response.headers, body: Buffer.alloc(0) };
    }

    const ok = response.status >= 200 && response.status < 300;
    const cap = ok ? options.maxResponseBytes : Math.min(options.maxResponseBytes, ERROR_BODY_CAP);
    const declared = declaredLength(response.headers);
    if (ok && declared !== undefined && declared > cap) {
      await response.discard();
      throw tooLarge(formatBytes(declared), cap);
    }
    const body = await response.readBody({ cap, ok, onBytes: options.onBytes, failure });
    if (ok && declared !== undefined && body.length !== declared) throw truncated(body.length, declared);
    if (!ok) throw httpFailure(response, body, options.secrets, options.now?.() ?? Date.now());
    return { status: response.status, statusText: response.statusText, headers: response.headers, body };
  } finally {
    clearTimeout(deadline);
  }
}
