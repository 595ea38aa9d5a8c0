/**
 * Delivers one message to one subscription: signed POST attempts with a
 * per-attempt timeout, retried after each configured delay, each attempt
 * recorded on the delivery record. Tracks what is outstanding so callers can
 * wait for quiet or cancel everything.
 */
import type { Webhook } from 'standardwebhooks';
import type { Subscription } from './subscription.ts';

const USER_AGENT = 'pressroom-emulator';

export type DeliveryAttempt = { at: string; status: number; ms: number } | { at: string; error: string; ms: number };

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

export type SignedSubscription = Subscription & { webhook: Webhook };

export interface DeliveryRunnerOptions {
  retryDelaysMs: number[];
  timeoutMs: number;
  now: () => Date;
  /** A retry is dropped once its subscription is gone. */
  isSubscribed: (id: string) => boolean;
}

export interface DeliveryRunner {
  run(sub: SignedSubscription, record: DeliveryRecord, body: string): void;
  /** Resolves once no attempt or retry is pending. */
  idle(): Promise<void>;
  /** Cancels pending retries and in-flight attempts. */
  close(): void;
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

/** Counts outstanding work and wakes the `idle()` waiters when it drops to zero. */
function createPendingCounter() {
  let pending = 0;
  let idleWaiters: Array<() => void> = [];
  return {
    begin(): void {
      pending++;
    },
    finish(): void {
      pending--;
      if (pending === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
    },
    idle(): Promise<void> {
      if (pending === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

interface AttemptContext {
  timeoutMs: number;
  now: () => Date;
  /** Where the attempt registers its abort controller while it runs, so `close()` can cancel it. */
  inFlight: Set<AbortController>;
  isClosed: () => boolean;
}

/** One signed POST; records the attempt and says whether it was answered 2xx. */
async function attemptDelivery(ctx: AttemptContext, sub: SignedSubscription, record: DeliveryRecord, body: string): Promise<boolean> {
  const { timeoutMs, now, inFlight } = ctx;
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
    const error = ctx.isClosed() ? 'cancelled: dispatcher closed' : describeError(err, timedOut, timeoutMs);
    record.attempts.push({ at: sentAt.toISOString(), error, ms: Math.round(performance.now() - started) });
    return false;
  } finally {
    clearTimeout(timer);
    inFlight.delete(controller);
  }
}

export function createDeliveryRunner({ retryDelaysMs, timeoutMs, now, isSubscribed }: DeliveryRunnerOptions): DeliveryRunner {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inFlight = new Set<AbortController>();
  const pending = createPendingCounter();
  let closed = false;
  const attemptContext: AttemptContext = { timeoutMs, now, inFlight, isClosed: () => closed };

  function run(sub: SignedSubscription, record: DeliveryRecord, body: string, tryIndex = 0): void {
    pending.begin();
    void attemptDelivery(attemptContext, sub, record, body)
      .then((ok) => {
        if (ok) {
          record.delivered = true;
          record.state = 'delivered';
          return;
        }
        const delay = retryDelaysMs[tryIndex];
        if (closed || delay === undefined || !isSubscribed(sub.id)) {
          record.state = 'failed';
          return;
        }
        pending.begin();
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (closed) record.state = 'failed';
          else run(sub, record, body, tryIndex + 1);
          pending.finish();
        }, delay);
        timers.add(timer);
      })
      .catch(() => {
        record.state = 'failed';
      })
      .finally(pending.finish);
  }

  return {
    run,
    idle: pending.idle,
    close() {
      closed = true;
      for (const timer of timers) {
        clearTimeout(timer);
        pending.finish();
      }
      timers.clear();
      for (const c of inFlight) c.abort(new Error('dispatcher closed'));
    },
  };
}
