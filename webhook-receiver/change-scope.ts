/**
 * What a burst of deliveries says changed: the press releases they name (`press_release.updated`,
 * `.published`, `.unpublished` with the release's id), or anything (`undefined`): a delivery of
 * another kind, one without a usable id, or more releases than fetching them one by one is worth.
 * A warm renderer fetches only the named releases before it renders, then syncs everything once the
 * change is live and renders again if that found more (scripts/warm/content-refresh.ts).
 */
export interface ChangeScope {
  /** Release ids, as the API's `id`, in the order first named. */
  pressReleases: readonly string[];
}

/** Past this many releases a burst syncs the lists instead (at L a list sync is about 100 pages). */
export const MAX_NAMED_RELEASES = 20;

const RELEASE_EVENT = /^press_release\.(?:updated|published|unpublished)$/;

/** The scope of one verified delivery's payload; undefined: it may have changed anything. */
export function scopeOfEvent(event: unknown): ChangeScope | undefined {
  if (event === null || typeof event !== 'object') return undefined;
  const { type, data } = event as { type?: unknown; data?: unknown };
  if (typeof type !== 'string' || !RELEASE_EVENT.test(type) || data === null || typeof data !== 'object') return undefined;
  const id = (data as { id?: unknown }).id;
  // A positive whole number, sent as a number or as its digits: it goes into an API path.
  const digits = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
  return typeof digits === 'string' && /^[1-9]\d{0,15}$/.test(digits) ? { pressReleases: [digits] } : undefined;
}

/** Both bursts' scope: anything when either may have changed anything. */
export function mergeScopes(a: ChangeScope | undefined, b: ChangeScope | undefined): ChangeScope | undefined {
  if (!a || !b) return undefined;
  const ids = [...new Set([...a.pressReleases, ...b.pressReleases])];
  return ids.length > MAX_NAMED_RELEASES ? undefined : { pressReleases: ids };
}

/** For the log: the releases a change loaded alone. */
export function describeScope(scope: ChangeScope): string {
  const [first, ...rest] = scope.pressReleases;
  return `release ${first}${rest.length ? ` and ${rest.length} more` : ''}`;
}
