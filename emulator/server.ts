/**
 * The local Newsroom API: one HTTP server for the Read API (`/v1/pressrooms`),
 * the management operations (`/v1/...`), media bytes (`/media/...`) and the
 * admin path (`/_emulator/...`).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import FindMyWay from 'find-my-way';
import { handleAdmin, type AdminContext } from './admin/routes.ts';
import { DEFAULT_MANAGEMENT_KEY, DEMO_NOW, type Shapes } from './defaults.ts';
import { addFlaws, removeFlaws } from './demo-data/flaws.ts';
import { DEMO_SCALE, DEMO_SEED, generateWorld } from './demo-data/generate.ts';
import { applyFault } from './faults/apply-fault.ts';
import { createFaultInjector, type FaultDecision } from './faults/injector.ts';
import { ParamError } from './http/list-query.ts';
import { READ_ROUTES, type ReadRequest, type ReadResult } from './http/read-routes.ts';
import { errorReply, jsonReply, send, type Reply } from './http/reply.ts';
import { createRequestLog, describeRequest } from './http/request-log.ts';
import { legacyAsset } from './http/legacy-shapes.ts';
import { absolutizeMediaUrls } from './http/views.ts';
import { ManagementError, readJsonBody } from './management/body.ts';
import type { ManagementResult } from './management/context.ts';
import { matchManagement } from './management/router.ts';
import { assetReply } from './media/asset-reply.ts';
import { createAssetRenderer } from './media/render-asset.ts';
import { createClock } from './model/clock.ts';
import { createChangeWatcher } from './model/public-changes.ts';
import { createStore, type Store } from './model/store.ts';
import { createWebhookDispatcher } from './webhooks/dispatcher.ts';

export { DEFAULT_MANAGEMENT_KEY, DEMO_NOW, type Shapes };

export { FLAWS, FLAW_IDS, type Flaw, type FlawExpectation } from './demo-data/flaws.ts';
export { hiddenMarkers } from './demo-data/hidden-markers.ts';

/** What can be switched while running (admin `POST /_emulator/settings`), as well as at start. */
export interface EmulatorSettings {
  trueTotals: boolean;
  shapes: Shapes;
  leakHidden: boolean;
  flaws: boolean;
}

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  /** Number of press releases in the demo press room (default 60). */
  scale?: number;
  /** Where the emulator clock starts (default DEMO_NOW); it then runs in real time. */
  now?: Date | string;
  /** Keep the clock still until the admin path moves it. */
  frozenClock?: boolean;
  /** `paging.total` = the real count instead of the limit, as the live service sends it. */
  trueTotals?: boolean;
  /**
   * `legacy`: every Read API answer in the older, sparser shapes the live API
   * is known to send (same press room, other wire shapes). Default `current`.
   */
  shapes?: Shapes;
  /** Answer like a key with more rights than the public view: hidden items too, each saying why. */
  leakHidden?: boolean;
  /** Add the fixed set of deliberately broken items of `FLAWS` among the good ones. */
  flaws?: boolean;
  managementKey?: string;
  /** When set, Read API requests must carry `Authorization: Bearer <readKey>`. */
  readKey?: string | null;
  /** Where rendered media bytes are cached (default `.cache/emulator-media` in the project). */
  cacheDir?: string;
  webhookRetryDelaysMs?: number[];
  /** How often the clock is checked for embargoes lifting (default 1000 ms). */
  embargoCheckMs?: number;
}

export interface RunningEmulator {
  url: string;
  pressroom: { id: number; domain: string; name: string };
  managementKey: string;
  /** The live model; tests use it to pick ids, never to change it. */
  store(): Store;
  close(): Promise<void>;
}

const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');

function normalisePath(pathname: string): string {
  return pathname.replace(/\.json$/, '').replace(/\/presskits(?=\/|$)/, '/media_kits');
}

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
}

