import type { ServerResponse } from 'node:http';

/**
 * A complete response, computed before anything is written. Handlers return
 * one; the server (or a fault) decides how it reaches the socket. Bodies are
 * whole buffers, so Content-Length and ETag are always exact.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Writes a reply as it is: status, headers, Content-Length and body. */
export function send(res: ServerResponse, reply: Reply, { headOnly = false } = {}): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
  res.end(headOnly ? undefined : reply.body);
}

/** A JSON reply; errors use the shape `{"error": {"status", "message"}}`. */
export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(value)),
  };
}

export function errorReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return jsonReply(status, { error: { status, message } }, headers);
}
