/**
 * One raw upstream item through the data policy, in order: kept out when it
 * is not public (counted, with the instant an embargo lifts), the non-public
 * items of its included lists taken out, the source's last look (`screen`),
 * bounded (`boundItem`: over-long text cut, too many tags trimmed), then
 * validated and repaired (`parseLeniently`). Returns the parsed item, or
 * null when it is not published.
 */
import type { z } from 'astro/zod';
import type { SourceContext } from '../sources/source.ts';
import { shown, type DataWarning } from './issues.ts';
import { itemIdOf, parseLeniently, type Rescue, type Where } from './repair.ts';
import { hiddenReason, type UnreadableSignal } from './visibility.ts';
import { boundItem } from './bounds.ts';

export interface Admission<S extends z.ZodType> {
  collection: string;
  endpoint: string;
  schema: S;
  nested?: readonly string[] | undefined;
  screen?: ((raw: Record<string, unknown>, context: SourceContext, where: Where) => Record<string, unknown>) | undefined;
  rescues?: Readonly<Record<string, Rescue>> | undefined;
}

/**
 * Warns that a visibility signal of `raw` cannot be read, so `what` (the item, or its media) is kept
 * out; in strict mode this fails the load.
 */
export function warnUnreadableSignal(raw: unknown, signal: UnreadableSignal, where: Where, context: SourceContext, what?: string): void {
  const warning: DataWarning = {
    kind: 'item-hidden',
    ...where,
    itemId: itemIdOf(raw),
    field: signal.field,
    value: shown(signal.value),
    reason: signal.expected,
    ...(what === undefined ? {} : { replacement: what }),
  };
  context.log(context.issues.warn(warning));
}

/**
 * `raw` is public at `context.now`: every visibility signal in it reads as public. Counts it
 * otherwise, and warns when a signal could not be read.
 */
export function isPublicItem(raw: unknown, where: Where, context: SourceContext): boolean {
  const hidden = hiddenReason(raw, context.now, { release: where.collection === 'pressReleases' });
  if (!hidden) return true;
  if (hidden.unreadable) warnUnreadableSignal(raw, hidden.unreadable, where, context);
  else context.issues.hidden(where.collection, hidden.reason);
  if (hidden.liftsAt !== undefined) context.issues.embargoLifts(hidden.liftsAt);
  return false;
}

export function admitItem<S extends z.ZodType>(raw: unknown, a: Admission<S>, context: SourceContext): z.output<S> | null {
  if (!isPublicItem(raw, a, context)) return null;
  let item = raw as Record<string, unknown>;
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    for (const key of a.nested ?? []) {
      const list = item[key];
      if (!Array.isArray(list)) continue;
      const kept = list.filter((element) => isPublicItem(element, { collection: `${a.collection}.${key}`, endpoint: a.endpoint }, context));
      if (kept.length !== list.length) item = { ...item, [key]: kept };
    }
    if (a.screen) item = a.screen(item, context, a);
  }
  const report = (warning: DataWarning) => context.log(context.issues.warn(warning));
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) item = boundItem(item, a, report);
  return parseLeniently(a.schema, item, { collection: a.collection, endpoint: a.endpoint }, report, a.rescues);
}
