/**
 * The transport of live builds: undici's `request` on an Agent of this
 * client's own. Measured against Node's fetch on the same 540 requests at
 * scale L (docs/performance.md), it leaves the main thread less to do per
 * answer: no WHATWG streams, one buffer per body.
 *
 * undici enforces the bounds itself: `bodyTimeout` is the stall bound (no
 * body bytes for that long) and the Agent's `maxResponseSize` caps the bytes
 * received; `content-decoding.ts` caps the bytes decoded. (undici's own
 * decompress interceptor is experimental in undici 8 and warns on every run.)
 * Redirects are followed (as fetch does) by the redirect interceptor, which
 * drops the Authorization header when a redirect leaves the origin.
 */
import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Agent, EnvHttpProxyAgent, interceptors, request } from 'undici';
import { failureFrom } from './attempt-failures.ts';
import { ACCEPT_ENCODING, decodeBody } from './content-decoding.ts';
import { AttemptFailure } from './errors.ts';
import type { BodyLimits, SentRequest, Transport } from './transport.ts';

export interface UndiciTransportOptions {
  stallTimeoutMs: number;
  maxResponseBytes: number;
}

const MAX_REDIRECTIONS = 20;

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** An error body matters for its message only: read up to the cap, then the connection is dropped. */
async function readCutShort(body: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) break;
  }
  return Buffer.concat(chunks).subarray(0, cap);
}

export function createUndiciTransport({ stallTimeoutMs, maxResponseBytes }: UndiciTransportOptions): Transport {
  // HTTP/1.1 only, as Node's own fetch speaks (undici 8 would offer HTTP/2 to https hosts).
  const options = { allowH2: false, maxResponseSize: maxResponseBytes };
  // As Node's fetch does: HTTP_PROXY, HTTPS_PROXY and NO_PROXY are followed when NODE_USE_ENV_PROXY is set.
  const useEnvProxy = ['1', 'true'].includes(process.env.NODE_USE_ENV_PROXY ?? '');
  const dispatcher = (useEnvProxy ? new EnvHttpProxyAgent(options) : new Agent(options)).compose(
    // Past MAX_REDIRECTIONS a redirect is an error, not a 3xx answer to parse as JSON.
    interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS, throwOnMaxRedirect: true }),
  );
  return {
    async send(url, { headers, signal }): Promise<SentRequest> {
      const response = await request(url, {
        method: 'GET',
        headers: { ...headers, 'accept-encoding': ACCEPT_ENCODING },
        signal,
        dispatcher,
        headersTimeout: 0, // waiting for the headers is bounded by the attempt's own deadline
        bodyTimeout: stallTimeoutMs,
      });
      const body = response.body;
      const responseHeaders = headersOf(response.headers);
      return {
        status: response.statusCode,
        statusText: STATUS_CODES[response.statusCode] ?? '',
        headers: responseHeaders,
        async readBody(limits: BodyLimits): Promise<Buffer> {
          let received: Buffer;
          try {
            received = limits.ok ? Buffer.from(await body.arrayBuffer()) : await readCutShort(body, limits.cap);
          } catch (error) {
            throw failureFrom(error, 'body', limits.failure);
          }
          // undici frees the connection a tick after the body is read: wait for it, so the request that takes
          // this attempt's slot reuses the connection instead of opening another.
          await nextTurn();
          limits.onBytes?.(received.length);
          const encoding = responseHeaders.get('content-encoding');
          if (limits.ok) return decodeBody(received, encoding, limits.cap);
          // An error body cut short cannot be decoded whole; its message is then left out.
          return decodeBody(received, encoding, limits.cap).catch((error: unknown) => {
            if (error instanceof AttemptFailure) return Buffer.alloc(0);
            throw error;
          });
        },
        discard: () => body.dump().catch(() => undefined),
      };
    },
  };
}
