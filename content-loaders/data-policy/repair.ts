/**
 * Validates one upstream item under the data policy: a valid item costs one
 * parse; an invalid one is repaired value by value. Each invalid value is
 * dropped at the smallest enclosing place that makes the item valid again
 * (the field itself, else the list element or rendition holding it); a
 * required top-level field gets its rescue (a safe path, a title from the
 * body) when the source has one; an item that still cannot stand is skipped.
 * Every repair is one warning naming collection, item id, field and value.
 */
import type { z } from 'astro/zod';
import { shown, type DataWarning } from './issues.ts';

type Key = PropertyKey;

export interface Where {
  collection: string;
  endpoint: string;
}

/**
 * A rescue for a required top-level field: the value to use instead, what to tell the reader, and
 * other fields to set with it (e.g. the unusable value kept for a redirect); undefined = none.
 */
export type Rescue = (item: Record<string, unknown>) => { value: unknown; replacement: string; also?: Record<string, unknown> } | undefined;

/** At most this many repairs per item; past it the item is skipped (it is not one bad value). */
const MAX_REPAIRS = 20;

function valueAt(value: unknown, path: readonly Key[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<Key, unknown>)[key];
  }
  return current;
}

/** A copy of `value` without what is at `path`: a list element is removed, an object field deleted. */
function without(value: unknown, path: readonly Key[]): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const index = Number(head);
    if (rest.length === 0) return value.filter((_, i) => i !== index);
    return value.map((item, i) => (i === index ? without(item, rest) : item));
  }
  const copy: Record<Key, unknown> = { ...(value as Record<Key, unknown>) };
  if (rest.length === 0) delete copy[head as string];
  else copy[head as string] = without(copy[head as string], rest);
  return copy;
}

const startsWith = (path: readonly Key[], prefix: readonly Key[]) => prefix.every((key, i) => path[i] === key);
const dotted = (path: readonly Key[]) => (path.length > 0 ? path.map(String).join('.') : '(item)');

export function itemIdOf(raw: unknown): string {
  const rawId = valueAt(raw, ['id']);
  return typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : '(no id)';
}

/**
 * The item parsed by `schema`, repaired as described above, or null when it was skipped.
 * Each warning goes to `report` (which throws in strict mode).
 */
export function parseLeniently<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  where: Where,
  report: (warning: DataWarning) => void,
  rescues: Readonly<Record<string, Rescue>> = {},
): z.output<S> | null {
  const itemId = itemIdOf(raw);
  const base = { collection: where.collection, endpoint: where.endpoint, itemId };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    report({ ...base, kind: 'item-skipped', field: '(item)', value: shown(raw), reason: 'not an object' });
    return null;
  }
  let current: unknown = raw;
  for (let repairs = 0; repairs <= MAX_REPAIRS; repairs++) {
    const result = schema.safeParse(current);
    if (result.success) return result.data;
    const issue = result.error.issues[0]!;
    const path = issue.path as Key[];
    const value = shown(valueAt(current, path));
    const reason = issue.message;

    const rescue = path.length === 1 ? rescues[String(path[0])] : undefined;
    const rescued = rescue?.(current as Record<string, unknown>);
    if (rescued) {
      report({ ...base, kind: 'field-replaced', field: dotted(path), value, reason, replacement: rescued.replacement });
      current = { ...(current as Record<string, unknown>), ...rescued.also, [path[0] as string]: rescued.value };
      continue;
    }

    let repaired: unknown;
    for (let depth = path.length; depth >= 1 && repaired === undefined; depth--) {
      const prefix = path.slice(0, depth);
      const candidate = without(current, prefix);
      const check = schema.safeParse(candidate);
      if (check.success || !check.error.issues.some((i) => startsWith(i.path as Key[], prefix))) {
        const inside = depth < path.length ? ` at '${dotted(path)}'` : '';
        report({ ...base, kind: 'field-dropped', field: dotted(prefix), value, reason: `${reason}${inside}` });
        repaired = candidate;
      }
    }
    if (repaired === undefined) {
      report({ ...base, kind: 'item-skipped', field: dotted(path), value, reason });
      return null;
    }
    current = repaired;
  }
  report({ ...base, kind: 'item-skipped', field: '(item)', value: '(many values)', reason: `more than ${MAX_REPAIRS} invalid values` });
  return null;
}
