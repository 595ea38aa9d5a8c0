/**
 * The local Newsroom API: one HTTP server for the Read API (`/v1/pressrooms`),
 * the management operations (`/v1/...`), media bytes (`/media/...`) and the
 * admin path (`/_emulator/...`).
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { AdminContext } from './admin/routes.ts';
import { DEFAULT_MANAGEMENT_KEY, DEMO_NOW, type Shapes } from './defaults.ts';
import { DEMO_SCALE, DEMO_SEED } from './demo-data/generate.ts';
import { createFaultInjector } from './faults/injector.ts';
import { createRequestHandler } from './http/handle-request.ts';
import { legacyAsset } from './http/legacy-shapes.ts';
import { listen } from './http/listen.ts';
import { createReadApi } from './http/read-api.ts';
import { errorReply, type Reply } from './http/reply.ts';
import { createRequestLog } from './http/request-log.ts';
import { createResponder } from './http/respond.ts';
import { createManagementApi } from './management/api.ts';
import { assetReply } from './media/asset-reply.ts';
import { createAssetRenderer, type AssetRenderer } from './media/render-asset.ts';
import type { Store } from './model/store.ts';
import type { Pressroom } from './model/types.ts';
import { createSession, type EmulatorSession, type EmulatorSettings } from './session.ts';
import { createWebhookDispatcher } from './webhooks/dispatcher.ts';

export { DEFAULT_MANAGEMENT_KEY, DEMO_NOW, type EmulatorSettings, type Shapes };

export { FLAWS, FLAW_IDS, type Flaw, type FlawExpectation } from './demo-data/flaws.ts';
export { hiddenMarkers } from './demo-data/hidden-markers.ts';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  /** Number of press releases in the demo press room (default 60). */
  scale?: number;
  /** Images of the library, independent of `scale` (default: grown from it, 50 at the demo scale). */
  images?: number;
  /** Published media kits besides the four special ones, independent of `scale` (default: grown from it, 8 at the demo scale). */
  kits?: number;
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
  /** The press room's `design` colours in place of the demo's (which equal the site's built-in defaults). */
  design?: Partial<Pressroom['design']>;
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

/** `/media/...`: the bytes of every asset the press room names (or a legacy address of one). */
function mediaPart(session: EmulatorSession, renderer: AssetRenderer) {
  return async (req: IncomingMessage, pathname: string): Promise<Reply> => {
    const store = session.store();
    const spec = store.world.assets.get(pathname) ?? legacyAsset(pathname, store.world);
    if (!spec) return errorReply(404, 'Missing');
    return assetReply(await renderer.render(spec), req.headers);
  };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? DEMO_SEED;
  const scale = options.scale ?? DEMO_SCALE;
  const start = new Date(options.now ?? DEMO_NOW);
  if (Number.isNaN(start.getTime())) throw new Error(`emulator: 'now' is not a valid date: ${String(options.now)}`);
  const managementKey = options.managementKey ?? DEFAULT_MANAGEMENT_KEY;
  const webhooks = createWebhookDispatcher({ retryDelaysMs: options.webhookRetryDelaysMs });
  const session = createSession({
    seed,
    scale,
    images: options.images,
    kits: options.kits,
    start,
    frozenClock: options.frozenClock ?? false,
    design: options.design,
    initialSettings: () => ({
      trueTotals: options.trueTotals ?? false,
      shapes: options.shapes ?? 'current',
      leakHidden: options.leakHidden ?? false,
      flaws: options.flaws ?? false,
    }),
    emit: (type, data) => webhooks.emit(type, data),
  });
  const faults = createFaultInjector({ seed });
  const log = createRequestLog({});
  const renderer = createAssetRenderer({ cacheDir: options.cacheDir ?? path.join(PROJECT_ROOT, '.cache', 'emulator-media') });
  let origin = '';

  const embargoTimer = setInterval(() => session.announce(), options.embargoCheckMs ?? 1000);
  embargoTimer.unref();

  const info = () => {
    const store = session.store();
    return {
      pressroom: { id: store.world.pressroom.id, domain: store.world.pressroom.domain, name: store.world.pressroom.name },
      seed,
      scale,
      now: store.clock.now().toISOString(),
      settings: session.settings,
    };
  };
  const admin: AdminContext = {
    store: session.store,
    faults,
    log,
    webhooks,
    settings: session.settings,
    afterClockChange: () => session.announce(),
    afterEdit(changed) {
      session.store().touch();
      session.announce(changed);
    },
    setFlaws: session.setFlaws,
    reset() {
      session.reset();
      faults.clear();
      log.clear();
    },
    info,
  };
  const respond = createResponder({
    read: createReadApi({ session, readKey: options.readKey ?? null, origin: () => origin }),
    manage: createManagementApi(session, managementKey),
    media: mediaPart(session, renderer),
  });
  const listening = await listen(createRequestHandler({ admin, faults, log, respond }), options.port ?? 0, options.host ?? '127.0.0.1');
  const { server } = listening;
  origin = listening.origin;

  return {
    url: origin,
    pressroom: info().pressroom,
    managementKey,
    store: session.store,
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
