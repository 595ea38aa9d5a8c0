import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorReply, send } from './reply.ts';

/** Starts an HTTP server on `host:port` (0: a free port) and resolves with it and its origin. */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port: number,
  host: string,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('emulator: request failed', error);
      if (!res.headersSent) send(res, errorReply(500, 'emulator error'));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, origin: `http://${shownHost}:${address.port}` };
}
