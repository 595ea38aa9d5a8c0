/**
 * What one attempt needs from an HTTP stack: send a GET, then read the body
 * within limits or discard it. Two stacks implement it: undici's own request
 * (`undici-transport.ts`, live builds) and any fetch (`fetch-transport.ts`: a
 * snapshot's replay, a recorder, an in-process API, tests).
 */
import type { FailureContext } from './attempt-failures.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface BodyLimits {
  /** Bytes allowed. */
  cap: number;
  /** A 2xx answer: over the cap fails (too-large); an error answer is cut short at the cap. */
  ok: boolean;
  onBytes?: ((n: number) => void) | undefined;
  failure: FailureContext;
}

export interface SentRequest {
  status: number;
  statusText: string;
  headers: Headers;
  /** The whole body, decoded (gzip, br) and bounded by `limits`. */
  readBody(limits: BodyLimits): Promise<Buffer>;
  /** Frees the connection without reading the body. */
  discard(): Promise<void>;
}

export interface SendOptions {
  headers: Record<string, string>;
  /** Aborts the request and its body (timeouts, stalls, the caller). */
  signal: AbortSignal;
}

export interface Transport {
  send(url: string, options: SendOptions): Promise<SentRequest>;
}
