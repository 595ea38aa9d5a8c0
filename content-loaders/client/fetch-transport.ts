/**
 * A transport over any fetch: a snapshot's replay, a recorder, an in-process
 * API, tests. The body is read as a stream so the stall bound and the size
 * cap hold as it arrives (`body-reader.ts`).
 */
import { readBody } from './body-reader.ts';
import type { FetchLike, SentRequest, Transport } from './transport.ts';

export function createFetchTransport(fetch: FetchLike, { stallTimeoutMs }: { stallTimeoutMs: number }): Transport {
  return {
    async send(url, { headers, signal }): Promise<SentRequest> {
      const abort = new AbortController();
      const response = await fetch(url, { method: 'GET', headers, signal: AbortSignal.any([signal, abort.signal]), redirect: 'follow' });
      return {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        readBody: (limits) => readBody(response.body, limits, { stallTimeoutMs, abort }),
        discard: async () => {
          await response.body?.cancel().catch(() => undefined);
        },
      };
    },
  };
}
