/**
 * The second line of defence: whatever the API sends (a key with more rights
 * than the public view, a cache that missed an unpublish), an item is public
 * only when every signal in it reads as public. Checked on the raw item,
 * before the schema drops the fields that tell: a `state` other than
 * published, a `published: false`, a `draft` or `private` flag, or an embargo
 * instant (`publish_date`, `embargo_date`, …, and a release's own
 * `release_date`) after the build's clock.
 *
 * It fails closed: a signal given in a form that cannot be read (a `state`
 * that is an object, a flag that says `"maybe"`, a date in no known form)
 * hides the item, and the caller warns naming the field and the value. Absent
 * signals (missing, null or blank) say nothing: older answers that leave them
 * out were filtered by the API itself. A clipping's or an event's dates are
 * the article's and the event's, never an embargo.
 */
import type { HiddenReason } from './issues.ts';
import { FLAG_FORMS, readFlag } from './flags.ts';
import { readInstant } from './instants.ts';

const PUBLIC_STATES: ReadonlySet<string> = new Set(['published', 'public', 'live']);

/** Fields that hold the instant any item becomes public. */
const EMBARGO_FIELDS = ['publish_date', 'embargo_date', 'embargoed_until', 'embargo_until', 'publish_at', 'visible_from'] as const;
/** Item types whose `release_date` is their embargo (press releases; older answers say `story`). */
const RELEASE_TYPES: ReadonlySet<unknown> = new Set(['press_release', 'story']);

/** Flags that mean "not public" when they read true, and those that mean it when they read false. */
const DRAFT_WHEN_TRUE = ['draft', 'is_draft'] as const;
const DRAFT_WHEN_FALSE = ['published', 'is_published'] as const;
const PRIVATE_WHEN_TRUE = ['private', 'is_private'] as const;
const LOCKED_WHEN_TRUE = ['is_locked', 'is_password_protected'] as const;

/** A visibility signal that could not be read: the field and the value received. */
export interface UnreadableSignal {
  field: string;
  value: unknown;
  /** What form was expected, for the warning line. */
  expected: string;
}

export interface Hidden {
  reason: HiddenReason;
  /** For embargoes: the instant the item becomes public (ms). */
  liftsAt?: number;
  /** Set when the item is hidden because a signal could not be read (the caller warns). */
  unreadable?: UnreadableSignal;
}

/** The first of `fields` whose flag reads `when`, or the first that cannot be read. */
function flagSignal(
  item: Record<string, unknown>,
  fields: readonly string[],
  when: boolean,
): { field: string; unreadable: boolean } | null {
  for (const field of fields) {
    const flag = readFlag(item[field]);
    if (flag === 'unreadable') return { field, unreadable: true };
    if (flag === when) return { field, unreadable: false };
  }
  return null;
}

function unreadable(item: Record<string, unknown>, field: string, expected: string): Hidden {
  return { reason: 'unreadable', unreadable: { field, value: item[field], expected } };
}

function stateSignal(item: Record<string, unknown>): Hidden | null {
  const state = item.state;
  if (state === undefined || state === null) return null;
  if (typeof state !== 'string') return unreadable(item, 'state', 'expected a state such as "published"');
  const word = state.trim().toLowerCase();
  return word === '' || PUBLIC_STATES.has(word) ? null : { reason: 'draft' };
}

function embargoSignal(item: Record<string, unknown>, now: number, release: boolean): Hidden | null {
  const fields = release || RELEASE_TYPES.has(item.type) ? ['release_date', ...EMBARGO_FIELDS] : EMBARGO_FIELDS;
  let lifts: number | undefined;
  for (const field of fields) {
    const reading = readInstant(item[field]);
    if (reading.kind === 'unreadable') return unreadable(item, field, 'expected an ISO 8601 date or epoch seconds/milliseconds');
    if (reading.kind === 'instant' && reading.latest > now) lifts = Math.max(lifts ?? reading.latest, reading.latest);
  }
  return lifts === undefined ? null : { reason: 'embargoed', liftsAt: lifts };
}

/**
 * Why `raw` must not be published at `now` (ms), or null when every signal in it reads as public.
 * `release`: the item is a press release even if it carries no `type` (the press releases list).
 */
export function hiddenReason(raw: unknown, now: number, { release = false } = {}): Hidden | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const item = raw as Record<string, unknown>;
  const state = stateSignal(item);
  if (state) return state;
  const draft = flagSignal(item, DRAFT_WHEN_TRUE, true) ?? flagSignal(item, DRAFT_WHEN_FALSE, false);
  if (draft) return draft.unreadable ? unreadable(item, draft.field, FLAG_FORMS) : { reason: 'draft' };
  const secret = flagSignal(item, PRIVATE_WHEN_TRUE, true);
  if (secret) return secret.unreadable ? unreadable(item, secret.field, FLAG_FORMS) : { reason: 'private' };
  return embargoSignal(item, now, release);
}

/**
 * Whether a kit's media must stay off the site (locked or password-protected): null when they may be
 * published, else why not — a lock flag that cannot be read locks the media too.
 */
export function kitLock(raw: Record<string, unknown>): { unreadable?: UnreadableSignal } | null {
  const lock = flagSignal(raw, LOCKED_WHEN_TRUE, true);
  if (!lock) return null;
  return lock.unreadable ? { unreadable: { field: lock.field, value: raw[lock.field], expected: FLAG_FORMS } } : {};
}

/** A kit whose media must stay off the site (locked, password-protected, or a lock flag that cannot be read). */
export function isLockedKit(raw: Record<string, unknown>): boolean {
  return kitLock(raw) !== null;
}
