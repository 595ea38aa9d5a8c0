/**
 * A transport over any fetch: a snapshot's replay, a recorder, an in-process
 * API, tests. The body is read as a stream so the stall timer and the size
 * cap hold as it arrives (`body-reader.ts`).
 */
import { readBody } from './body-reader.ts';
import type { FetchLike, SentRequest, Transport } from './transport.ts';

export function createFetchTransport(fetch: FetchLike): Transport {
  return {
    async send(url, { headers, signal }): Promise<SentRequest> {
      const response = await fetch(url, { method: 'GET', headers, signal, redirect: 'follow' });
      return {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        readBody: (limits) => readBody(response.body, limits),
        discard: async () => {
          await response.body?.cancel().catch(() => undefined);
        },
      };
    },
  };
}
