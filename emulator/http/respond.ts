/** Sends each request to its part by path: media bytes, the Read API or the management operations. */
import type { IncomingMessage } from 'node:http';
import type { ManagementApi } from '../management/api.ts';
import { withEtag } from './etag.ts';
import type { ReadApi } from './read-api.ts';
import { errorReply, type Reply } from './reply.ts';

export interface Parts {
  read: ReadApi;
  manage: ManagementApi;
  media: (req: IncomingMessage, pathname: string) => Promise<Reply>;
}

export type Responder = (req: IncomingMessage, method: string, url: URL) => Promise<Reply>;

function normalisePath(pathname: string): string {
  return pathname.replace(/\.json$/, '').replace(/\/presskits(?=\/|$)/, '/media_kits');
}

export function createResponder({ read, manage, media }: Parts): Responder {
  return async (req, method, url) => {
    const pathname = normalisePath(url.pathname);
    if (pathname.startsWith('/media/')) {
      return method === 'GET' || method === 'HEAD' ? media(req, pathname) : errorReply(405, 'media is read-only');
    }
    if (pathname.startsWith('/v1/pressrooms/') || pathname === '/v1/pressrooms') {
      if (method !== 'GET' && method !== 'HEAD') return errorReply(405, `the Read API answers GET only, not ${method}`);
      return withEtag(read(req, pathname, url.searchParams), req);
    }
    if (pathname.startsWith('/v1/')) return manage(req, method, pathname, url.searchParams);
    return errorReply(404, 'Missing');
  };
}
