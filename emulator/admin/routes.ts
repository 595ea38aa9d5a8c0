/**
 * The admin path `/_emulator/...`, outside `/v1`: the clock, fault injection,
 * the request log, webhook subscriptions, settings, reset and the console's own edits
 * (./console-edits.ts). Local tooling
 * for tests and benchmarks; it never appears in the Read API.
 */
import FindMyWay from 'find-my-way';
import { errorReply, jsonReply, type Reply } from '../http/reply.ts';
import { FaultRuleError, type FaultInjector } from '../faults/injector.ts';
import { SubscriptionError, type WebhookDispatcher } from '../webhooks/dispatcher.ts';
import type { RequestLog } from '../http/request-log.ts';
import type { Store } from '../model/store.ts';
import { SHAPES, type Shapes } from '../defaults.ts';
import { ConsoleEditError, deleteRecord, editRecord } from './console-edits.ts';

export interface AdminContext {
  store: () => Store;
  faults: FaultInjector;
  log: RequestLog;
  webhooks: WebhookDispatcher;
  settings: { trueTotals: boolean; shapes: Shapes; leakHidden: boolean; flaws: boolean };
  /** Runs after the clock moved or settings changed, so embargo lifts are announced. */
  afterClockChange: () => void;
  /** Runs after a console edit changed records in place (their keys), so the change is announced. */
  afterEdit: (changed: string[]) => void;
  /** Adds or removes the flawed items (they are data, not a view). */
  setFlaws: (on: boolean) => void;
  reset: () => void;
  info: () => Record<string, unknown>;
}

