/**
 * The second line of defence: whatever the API sends (a key with more rights
 * than the public view, a cache that missed an unpublish), an item is public
 * only when nothing in it says otherwise. Checked on the raw item, before the
 * schema drops the fields that tell: a `state` other than published, a
 * `private` flag, or an embargo instant (`publish_date`, `embargo_date`, …,
 * and a release's own `release_date`) after the build's clock. Absent fields
 * say nothing: older answers that leave them out were filtered by the API
 * itself. A clipping's or an event's dates are the article's and the event's,
 * never an embargo.
 */
import type { HiddenReason } from './issues.ts';

const PUBLIC_STATES: ReadonlySet<string> = new Set(['published', 'public', 'live']);
const TRUE_VALUES: ReadonlySet<unknown> = new Set([true, 'true', '1', 1]);
const FALSE_VALUES: ReadonlySet<unknown> = new Set([false, 'false', '0', 0]);

/** Fields that hold the instant any item becomes public. */
const EMBARGO_FIELDS = ['publish_date', 'embargo_date', 'embargoed_until', 'embargo_until', 'publish_at', 'visible_from'] as const;
/** Item types whose `release_date` is their embargo (press releases; older answers say `story`). */
const RELEASE_TYPES: ReadonlySet<unknown> = new Set(['press_release', 'story']);

export interface Hidden {
  reason: HiddenReason;
  /** For embargoes: the instant the item becomes public (ms). */
  liftsAt?: number;
}

/**
 * Why `raw` must not be published at `now` (ms), or null when nothing in it says so. `release`: the
 * item is a press release even if it carries no `type` (the press releases list).
 */
export function hiddenReason(raw: unknown, now: number, { release = false } = {}): Hidden | null {
  if (raw === null || typeof raw !== 'object') return null;
  const item = raw as Record<string, unknown>;
  const state = typeof item.state === 'string' ? item.state.trim().toLowerCase() : '';
  if (state !== '' && !PUBLIC_STATES.has(state)) return { reason: 'draft' };
  if (
    FALSE_VALUES.has(item.published) ||
    FALSE_VALUES.has(item.is_published) ||
    TRUE_VALUES.has(item.draft) ||
    TRUE_VALUES.has(item.is_draft)
  ) {
    return { reason: 'draft' };
  }
  if (TRUE_VALUES.has(item.private) || TRUE_VALUES.has(item.is_private)) return { reason: 'private' };
  const fields = release || RELEASE_TYPES.has(item.type) ? ['release_date', ...EMBARGO_FIELDS] : EMBARGO_FIELDS;
  for (const field of fields) {
    const value = item[field];
    if (typeof value !== 'string' || value === '') continue;
    const at = Date.parse(value);
    if (!Number.isNaN(at) && at > now) return { reason: 'embargoed', liftsAt: at };
  }
  return null;
}

/** A kit whose media must stay off the site (locked or password-protected). */
export function isLockedKit(raw: Record<string, unknown>): boolean {
  return TRUE_VALUES.has(raw.is_locked) || TRUE_VALUES.has(raw.is_password_protected);
}
