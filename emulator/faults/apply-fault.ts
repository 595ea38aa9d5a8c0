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

export async function applyFault(decision: FaultDecision, req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<void> {
  const headOnly = req.method === 'HEAD';
  const socket = req.socket;

  switch (decision.kind) {
    case 'latency': {
      const ms = decision.latencyMs ?? 0;
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
      if (!clientLeft && !res.writableEnded && !socket.destroyed) send(res, reply, { headOnly });
      return;
    }

    case 'status': {
      const status = decision.status ?? 500;
      const headers: Record<string, string> = { 'cache-control': 'no-store' };
      if (status === 429 || status === 503) headers['retry-after'] = String(decision.retryAfterSeconds ?? 1);
      const reason = STATUS_CODES[status] ?? 'Error';
      send(res, errorReply(status, `${reason} (injected fault)`, headers), { headOnly });
      return;
    }

    case 'reset': {
      resetSocket(socket);
      return;
    }

    case 'stall': {
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
      if (decision.stallMs !== undefined) {
        timer = setTimeout(() => socket.destroy(), decision.stallMs);
        timer.unref();
      }
      await closed;
      return;
    }

    case 'truncate': {
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
      return;
    }

    default: {
      const unknown: never = decision.kind;
      throw new Error(`unknown fault kind ${String(unknown)}`);
    }
  }
}