function withEtag(reply: Reply, req: IncomingMessage): Reply {
  if (reply.status !== 200) return reply;
  const etag = `"${createHash('sha1').update(reply.body).digest('base64url')}"`;
  const headers = { ...reply.headers, etag, 'cache-control': 'no-cache' };
  const wanted = req.headers['if-none-match'];
  if (wanted && (wanted.trim() === '*' || wanted.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))) {
    return { status: 304, headers, body: Buffer.alloc(0) };
  }
  return { ...reply, headers };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? DEMO_SEED;
  const scale = options.scale ?? DEMO_SCALE;
  const start = new Date(options.now ?? DEMO_NOW);
  if (Number.isNaN(start.getTime())) throw new Error(`emulator: 'now' is not a valid date: ${String(options.now)}`);
  const managementKey = options.managementKey ?? DEFAULT_MANAGEMENT_KEY;
  const readKey = options.readKey ?? null;
  const initialSettings = (): EmulatorSettings => ({
    trueTotals: options.trueTotals ?? false,
    shapes: options.shapes ?? 'current',
    leakHidden: options.leakHidden ?? false,
    flaws: options.flaws ?? false,
  });
  const settings = initialSettings();

  const makeStore = () => {
    const world = generateWorld({ seed, scale, now: start });
    if (settings.flaws) addFlaws(world, start);
    return createStore(world, createClock(start, { frozen: options.frozenClock ?? false }));
  };
  let store = makeStore();
  let watcher = createChangeWatcher(store);
  const faults = createFaultInjector({ seed });
  const log = createRequestLog({});
  const webhooks = createWebhookDispatcher({ retryDelaysMs: options.webhookRetryDelaysMs });
  const renderer = createAssetRenderer({ cacheDir: options.cacheDir ?? path.join(PROJECT_ROOT, '.cache', 'emulator-media') });
  let origin = '';

  const announce = (updated: string[] = []) => {
    for (const change of watcher.check(updated)) webhooks.emit(change.type, change.data);
  };
  const embargoTimer = setInterval(() => announce(), options.embargoCheckMs ?? 1000);
  embargoTimer.unref();

  const info = () => ({
    pressroom: { id: store.world.pressroom.id, domain: store.world.pressroom.domain, name: store.world.pressroom.name },
    seed,
    scale,
    now: store.clock.now().toISOString(),
    settings,
  });

  const admin: AdminContext = {
    store: () => store,
    faults,
    log,
    webhooks,
    settings,
    afterClockChange: () => announce(),
    setFlaws(on) {
      if (on === settings.flaws) return;
      settings.flaws = on;
      // Flawed items are dated from the instant the press room is arranged around, as the rest is.
      if (on) addFlaws(store.world, start);
      else removeFlaws(store.world);
      store.touch();
      announce();
    },
    reset() {
      Object.assign(settings, initialSettings());
      store = makeStore();
      watcher = createChangeWatcher(store);
      faults.clear();
      log.clear();
    },
    info,
  };

  const readRouter = FindMyWay({ ignoreTrailingSlash: true });
  for (const [route, handler] of READ_ROUTES) readRouter.on('GET', route, () => undefined, { handler });

  function read(req: IncomingMessage, pathname: string, query: URLSearchParams): Reply {
    if (readKey !== null && bearer(req) !== readKey) {
      return errorReply(401, 'Unauthorized: send Authorization: Bearer <API key>');
    }
    const found = readRouter.find('GET', pathname);
    if (!found) return errorReply(404, 'Missing');
    const pressroom = store.world.pressroom;
    const wanted = (found.params.pressroom ?? '').toLowerCase();
    if (wanted !== String(pressroom.id) && wanted !== pressroom.domain.toLowerCase()) return errorReply(404, 'Missing');
    const request: ReadRequest = {
      store,
      now: store.clock.now(),
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
      body: Buffer.from(absolutizeMediaUrls(JSON.stringify(result.body), origin)),
    };
  }

  async function manage(req: IncomingMessage, method: string, pathname: string, query: URLSearchParams): Promise<Reply> {
    if (bearer(req) !== managementKey) {
      return errorReply(401, 'Unauthorized: management operations need Authorization: Bearer <management key>');
    }
    const match = matchManagement(method, pathname);
    if (match.kind === 'outside') return errorReply(501, match.message);
    if (match.kind === 'none') return errorReply(404, 'Missing');
    try {
      const body = method === 'GET' || method === 'DELETE' ? {} : await readJsonBody(req);
      let result: ManagementResult;
      try {
        result = match.handler({ store, now: store.clock.now(), params: match.params, query, body });
      } finally {
        // Also after a handler that failed part-way: it may have changed records already.
        if (method !== 'GET') store.touch();
      }
      announce(result.changed);
      return jsonReply(result.status, result.body);
    } catch (error) {
      if (error instanceof ManagementError) return errorReply(error.status, error.message);
      throw error;
    }
  }

  async function media(req: IncomingMessage, pathname: string): Promise<Reply> {
    const spec = store.world.assets.get(pathname) ?? legacyAsset(pathname, store.world);
    if (!spec) return errorReply(404, 'Missing');
    return assetReply(await renderer.render(spec), req.headers);
  }

  async function respond(req: IncomingMessage, method: string, url: URL): Promise<Reply> {
    const pathname = normalisePath(url.pathname);
    if (pathname.startsWith('/media/')) {
      return method === 'GET' || method === 'HEAD' ? media(req, pathname) : errorReply(405, 'media is read-only');
    }
    if (pathname.startsWith('/v1/pressrooms/') || pathname === '/v1/pressrooms') {
      if (method !== 'GET' && method !== 'HEAD') return errorReply(405, `the Read API answers GET only, not ${method}`);
      return withEtag(read(req, pathname, url.searchParams), req);
    }
    if (pathname.startsWith('/v1/')) return manage(req, method, pathname, url.searchParams);
    return errorReply(404, 'Missing');
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    res.setHeader('access-control-allow-origin', '*');
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type, if-none-match',
        'access-control-max-age': '86400',
      });
      res.end();
      return;
    }
    if (url.pathname === '/_emulator' || url.pathname.startsWith('/_emulator/')) {
      let reply: Reply;
      try {
        const body = method === 'POST' ? await readJsonBody(req) : {};
        reply = handleAdmin(admin, method, url.pathname, url.searchParams, body);
      } catch (error) {
        reply = error instanceof ManagementError ? errorReply(error.status, error.message) : errorReply(500, String(error));
      }
      send(res, reply);
      return;
    }
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
  }

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
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;

  return {
    url: origin,
    pressroom: info().pressroom,
    managementKey,
    store: () => store,
    async close() {
      clearInterval(embargoTimer);
      webhooks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
