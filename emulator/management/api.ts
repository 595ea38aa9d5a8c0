/** The management operations (`/v1/...` outside the Read API): key check, routing, change announcements. */
import type { IncomingMessage } from 'node:http';
import { bearer } from '../http/bearer.ts';
import { errorReply, jsonReply, type Reply } from '../http/reply.ts';
import type { EmulatorSession } from '../session.ts';
import { ManagementError, readJsonBody } from './body.ts';
import type { ManagementResult } from './context.ts';
import { matchManagement } from './router.ts';

export type ManagementApi = (req: IncomingMessage, method: string, pathname: string, query: URLSearchParams) => Promise<Reply>;

export function createManagementApi(session: EmulatorSession, managementKey: string): ManagementApi {
  return async (req, method, pathname, query) => {
    if (bearer(req) !== managementKey) {
      return errorReply(401, 'Unauthorized: management operations need Authorization: Bearer <management key>');
    }
    const match = matchManagement(method, pathname);
    if (match.kind === 'outside') return errorReply(501, match.message);
    if (match.kind === 'none') return errorReply(404, 'Missing');
    try {
      const body = method === 'GET' || method === 'DELETE' ? {} : await readJsonBody(req);
      const store = session.store();
      let result: ManagementResult;
      try {
        result = match.handler({ store, now: store.clock.now(), params: match.params, query, body });
      } finally {
        // Also after a handler that failed part-way: it may have changed records already.
        if (method !== 'GET') store.touch();
      }
      session.announce(result.changed);
      return jsonReply(result.status, result.body);
    } catch (error) {
      if (error instanceof ManagementError) return errorReply(error.status, error.message);
      throw error;
    }
  };
}
