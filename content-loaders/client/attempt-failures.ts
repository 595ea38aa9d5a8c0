/**
 * What one failed HTTP attempt becomes: an AttemptFailure that says what
 * happened, whether another attempt may help and what to do. Never holds a
 * secret: messages are redacted and causes copied by `sanitizeCause`.
 */
import {
  AttemptFailure,
  RETRYABLE_STATUSES,
  adviceForStatus,
  errorCode,
  innermostMessage,
  oneLine,
  redact,
  sanitizeCause,
} from './errors.ts';
import { parseRetryAfter } from './retry.ts';
import { formatBytes } from '../format-bytes.ts';

/** The abort reason of an attempt's own controller when its deadline passes. */
export const TIMEOUT = Symbol('timeout');

export interface FailureContext {
  /** The caller's cancellation, if any. */
  callerSignal: AbortSignal | undefined;
  /** The attempt's own controller (timeouts, stalls). */
  attemptSignal: AbortSignal;
  timeoutMs: number;
  stallTimeoutMs: number;
  /** The size cap of a 2xx body. */
  maxResponseBytes: number;
  secrets: readonly string[];
}

/** undici's own codes for its stall bound (`bodyTimeout`) and its size cap (the Agent's `maxResponseSize`). */
const UNDICI_STALL = 'UND_ERR_BODY_TIMEOUT';
const UNDICI_TOO_LARGE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
/** undici's redirect interceptor past `maxRedirections` (with `throwOnMaxRedirect`). */
const UNDICI_REDIRECT_MAX = 'UND_ERR_REDIRECT_MAX';

export function tooLarge(size: string, cap: number): AttemptFailure {
  return new AttemptFailure({
    kind: 'too-large',
    retryable: false,
    detail: `response body of ${size} exceeds the cap of ${formatBytes(cap)}`,
    advice: 'lower the page limit or raise maxResponseBytes',
  });
}

export function stalled(stallTimeoutMs: number): AttemptFailure {
  return new AttemptFailure({
    kind: 'stall',
    retryable: true,
    detail: `the response stalled (no body bytes for ${stallTimeoutMs} ms)`,
    advice: 'the API or network is stalling; retry later',
  });
}

export function truncated(received: number, declared: number): AttemptFailure {
  return new AttemptFailure({
    kind: 'truncated',
    retryable: true,
    detail: `the body ended after ${received} of ${declared} bytes`,
    advice: 'the API or network dropped the connection; retry later',
  });
}

/** Maps an exception from sending (`connect`) or reading the body (`body`) to an AttemptFailure. */
export function failureFrom(error: unknown, phase: 'connect' | 'body', context: FailureContext): AttemptFailure {
  const { callerSignal, attemptSignal, secrets } = context;
  if (callerSignal?.aborted) {
    return new AttemptFailure({
      kind: 'aborted',
      retryable: false,
      detail: 'cancelled by the caller',
      advice: 'nothing to do',
      cause: sanitizeCause(callerSignal.reason, secrets),
    });
  }
  const reason: unknown = attemptSignal.aborted ? attemptSignal.reason : undefined;
  const code = errorCode(error);
  if (reason === TIMEOUT) {
    return new AttemptFailure({
      kind: 'timeout',
      retryable: true,
      detail: `no complete response within ${context.timeoutMs} ms`,
      advice: 'the API is slow; retry later or raise the request timeout',
    });
  }
  if (code === UNDICI_STALL) return stalled(context.stallTimeoutMs);
  if (code === UNDICI_REDIRECT_MAX || (code === 'UND_ERR_INVALID_ARG' && /^Redirect loop/.test(innermostMessage(error)))) {
    // undici's own text blames a Client or Pool; what happened is that the server redirects in circles.
    return new AttemptFailure({
      kind: 'redirect',
      retryable: false,
      detail:
        code === UNDICI_REDIRECT_MAX
          ? 'the API redirected more times than the client follows'
          : 'the API redirects in a loop, back to a URL it already sent',
      advice: 'check {apiUrl}: it must answer, not redirect; use the address the redirects should end at',
    });
  }
  if (code === UNDICI_TOO_LARGE) return tooLarge(`more than ${formatBytes(context.maxResponseBytes)}`, context.maxResponseBytes);
  const message = redact(innermostMessage(error), secrets);
  const what = code && !message.includes(code) ? `${code}: ${message}` : message;
  if (phase === 'body') {
    return new AttemptFailure({
      kind: 'truncated',
      retryable: true,
      detail: `the connection closed before the body was complete (${what})`,
      advice: 'the API or network dropped the connection; retry later',
      cause: sanitizeCause(error, secrets),
    });
  }
  return new AttemptFailure({
    kind: 'network',
    retryable: true,
    detail: `network error (${what})`,
    advice: 'could not reach the API; check {apiUrl} and the network',
    cause: sanitizeCause(error, secrets),
  });
}

/** The `error.message` of a JSON error body, or a short snippet of a text body. */
function errorBodyMessage(body: Buffer, secrets: readonly string[]): string | undefined {
  if (body.length === 0) return undefined;
  const text = body.subarray(0, 2048).toString('utf8');
  let message: string | undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const error = (parsed as { error?: unknown } | null)?.error;
    const candidate = typeof error === 'string' ? error : (error as { message?: unknown } | null | undefined)?.message;
    if (typeof candidate === 'string') message = candidate;
  } catch {
    message = /^\s*</.test(text) ? undefined : text;
  }
  if (message === undefined) return undefined;
  const clean = oneLine(redact(message, secrets));
  return clean.length > 160 ? `${clean.slice(0, 157)}...` : clean;
}

/** A non-2xx answer: its status, the server's own message if it gave one, Retry-After. */
export function httpFailure(
  response: Pick<Response, 'status' | 'statusText' | 'headers'>,
  body: Buffer,
  secrets: readonly string[],
  now: number,
): AttemptFailure {
  const status = response.status;
  const reason = response.statusText || '';
  const serverSays = errorBodyMessage(body, secrets);
  return new AttemptFailure({
    kind: 'http',
    status,
    retryable: RETRYABLE_STATUSES.has(status),
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now),
    detail: `HTTP ${status}${reason ? ` ${reason}` : ''}${serverSays ? ` ("${serverSays}")` : ''}`,
    advice: adviceForStatus(status),
  });
}
