import { errorCode, innermostMessage, oneLine } from '@pressroom-static/content-loaders';

/** Why a media file was not used. Every refusal is one of these, with a one-line reason. */
export type RefusalKind =
  | 'host' // scheme, credentials
  | 'address' // loopback / private / link-local / reserved address
  | 'redirect' // too many redirects, a bad Location, or an https→http downgrade
  | 'http' // non-2xx status
  | 'network' // DNS, connection, reset
  | 'timeout' // whole download or stalled body
  | 'too-large' // byte cap
  | 'truncated' // body shorter than declared, or an image that ends early
  | 'format' // not an accepted format (SVG, HTML, unknown), or a mismatch
  | 'pixels' // above the pixel cap (decompression bomb)
  | 'broken'; // the decoder failed on it

export class RefusedError extends Error {
  override name = 'RefusedError';
  readonly kind: RefusalKind;
  /** A transport failure another attempt may cure (network, 5xx, 429, timeout, cut-off body). */
  readonly retryable: boolean;
  /** How long the server asked to wait before another attempt (its Retry-After), if it said. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: RefusalKind, message: string, retryable = false, retryAfterMs?: number) {
    super(message);
    this.kind = kind;
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Any failure as a RefusedError (unexpected errors become `broken`, message on one line). */
export function asRefusal(error: unknown): RefusedError {
  if (error instanceof RefusedError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RefusedError('broken', message.split('\n')[0]!.slice(0, 300));
}

/** The innermost code and message of a fetch error chain, on one line. */
export function networkMessage(error: unknown): string {
  const code = errorCode(error);
  const message = innermostMessage(error);
  return oneLine(code ? `${code}: ${message}` : message).slice(0, 200);
}
