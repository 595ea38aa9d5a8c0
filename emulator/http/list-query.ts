/**
 * Query parameters of list endpoints: parsing with clear 400s, and the
 * filter → order → page pipeline that runs on raw records, so only the page
 * that is returned is ever serialized.
 */

export const MAX_LIMIT = 10_000;
export const DEFAULT_LIMIT = 30;
/** The default page size of the older answers (a 2015 capture pages by 10). */
export const LEGACY_DEFAULT_LIMIT = 10;
export const INCLUDES = ['tags', 'featured_images', 'clippings'] as const;
export type Include = (typeof INCLUDES)[number];

export interface OrderTerm {
  attribute: string;
  direction: 'asc' | 'desc';
}

export interface ListParams {
  /** As sent (0 when absent); 0 and 1 both mean the first page. */
  page: number;
  limit: number;
  order: OrderTerm[] | null;
  includes: Set<Include>;
  language: string | null;
  tags: string[] | null;
  match: 'any' | 'all';
  q: string | null;
}

/** A malformed parameter: the server answers 400 with this message. */
export class ParamError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.status = status;
  }
}

function nonNegativeInt(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return null;
  if (!/^\d+$/.test(raw.trim())) throw new ParamError(`parameter '${name}' must be a non-negative integer, got '${raw}'`);
  return Number(raw.trim());
}

function commaList(raw: string | null): string[] | null {
  if (raw === null) return null;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : null;
}

export function parseOrder(raw: string | null): OrderTerm[] | null {
  const terms = commaList(raw);
  if (!terms) return null;
  return terms.map((term) => {
    const [attribute, direction = 'asc', ...rest] = term.split(/\s+/);
    const dir = direction.toLowerCase();
    if (!attribute || rest.length > 0 || (dir !== 'asc' && dir !== 'desc') || !/^[a-z_][a-z0-9_]*$/i.test(attribute)) {
      throw new ParamError(`parameter 'order' must be a comma list of '<attribute> asc|desc', got '${term}'`);
    }
    return { attribute, direction: dir };
  });
}

/**
 * `legacy`: as the older API answers, a default page of 10, and an unknown
 * `includes` value ignored (the known ones are still added) instead of a 400.
 */
export function parseListParams(query: URLSearchParams, { legacy = false } = {}): ListParams {
  const limit = nonNegativeInt(query, 'limit') ?? (legacy ? LEGACY_DEFAULT_LIMIT : DEFAULT_LIMIT);
  if (limit < 1 || limit > MAX_LIMIT) throw new ParamError(`parameter 'limit' must be between 1 and ${MAX_LIMIT}, got ${limit}`);
  const includes = new Set<Include>();
  for (const name of commaList(query.get('includes') ?? query.get('include')) ?? []) {
    if ((INCLUDES as readonly string[]).includes(name)) includes.add(name as Include);
    else if (!legacy) throw new ParamError(`parameter 'includes' accepts ${INCLUDES.join(', ')}; got '${name}'`);
  }
  const match = (query.get('match') ?? 'any').toLowerCase();
  if (match !== 'any' && match !== 'all') throw new ParamError(`parameter 'match' must be 'any' or 'all', got '${match}'`);
  const q = query.get('q')?.trim();
  return {
    page: nonNegativeInt(query, 'page') ?? 0,
    limit,
    order: parseOrder(query.get('order')),
    includes,
    language: query.get('language')?.trim() || query.get('locales')?.trim() || null,
    tags: commaList(query.get('tags')),
    match,
    q: q ? q : null,
  };
}

type Row = Record<string, unknown>;

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : 1;
}

/**
 * Sorts by the terms; `null`s last whatever the direction; ties broken by id
 * descending so pages are stable.
 */
export function orderRows<T>(rows: T[], order: OrderTerm[], sortable: ReadonlySet<string>): T[] {
  for (const term of order) {
    if (!sortable.has(term.attribute)) {
      throw new ParamError(`parameter 'order': cannot order by '${term.attribute}'; use one of ${[...sortable].sort().join(', ')}`);
    }
  }
  return [...rows].sort((x, y) => {
    const a = x as Row;
    const b = y as Row;
    for (const { attribute, direction } of order) {
      const av = a[attribute];
      const bv = b[attribute];
      if (av === null || av === undefined || bv === null || bv === undefined) {
        const c = compareValues(av, bv);
        if (c !== 0) return c;
        continue;
      }
      const c = compareValues(av, bv);
      if (c !== 0) return direction === 'asc' ? c : -c;
    }
    return compareValues(b.id, a.id);
  });
}

/** Attributes a collection can be ordered by: its public scalar fields. */
export function sortableAttributes(sample: object | undefined, extra: string[] = []): Set<string> {
  const keys = new Set(extra);
  if (sample) {
    for (const [key, value] of Object.entries(sample)) {
      if (!key.startsWith('_') && (value === null || ['string', 'number', 'boolean'].includes(typeof value))) keys.add(key);
    }
  }
  return keys;
}

export interface Paging {
  page: number;
  limit: number;
  total: number;
}

/**
 * Cuts one page. `total` is the limit, as the live service sends it, unless
 * true totals are switched on.
 */
export function pageOf<T>(rows: T[], params: ListParams, trueTotals: boolean): { data: T[]; paging: Paging } {
  const index = Math.max(params.page, 1) - 1;
  const start = index * params.limit;
  return {
    data: rows.slice(start, start + params.limit),
    paging: { page: params.page, limit: params.limit, total: trueTotals ? rows.length : params.limit },
  };
}
