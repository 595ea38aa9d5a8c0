/**
 * Read API answers kept while the press room stands still. Building an answer (views of every
 * item, JSON, media URLs made absolute) costs the emulator far more than sending it: at 10,000
 * releases a full load is 208 MB of JSON, and on a 2-core machine the emulator building it took
 * more CPU than the client reading it, in a benchmark meant to measure the client. A real API
 * serves such pages from its caches too.
 *
 * An answer is kept under the state it was made in: the store (a reset makes a new one) and its
 * revision (every change moves it on), the clock's instant and the switchable settings. When any
 * of them differs the cache starts over, so an answer is never older than the press room: with a
 * clock that runs, nothing is ever reused. Only successful answers are kept, with their ETag.
 */
import { createHash } from 'node:crypto';
import type { Reply } from './reply.ts';

/** Past this many bytes the cache starts over (a press room larger than the emulator's L scale). */
const MAX_BYTES = 512 * 1024 * 1024;

export interface ReplyCache {
  /** The answer to `request` in `state`: kept from before, or made now by `make` (and kept when it is a 200). */
  reply(state: string, request: string, make: () => Reply): Reply;
}

/** A 200 reply with its strong ETag (a hash of the body) among its headers. */
export function withEtagHeader(reply: Reply): Reply {
  if (reply.status !== 200 || reply.headers.etag) return reply;
  return { ...reply, headers: { ...reply.headers, etag: `"${createHash('sha1').update(reply.body).digest('base64url')}"` } };
}

export function createReplyCache(maxBytes = MAX_BYTES): ReplyCache {
  let current = '';
  let kept = new Map<string, Reply>();
  let bytes = 0;
  return {
    reply(state, request, make) {
      if (state !== current || bytes > maxBytes) {
        current = state;
        kept = new Map();
        bytes = 0;
      }
      const found = kept.get(request);
      if (found) return found;
      const made = withEtagHeader(make());
      if (made.status === 200) {
        kept.set(request, made);
        bytes += made.body.length;
      }
      return made;
    },
  };
}
