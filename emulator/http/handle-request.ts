/**
 * One HTTP exchange end to end: CORS preflight, the admin path, then the
 * answer with any injected fault applied, and a line in the request log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleAdmin, type AdminContext } from '../admin/routes.ts';
import { applyFault } from '../faults/apply-fault.ts';
import type { FaultDecision, FaultInjector } from '../faults/injector.ts';
import { ManagementError, readJsonBody } from '../management/body.ts';
import { errorReply, send, type Reply } from './reply.ts';
import { describeRequest, type RequestLog } from './request-log.ts';
import type { Responder } from './respond.ts';

export interface RequestHandlerParts {
  admin: AdminContext;
  faults: FaultInjector;
  log: RequestLog;
  respond: Responder;
}

function answerPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, if-none-match',
    'access-control-max-age': '86400',
  });
  res.end();
}

async function answerAdmin(admin: AdminContext, req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
  let reply: Reply;
  try {
    const body = method === 'POST' || method === 'PATCH' ? await readJsonBody(req) : {};
    reply = handleAdmin(admin, method, url.pathname, url.searchParams, body);
  } catch (error) {
    reply = error instanceof ManagementError ? errorReply(error.status, error.message) : errorReply(500, String(error));
  }
  send(res, reply);
}

export function createRequestHandler({ admin, faults, log, respond }: RequestHandlerParts) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    res.setHeader('access-control-allow-origin', '*');
    if (method === 'OPTIONS') return answerPreflight(res);
    if (url.pathname === '/_emulator' || url.pathname.startsWith('/_emulator/')) return answerAdmin(admin, req, res, method, url);
    const described = describeRequest(req);
    const fault: FaultDecision | null = faults.decide(method, url.pathname);
    let reply: Reply;
    try {
      reply = await respond(req, method, url);
    } catch (error) {
      console.error(`emulator: ${method} ${url.pathname} failed:`, error);
      reply = errorReply(500, `emulator error while answering ${method} ${url.pathname}`);
    }
    const status = fault?.kind === 'status' ? (fault.status ?? 500) : fault?.kind === 'reset' ? 0 : reply.status;
    try {
      if (fault) await applyFault(fault, req, res, reply);
      else send(res, reply, { headOnly: method === 'HEAD' });
    } finally {
      log.record({ ...described, status, ms: Math.round(performance.now() - started), fault: fault?.label ?? null });
    }
  };
}
