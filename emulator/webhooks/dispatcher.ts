/**
 * Signed webhook delivery (Standard Webhooks) for the emulator.
 *
 * Every `emit` becomes one message (`msg_…`) delivered independently to each
 * matching subscription: POST JSON `{ type, timestamp, data }` signed with the
 * subscription's `whsec_…` secret. A non-2xx answer, a network error or a
 * timeout is retried after each of `retryDelaysMs`, then given up. Every
 * attempt is recorded in `deliveries()`.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { createDeliveryRunner, type DeliveryRecord, type SignedSubscription } from './delivery-runner.ts';

export type { DeliveryAttempt, DeliveryRecord } from './delivery-runner.ts';
import {
  generateSecret,
  typeMatches,
  validateSubscription,
  type PublicSubscription,
  type Subscription,
  type SubscriptionInput,
} from './subscription.ts';

export { SubscriptionError, generateSecret, type PublicSubscription, type Subscription, type SubscriptionInput } from './subscription.ts';

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

export function createWebhookDispatcher(options: WebhookDispatcherOptions = {}): WebhookDispatcher {
  const now = options.now ?? (() => new Date());
  const maxDeliveries = options.maxDeliveries ?? 1000;

  const subscriptions = new Map<string, SignedSubscription>();
  const log: DeliveryRecord[] = [];
  const runner = createDeliveryRunner({
    retryDelaysMs: [...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)],
    timeoutMs: options.timeoutMs ?? 10_000,
    now,
    isSubscribed: (id) => subscriptions.has(id),
  });
  let closed = false;

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
        runner.run(sub, record, body);
      }
      return msgId;
    },

    idle() {
      return runner.idle();
    },

    close() {
      closed = true;
      runner.close();
      for (const r of log) if (r.state === 'pending' && !r.delivered) r.state = 'failed';
    },
  };
}
