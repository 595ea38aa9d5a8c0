/**
 * The webhook endpoint: `POST /webhooks` takes Standard Webhooks deliveries
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<HMAC-SHA256>`),
 * verified with the `standardwebhooks` package against PRESSROOM_WEBHOOK_SECRET
 * (which also refuses timestamps more than five minutes off, so a captured
 * delivery cannot be replayed later). A verified event asks the build queue
 * for a build and is answered 202 at once; a redelivery of an id already seen
 * is answered 200 and asks for nothing. `GET /healthz` reports the queue.
 * Every answer is JSON; nothing of the secret or the body reaches the log.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { BuildQueue } from './build-queue.ts';
import { scopeOfEvent } from './change-scope.ts';

export interface ReceiverOptions {
  /** `whsec_…` */
  secret: string;
  queue: BuildQueue;
  port?: number;
  host?: string;
  log?: (line: string) => void;
  /** Bodies above this are refused (413). Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface RunningReceiver {
  /** `http://host:port` */
  url: string;
  close(): Promise<void>;
}

export const WEBHOOK_PATH = '/webhooks';
const REMEMBERED_IDS = 1000;

export async function startWebhookReceiver({
  secret,
  queue,
  port = 0,
  host = '127.0.0.1',
  log = () => {},
  maxBodyBytes = 1024 * 1024,
}: ReceiverOptions): Promise<RunningReceiver> {
  const verifier = new Webhook(secret);
  const seen = new Set<string>();

  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`${JSON.stringify(body)}\n`);
  };
  const refuse = (res: ServerResponse, status: number, message: string) => reply(res, status, { error: { status, message } });

  async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const declared = Number(req.headers['content-length']);
    const body = declared > maxBodyBytes ? null : await readBody(req, maxBodyBytes);
    if (body === null) {
      // The rest of the body is never read: close the connection, or the next request on it would
      // be read from the middle of this body (and hang until the socket times out).
      res.shouldKeepAlive = false;
      res.setHeader('connection', 'close');
      return refuse(res, 413, `the body is over ${maxBodyBytes} bytes`);
    }
    const headers = {
      'webhook-id': String(req.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
    };
    let event: { type?: unknown };
    try {
      event = verifier.verify(body, headers) as { type?: unknown };
    } catch (error) {
      log(`webhooks: refused a delivery from ${req.socket.remoteAddress ?? 'unknown'}: ${(error as Error).message}`);
      return refuse(
        res,
        401,
        `not a verified Standard Webhooks delivery (${(error as Error).message}); check PRESSROOM_WEBHOOK_SECRET on both sides`,
      );
    }
    const id = headers['webhook-id'];
    const type = typeof event.type === 'string' ? event.type : 'event';
    if (seen.has(id)) {
      log(`webhooks: ${type} ${id} again (a redelivery): nothing to do`);
      return reply(res, 200, { data: { id, duplicate: true } });
    }
    seen.add(id);
    if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value!);
    queue.request(scopeOfEvent(event));
    const status = queue.status();
    log(`webhooks: ${type} ${id} → ${status.state === 'building' ? 'one more build after the running one' : 'build scheduled'}`);
    reply(res, 202, { data: { id, type, build: status } });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' && req.method === 'GET') return reply(res, 200, { data: queue.status() });
    if (path !== WEBHOOK_PATH) return refuse(res, 404, `nothing here; webhooks go to POST ${WEBHOOK_PATH}`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return refuse(res, 405, `webhooks are delivered with POST ${WEBHOOK_PATH}`);
    }
    receive(req, res).catch((error: unknown) => {
      log(`webhooks: could not read a delivery: ${(error as Error).message}`);
      if (!res.headersSent) refuse(res, 400, 'the delivery could not be read');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The body as text, or null past `max` bytes. */
async function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
