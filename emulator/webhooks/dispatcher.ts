/**
 * Signed webhook delivery (Standard Webhooks) for the emulator.
 *
 * Every `emit` becomes one message (`msg_…`) delivered independently to each
 * matching subscription: POST JSON `{ type, timestamp, data }` signed with the
 * subscription's `whsec_…` secret. A non-2xx answer, a network error or a
 * timeout is retried after each of `retryDelaysMs`, then given up. Every
 * attempt is recorded in `deliveries()`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface WebhookDispatcherOptions {
  /** Delays before retry 1, 2, …; the number of entries is the number of retries. */
  retryDelaysMs?: number[];
  /** Per-attempt timeout (request and response body). Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * Clock for event timestamps, `webhook-timestamp` and attempt times. Receivers
   * check `webhook-timestamp` against their wall clock (±5 min), so pass a clock
   * that is near real time (not an emulator clock moved by months).
   */
  now?: () => Date;
  /** How many delivery records to keep (oldest dropped first). Default 1000. */
  maxDeliveries?: number;
}

export interface SubscriptionInput {
  url: string;
  secret?: string;
  /** Event types to receive; exact names or a prefix ending in `.*` / `*` for all. Default: all. */
  types?: string[];
}

export interface Subscription {
  id: string;
  url: string;
  secret: string;
  types: string[] | null;
}

export type PublicSubscription = Omit<Subscription, 'secret'>;

export type DeliveryAttempt =
  | { at: string; status: number; ms: number }
  | { at: string; error: string; ms: number };

export interface DeliveryRecord {
  msgId: string;
  subscriptionId: string;
  url: string;
  type: string;
  attempts: DeliveryAttempt[];
  delivered: boolean;
  /** `pending` while an attempt or retry is outstanding; `failed` once given up (or cancelled by close). */
  state: 'pending' | 'delivered' | 'failed';
}

export interface WebhookDispatcher {
  subscribe(input: SubscriptionInput): Subscription;
  unsubscribe(id: string): boolean;
  list(): PublicSubscription[];
  deliveries(): DeliveryRecord[];
  /** Queues the event for every matching subscription; returns the message id. */
  emit(type: string, data: Record<string, unknown>): string;
  /** Resolves once no attempt or retry is pending. */
  idle(): Promise<void>;
  /** Cancels pending retries and in-flight attempts; later emits are ignored. */
  close(): void;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000];
const USER_AGENT = 'pressroom-emulator';

/** Thrown by `subscribe` for invalid input; the message is one line naming the field. */
export class SubscriptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubscriptionError';
  }
}

export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function validateSubscription(input: unknown): { url: string; secret: string | undefined; types: string[] | null } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new SubscriptionError('subscription: expected a JSON object');
  }
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (key !== 'url' && key !== 'secret' && key !== 'types') throw new SubscriptionError(`${key}: unknown field`);
  }
  if (typeof o.url !== 'string') throw new SubscriptionError('url: required string');
  let parsed: URL;
  try {
    parsed = new URL(o.url);
  } catch {
    throw new SubscriptionError('url: not a valid absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SubscriptionError('url: must be http or https');
  }
  let secret: string | undefined;
  if (o.secret !== undefined) {
    if (typeof o.secret !== 'string' || !o.secret.startsWith('whsec_')) {
      throw new SubscriptionError('secret: must be a string starting with whsec_');
    }
    const b64 = o.secret.slice('whsec_'.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) {
      throw new SubscriptionError('secret: must be whsec_ followed by standard (padded) base64');
    }
    secret = o.secret;
  }
  let types: string[] | null = null;
  if (o.types !== undefined && o.types !== null) {
    if (!Array.isArray(o.types) || o.types.some((t) => typeof t !== 'string' || t.length === 0)) {
      throw new SubscriptionError('types: must be an array of non-empty strings');
    }
    types = o.types.length === 0 ? null : [...(o.types as string[])];
  }
  return { url: parsed.href, secret, types };
}

function typeMatches(types: string[] | null, type: string): boolean {
  if (types === null) return true;
  return types.some((t) => t === '*' || t === type || (t.endsWith('.*') && type.startsWith(t.slice(0, -1))));
}

