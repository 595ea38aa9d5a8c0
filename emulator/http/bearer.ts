import type { IncomingMessage } from 'node:http';

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
}
