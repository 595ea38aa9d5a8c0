/** Webhook subscriptions: their shape, the checks on what a client sends, and event-type matching. */
import { randomBytes } from 'node:crypto';

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

export function validateSubscription(input: unknown): { url: string; secret: string | undefined; types: string[] | null } {
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

export function typeMatches(types: string[] | null, type: string): boolean {
  if (types === null) return true;
  return types.some((t) => t === '*' || t === type || (t.endsWith('.*') && type.startsWith(t.slice(0, -1))));
}