function describeError(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timeout after ${timeoutMs} ms`;
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause && typeof cause === 'object') {
      const code = (cause as { code?: unknown }).code;
      const msg = (cause as { message?: unknown }).message;
      if (typeof code === 'string') return `${err.message}: ${code}`;
      if (typeof msg === 'string') return `${err.message}: ${msg}`;
    }
    return err.message;
  }
  return String(err);
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions = {}): WebhookDispatcher {
  const retryDelaysMs = [...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)];
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const maxDeliveries = options.maxDeliveries ?? 1000;

  const subscriptions = new Map<string, Subscription & { webhook: Webhook }>();
  const log: DeliveryRecord[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new Set<AbortController>();
  let pending = 0;
  let idleWaiters: Array<() => void> = [];
  let closed = false;

  const begin = (): void => {
    pending++;
  };
  const finish = (): void => {
    pending--;
    if (pending === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  async function attempt(sub: Subscription & { webhook: Webhook }, record: DeliveryRecord, body: string): Promise<boolean> {
    const started = performance.now();
    const sentAt = now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': record.msgId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': sub.webhook.sign(record.msgId, sentAt, body),
    };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timeout after ${timeoutMs} ms`));
    }, timeoutMs);
    inFlight.add(controller);
    try {
      const res = await fetch(sub.url, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
      // Drain the body so the connection can be reused; its content is not needed.
      await res.arrayBuffer().catch(() => undefined);
      record.attempts.push({ at: sentAt.toISOString(), status: res.status, ms: Math.round(performance.now() - started) });
      return res.status >= 200 && res.status < 300;
    } catch (err) {
      const error = closed ? 'cancelled: dispatcher closed' : describeError(err, timedOut, timeoutMs);
      record.attempts.push({ at: sentAt.toISOString(), error, ms: Math.round(performance.now() - started) });
      return false;
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  function run(sub: Subscription & { webhook: Webhook }, record: DeliveryRecord, body: string, tryIndex: number): void {
    begin();
    void attempt(sub, record, body)
      .then((ok) => {
        if (ok) {
          record.delivered = true;
          record.state = 'delivered';
          return;
        }
        const delay = retryDelaysMs[tryIndex];
        if (closed || delay === undefined || !subscriptions.has(sub.id)) {
          record.state = 'failed';
          return;
        }
        begin();
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (closed) record.state = 'failed';
          else run(sub, record, body, tryIndex + 1);
          finish();
        }, delay);
        timers.add(timer);
      })
      .catch(() => {
        record.state = 'failed';
      })
      .finally(finish);
  }

  return {
    subscribe(input) {
      const { url, secret, types } = validateSubscription(input);
      const sub: Subscription = { id: `sub_${randomUUID().replaceAll('-', '')}`, url, secret: secret ?? generateSecret(), types };
      subscriptions.set(sub.id, { ...sub, webhook: new Webhook(sub.secret) });
      return { ...sub, types: sub.types && [...sub.types] };
    },

    unsubscribe(id) {
      return subscriptions.delete(id);
    },

    list() {
      return [...subscriptions.values()].map(({ id, url, types }) => ({ id, url, types: types && [...types] }));
    },

    deliveries() {
      return log.map((r) => ({ ...r, attempts: r.attempts.map((a) => ({ ...a })) }));
    },

    emit(type, data) {
      const msgId = `msg_${randomUUID().replaceAll('-', '')}`;
      if (closed) return msgId;
      const body = JSON.stringify({ type, timestamp: now().toISOString(), data });
      for (const sub of subscriptions.values()) {
        if (!typeMatches(sub.types, type)) continue;
        const record: DeliveryRecord = {
          msgId,
          subscriptionId: sub.id,
          url: sub.url,
          type,
          attempts: [],
          delivered: false,
          state: 'pending',
        };
        log.push(record);
        if (log.length > maxDeliveries) log.splice(0, log.length - maxDeliveries);
        run(sub, record, body, 0);
      }
      return msgId;
    },

    idle() {
      if (pending === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    close() {
      closed = true;
      for (const timer of timers) {
        clearTimeout(timer);
        finish();
      }
      timers.clear();
      for (const c of inFlight) c.abort(new Error('dispatcher closed'));
      for (const r of log) if (r.state === 'pending' && !r.delivered) r.state = 'failed';
    },
  };
}
