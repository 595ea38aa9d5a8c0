import type { IncomingMessage } from 'node:http';
import type { Reply } from './reply.ts';
import { withEtagHeader } from './reply-cache.ts';

/** Adds a strong ETag to a 200 reply (unless it has one), and answers 304 when the request already holds it. */
export function withEtag(reply: Reply, req: IncomingMessage): Reply {
  if (reply.status !== 200) return reply;
  const etag = withEtagHeader(reply).headers.etag!;
  const headers = { ...reply.headers, etag, 'cache-control': 'no-cache' };
  const wanted = req.headers['if-none-match'];
  if (wanted && (wanted.trim() === '*' || wanted.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))) {
    return { status: 304, headers, body: Buffer.alloc(0) };
  }
  return { ...reply, headers };
}
