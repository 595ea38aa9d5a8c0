/**
 * An upstream that answers like the emulator except where a test says
 * otherwise: every Read API request is forwarded, and the `data` of the JSON
 * answer goes through `rewrite(path, data, page)` first (path relative to the press
 * room, no query, no `.json`). For answers the live API sends that the
 * emulator does not (nulls, unsafe values, items that are not public).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `page` is the list page asked for (1 for the first, as the client counts; 0 for single answers). */
export type Rewrite = (path: string, data: any, page: number) => any;

/**
 * JSON text a rewrite sends as the answer's `data` verbatim: for values `JSON.stringify` cannot
 * write, such as a tree nested 100,000 levels deep.
 */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export interface UpstreamProxy {
  /** Base URL for PRESSROOM_API_URL. */
  url: string;
  /** Replaces the rewrite (between loads). */
  set(rewrite: Rewrite): void;
  /** The press room paths asked for since the last call (as the rewrite sees them), then forgets them. */
  takeRequests(): string[];
  close(): Promise<void>;
}

export async function startUpstreamProxy(
  target: { url: string; pressroomId: number },
  rewrite: Rewrite = (_p, d) => d,
): Promise<UpstreamProxy> {
  let current = rewrite;
  let requests: string[] = [];
  const prefix = `/v1/pressrooms/${target.pressroomId}`;
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const upstream = await fetch(`${target.url}${url.pathname}${url.search}`, {
        headers: req.headers.authorization ? { authorization: req.headers.authorization } : {},
      });
      const bytes = Buffer.from(await upstream.arrayBuffer());
      if (!upstream.ok || !url.pathname.startsWith(prefix)) {
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(bytes);
        return;
      }
      const { data, ...rest } = JSON.parse(bytes.toString('utf8')) as { data: unknown };
      const path = url.pathname
        .slice(prefix.length)
        .replace(/^\//, '')
        .replace(/\.json$/, '');
      requests.push(path);
      const rewritten: unknown = current(path, structuredClone(data), Number(url.searchParams.get('page') ?? '0'));
      const dataText = rewritten instanceof RawJson ? rewritten.text : JSON.stringify(rewritten);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":${dataText}${Object.keys(rest).length > 0 ? `,${JSON.stringify(rest).slice(1)}` : '}'}`);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { status: 500, message: (error as Error).message } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(next) {
      current = next;
    },
    takeRequests() {
      const taken = requests;
      requests = [];
      return taken;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