interface AdminRequest {
  ctx: AdminContext;
  params: Record<string, string | undefined>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

type AdminHandler = (req: AdminRequest) => Reply;

const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function durationMs(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const m = typeof value === 'string' ? DURATION.exec(value.trim()) : null;
  if (!m) throw new AdminError(`'advance' must be milliseconds or a duration like '90s', '2h', '3d', got ${JSON.stringify(value)}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

class AdminError extends Error {}

function clockView(ctx: AdminContext) {
  const clock = ctx.store().clock;
  return { now: clock.now().toISOString(), frozen: clock.frozen };
}

const getClock: AdminHandler = ({ ctx }) => jsonReply(200, { data: clockView(ctx) });

const setClock: AdminHandler = ({ ctx, body }) => {
  const clock = ctx.store().clock;
  if (body.now !== undefined) {
    const ms = typeof body.now === 'string' ? Date.parse(body.now) : NaN;
    if (Number.isNaN(ms)) throw new AdminError(`'now' must be an ISO-8601 instant, got ${JSON.stringify(body.now)}`);
    clock.set(new Date(ms));
  }
  if (body.advance !== undefined) clock.advance(durationMs(body.advance));
  if (body.frozen !== undefined) {
    if (typeof body.frozen !== 'boolean') throw new AdminError(`'frozen' must be true or false`);
    clock.freeze(body.frozen);
  }
  ctx.afterClockChange();
  return jsonReply(200, { data: clockView(ctx) });
};

const listFaults: AdminHandler = ({ ctx }) => jsonReply(200, { data: ctx.faults.list() });
const addFault: AdminHandler = ({ ctx, body }) => jsonReply(201, { data: ctx.faults.add(body) });
const clearFaults: AdminHandler = ({ ctx }) => {
  ctx.faults.clear();
  return jsonReply(200, { data: [] });
};
const removeFault: AdminHandler = ({ ctx, params }) =>
  ctx.faults.remove(params.id ?? '')
    ? jsonReply(200, { data: { id: params.id, removed: true } })
    : errorReply(404, `no fault rule '${params.id}'`);

const listRequests: AdminHandler = ({ ctx, query }) => {
  const since = query.get('since');
  const limit = query.get('limit');
  return jsonReply(200, {
    data: ctx.log.entries({
      pathPrefix: query.get('path_prefix') ?? undefined,
      since: since ? Number(since) : undefined,
      limit: limit ? Number(limit) : undefined,
    }),
  });
};
const clearRequests: AdminHandler = ({ ctx }) => {
  ctx.log.clear();
  return jsonReply(200, { data: [] });
};

const subscribe: AdminHandler = ({ ctx, body }) => jsonReply(201, { data: ctx.webhooks.subscribe(body as never) });
const listSubscriptions: AdminHandler = ({ ctx }) => jsonReply(200, { data: ctx.webhooks.list() });
const unsubscribe: AdminHandler = ({ ctx, params }) =>
  ctx.webhooks.unsubscribe(params.id ?? '')
    ? jsonReply(200, { data: { id: params.id, removed: true } })
    : errorReply(404, `no webhook subscription '${params.id}'`);
const deliveries: AdminHandler = ({ ctx }) => jsonReply(200, { data: ctx.webhooks.deliveries() });

const getSettings: AdminHandler = ({ ctx }) => jsonReply(200, { data: ctx.settings });
const SETTING_NAMES = ['trueTotals', 'shapes', 'leakHidden', 'flaws'];

function booleanSetting(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value !== undefined && typeof value !== 'boolean')
    throw new AdminError(`'${name}' must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

/** Validates the whole body before changing anything, so a bad value changes nothing. */
const setSettings: AdminHandler = ({ ctx, body }) => {
  const unknown = Object.keys(body).filter((name) => !SETTING_NAMES.includes(name));
  if (unknown.length > 0)
    throw new AdminError(`unknown setting ${unknown.map((n) => `'${n}'`).join(', ')}; settings are ${SETTING_NAMES.join(', ')}`);
  const trueTotals = booleanSetting(body, 'trueTotals');
  const leakHidden = booleanSetting(body, 'leakHidden');
  const flaws = booleanSetting(body, 'flaws');
  if (body.shapes !== undefined && !SHAPES.includes(body.shapes as Shapes)) {
    throw new AdminError(`'shapes' must be ${SHAPES.map((s) => `'${s}'`).join(' or ')}, got ${JSON.stringify(body.shapes)}`);
  }
  if (trueTotals !== undefined) ctx.settings.trueTotals = trueTotals;
  if (leakHidden !== undefined) ctx.settings.leakHidden = leakHidden;
  if (body.shapes !== undefined) ctx.settings.shapes = body.shapes as Shapes;
  if (flaws !== undefined) ctx.setFlaws(flaws);
  return jsonReply(200, { data: ctx.settings });
};

const reset: AdminHandler = ({ ctx }) => {
  ctx.reset();
  return jsonReply(200, { data: ctx.info() });
};

const editItem: AdminHandler = ({ ctx, params, body }) => {
  const store = ctx.store();
  const changed = editRecord(store, params.object, params.id, body, store.clock.now());
  ctx.afterEdit([changed]);
  return jsonReply(200, { data: { key: changed } });
};

const deleteItem: AdminHandler = ({ ctx, params }) => {
  const removed = deleteRecord(ctx.store(), params.object, params.id);
  ctx.afterEdit([]);
  return jsonReply(200, { data: { key: removed, removed: true } });
};

const info: AdminHandler = ({ ctx }) => jsonReply(200, { data: ctx.info() });

const router = FindMyWay({ ignoreTrailingSlash: true });
const ROUTES: Array<[string, string, AdminHandler]> = [
  ['GET', '/_emulator', info],
  ['GET', '/_emulator/clock', getClock],
  ['POST', '/_emulator/clock', setClock],
  ['GET', '/_emulator/faults', listFaults],
  ['POST', '/_emulator/faults', addFault],
  ['DELETE', '/_emulator/faults', clearFaults],
  ['DELETE', '/_emulator/faults/:id', removeFault],
  ['GET', '/_emulator/requests', listRequests],
  ['DELETE', '/_emulator/requests', clearRequests],
  ['GET', '/_emulator/webhooks', listSubscriptions],
  ['POST', '/_emulator/webhooks', subscribe],
  ['GET', '/_emulator/webhooks/deliveries', deliveries],
  ['DELETE', '/_emulator/webhooks/:id', unsubscribe],
  ['GET', '/_emulator/settings', getSettings],
  ['POST', '/_emulator/settings', setSettings],
  ['POST', '/_emulator/reset', reset],
  ['PATCH', '/_emulator/items/:object/:id', editItem],
  ['DELETE', '/_emulator/items/:object/:id', deleteItem],
];
for (const [method, path, handler] of ROUTES) router.on(method as 'GET', path, () => undefined, { handler });

export function handleAdmin(ctx: AdminContext, method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): Reply {
  const found = router.find(method as 'GET', path);
  if (!found) return errorReply(404, `no admin route ${method} ${path}; see GET /_emulator`);
  try {
    return (found.store as { handler: AdminHandler }).handler({ ctx, params: found.params, query, body });
  } catch (error) {
    if (
      error instanceof AdminError ||
      error instanceof FaultRuleError ||
      error instanceof SubscriptionError ||
      error instanceof ConsoleEditError
    ) {
      return errorReply(422, error.message);
    }
    throw error;
  }
}
