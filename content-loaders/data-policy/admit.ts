/**
 * One raw upstream item through the data policy, in order: kept out when it
 * is not public (counted, with the instant an embargo lifts), the non-public
 * items of its included lists taken out, the source's last look (`screen`),
 * then validated and repaired (`parseLeniently`). Returns the parsed item, or
 * null when it is not published.
 */
import type { z } from 'astro/zod';
import type { SourceContext } from '../sources/source.ts';
import type { DataWarning } from './issues.ts';
import { parseLeniently, type Rescue } from './repair.ts';
import { hiddenReason } from './visibility.ts';

export interface Admission<S extends z.ZodType> {
  collection: string;
  endpoint: string;
  schema: S;
  nested?: readonly string[] | undefined;
  screen?: ((raw: Record<string, unknown>, context: SourceContext) => Record<string, unknown>) | undefined;
  rescues?: Readonly<Record<string, Rescue>> | undefined;
}

/** `raw` is public at `context.now`: nothing in it says draft, private or embargoed. Counts it otherwise. */
export function isPublicItem(raw: unknown, collection: string, context: SourceContext): boolean {
  const hidden = hiddenReason(raw, context.now, { release: collection === 'pressReleases' });
  if (!hidden) return true;
  context.issues.hidden(collection, hidden.reason);
  if (hidden.liftsAt !== undefined) context.issues.embargoLifts(hidden.liftsAt);
  return false;
}

export function admitItem<S extends z.ZodType>(raw: unknown, a: Admission<S>, context: SourceContext): z.output<S> | null {
  if (!isPublicItem(raw, a.collection, context)) return null;
  let item = raw as Record<string, unknown>;
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    for (const key of a.nested ?? []) {
      const list = item[key];
      if (!Array.isArray(list)) continue;
      const kept = list.filter((element) => isPublicItem(element, `${a.collection}.${key}`, context));
      if (kept.length !== list.length) item = { ...item, [key]: kept };
    }
    if (a.screen) item = a.screen(item, context);
  }
  const report = (warning: DataWarning) => context.log(context.issues.warn(warning));
  return parseLeniently(a.schema, item, { collection: a.collection, endpoint: a.endpoint }, report, a.rescues);
}
