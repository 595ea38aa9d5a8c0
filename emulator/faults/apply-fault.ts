/**
 * Writes a fault's outcome to the socket instead of (or around) the real reply.
 *
 * The returned promise settles when the outcome is complete: after the delayed
 * reply (latency), after the error reply (status), at once (reset), or when the
 * connection has closed (stall, truncate). It never rejects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorReply, send } from '../http/reply.ts';
import type { Reply } from '../http/reply.ts';
import type { FaultDecision } from './injector.ts';

/** Sockets currently held open by a `stall` fault. */
const stalled = new Set<Socket>();

/**
 * Destroys every connection a `stall` fault is holding open and returns how
 * many there were. A server calls this on shutdown so `server.close()` does not
 * wait for clients that never give up.
 */
export function releaseStalledConnections(): number {
  const n = stalled.size;
  for (const socket of stalled) socket.destroy();
  stalled.clear();
  return n;
}

export function stalledConnectionCount(): number {
  return stalled.size;
}

function resetSocket(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

function onceClosed(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Status line and headers with the full Content-Length of the real reply. */
function writeFullHead(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
}

/** Sends the real reply after `latencyMs`, unless the client left meanwhile. */
async function replyLate(ms: number, req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
  const socket = req.socket;
  const clientLeft = await new Promise<boolean>((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    res.once('close', onClose);
  });
  if (!clientLeft && !res.writableEnded && !socket.destroyed) send(res, reply, { headOnly: req.method === 'HEAD' });
}

function replyInjectedStatus(decision: FaultDecision, req: IncomingMessage, res: ServerResponse): void {
  const status = decision.status ?? 500;
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (status === 429 || status === 503) headers['retry-after'] = String(decision.retryAfterSeconds ?? 1);
  const reason = STATUS_CODES[status] ?? 'Error';
  send(res, errorReply(status, `${reason} (injected fault)`, headers), { headOnly: req.method === 'HEAD' });
}

/** The full head and half the body, then nothing until the client (or `stallMs`) closes the connection. */
async function stall(stallMs: number | undefined, req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
  const headOnly = req.method === 'HEAD';
  const socket = req.socket;
  const closed = onceClosed(socket);
  stalled.add(socket);
  let timer: ReturnType<typeof setTimeout> | undefined;
  socket.once('close', () => {
    if (timer !== undefined) clearTimeout(timer);
    stalled.delete(socket);
  });
  writeFullHead(res, reply);
  const half = headOnly ? Buffer.alloc(0) : reply.body.subarray(0, Math.floor(reply.body.length / 2));
  if (half.length > 0) res.write(half);
  else res.flushHeaders();
  if (stallMs !== undefined) {
    timer = setTimeout(() => socket.destroy(), stallMs);
    timer.unref();
  }
  await closed;
}

/** The full head and half the body, then a clean close: a body shorter than its Content-Length. */
async function truncate(req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
  const headOnly = req.method === 'HEAD';
  const socket = req.socket;
  const closed = onceClosed(socket);
  if (!headOnly && reply.body.length === 0) {
    // Nothing to cut short: an empty body cannot be truncated, so drop the connection instead.
    resetSocket(socket);
    await closed;
    return;
  }
  writeFullHead(res, reply);
  const half = headOnly ? Buffer.alloc(0) : reply.body.subarray(0, Math.floor(reply.body.length / 2));
  const hangUp = (): void => {
    socket.end(() => socket.destroy());
  };
  if (half.length > 0) res.write(half, hangUp);
  else {
    res.flushHeaders();
    // flushHeaders queues the head on the socket; end() flushes it before the FIN.
    hangUp();
  }
  await closed;
}

export async function applyFault(decision: FaultDecision, req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
  switch (decision.kind) {
    case 'latency':
      return replyLate(decision.latencyMs ?? 0, req, res, reply);
    case 'status':
      return replyInjectedStatus(decision, req, res);
    case 'reset':
      return resetSocket(req.socket);
    case 'stall':
      return stall(decision.stallMs, req, res, reply);
    case 'truncate':
      return truncate(req, res, reply);
    default: {
      const unknown: never = decision.kind;
      throw new Error(`unknown fault kind ${String(unknown)}`);
    }
  }
}
