/**
 * What an editor does in the newsroom's console that the management API cannot (its interface has
 * no release body, no delete of a release, no clippings or events): edit a press release, a
 * clipping or an event in place, or delete one. Tests use it to make every kind of upstream change
 * a build must follow; announced as the management operations are (`<object>.updated`,
 * `<object>.unpublished` for a deleted item that was public).
 */
import type { Store } from '../model/store.ts';

/** The records a console edit reaches, by the object name webhooks use. */
const EDITABLE = { press_release: 'pressReleases', clipping: 'clippings', event: 'events' } as const;

export class ConsoleEditError extends Error {}

interface Located {
  records: Array<Record<string, unknown> & { id: number }>;
  index: number;
  key: string;
}

function locate(store: Store, object: string | undefined, id: string | undefined): Located {
  const collection = EDITABLE[object as keyof typeof EDITABLE];
  if (!collection) throw new ConsoleEditError(`console edits reach ${Object.keys(EDITABLE).join(', ')}; not '${object}'`);
  const records = store.world[collection] as unknown as Located['records'];
  const index = records.findIndex((r) => String(r.id) === id);
  if (index < 0) throw new ConsoleEditError(`no ${object} ${id}`);
  return { records, index, key: `${object}:${id}` };
}

/**
 * Sets public fields of one record: each must be a field the record has (never `id` or an internal
 * `_` field) and keep its type (a string may become null where the field is null-able in the API).
 * Every field is checked before any changes. Returns the changed record's key.
 */
export function editRecord(
  store: Store,
  object: string | undefined,
  id: string | undefined,
  fields: Record<string, unknown>,
  now: Date,
): string {
  const { records, index, key } = locate(store, object, id);
  const record = records[index]!;
  const names = Object.keys(fields);
  if (names.length === 0) throw new ConsoleEditError('give the fields to set, e.g. {"body_html": "<p>…</p>"}');
  for (const name of names) {
    if (name === 'id' || name === 'pressroom_id' || name.startsWith('_') || !(name in record))
      throw new ConsoleEditError(`'${name}' is not an editable field of ${key}`);
    const [before, after] = [record[name], fields[name]];
    const sameType = typeof after === typeof before && (after === null) === (before === null);
    if (!sameType && !(after === null && typeof before === 'string') && !(before === null && typeof after === 'string'))
      throw new ConsoleEditError(`'${name}' of ${key} is ${before === null ? 'null' : typeof before}; got ${JSON.stringify(after)}`);
  }
  Object.assign(record, fields);
  if ('updated_at' in record && !('updated_at' in fields)) record.updated_at = now.toISOString();
  return key;
}

/** Removes one record for good (not back to draft: gone from every answer). Returns its key. */
export function deleteRecord(store: Store, object: string | undefined, id: string | undefined): string {
  const { records, index, key } = locate(store, object, id);
  records.splice(index, 1);
  return key;
}
