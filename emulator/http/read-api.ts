/** The Read API (`GET /v1/pressrooms/...`): key check, routing, press room match, JSON reply. */
import type { IncomingMessage } from 'node:http';
import FindMyWay from 'find-my-way';
import type { EmulatorSession } from '../session.ts';
import { bearer } from './bearer.ts';
import { ParamError } from './list-query.ts';
import { READ_ROUTES, type ReadRequest, type ReadResult } from './read-routes.ts';
import { errorReply, type Reply } from './reply.ts';
import { absolutizeMediaUrls } from './views.ts';
import { createReplyCache } from './reply-cache.ts';
import type { Store } from '../model/store.ts';

/** A number for each store a session has had (a reset makes a new one): part of the state answers are kept under. */
const serials = new WeakMap<Store, number>();
let lastSerial = 0;
function storeSerial(store: Store): number {
  let serial = serials.get(store);
  if (serial === undefined) serials.set(store, (serial = ++lastSerial));
  return serial;
}

export interface ReadApiOptions {
  session: EmulatorSession;
  /** When set, requests must carry `Authorization: Bearer <readKey>`. */
  readKey: string | null;
  /** The server's own origin, known once it listens; media URLs are made absolute against it. */
  origin: () => string;
}

export type ReadApi = (req: IncomingMessage, pathname: string, query: URLSearchParams) => Reply;

export function createReadApi({ session, readKey, origin }: ReadApiOptions): ReadApi {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  const cache = createReplyCache();
  for (const [route, handler] of READ_ROUTES) router.on('GET', route, () => undefined, { handler });

  return (req, pathname, query) => {
    if (readKey !== null && bearer(req) !== readKey) {
      return errorReply(401, 'Unauthorized: send Authorization: Bearer <API key>');
    }
    const found = router.find('GET', pathname);
    if (!found) return errorReply(404, 'Missing');
    const store = session.store();
    const pressroom = store.world.pressroom;
    const wanted = (found.params.pressroom ?? '').toLowerCase();
    if (wanted !== String(pressroom.id) && wanted !== pressroom.domain.toLowerCase()) return errorReply(404, 'Missing');
    const { settings } = session;
    const now = store.clock.now();
    const state = [storeSerial(store), store.revision, now.getTime(), JSON.stringify(settings), origin()].join('|');
    return cache.reply(state, `${pathname}?${query}`, () => {
      const request: ReadRequest = {
        store,
        now,
        params: found.params,
        query,
        trueTotals: settings.trueTotals,
        mode: { shapes: settings.shapes, leakHidden: settings.leakHidden },
      };
      let result: ReadResult;
      try {
        result = (found.store as { handler: (r: ReadRequest) => ReadResult }).handler(request);
      } catch (error) {
        if (error instanceof ParamError) return errorReply(error.status, error.message);
        throw error;
      }
      if (result.status !== 200) return errorReply(result.status, result.message);
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from(absolutizeMediaUrls(JSON.stringify(result.body), origin())),
      };
    });
  };
}
