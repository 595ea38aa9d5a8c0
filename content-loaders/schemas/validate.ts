/**
 * Validates upstream items against a resource schema. A failure names the
 * collection, the endpoint, the item id, the field path and the value received.
 */
import type { z } from 'astro/zod';

export class SchemaDriftError extends Error {
  readonly collection: string;
  readonly endpoint: string;
  readonly itemId: string;
  readonly field: string;
  constructor(collection: string, endpoint: string, itemId: string, field: string, message: string) {
    super(message);
    this.name = 'SchemaDriftError';
    this.collection = collection;
    this.endpoint = endpoint;
    this.itemId = itemId;
    this.field = field;
  }
}

function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing (field missing)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function validateItem<S extends z.ZodType>(schema: S, raw: unknown, where: { collection: string; endpoint: string }): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const rawId = valueAt(raw, ['id']);
  const itemId = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : '(no id)';
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(item)';
  throw new SchemaDriftError(
      where.collection,
      where.endpoint,
      itemId,
      field,
      `${where.collection}: item ${itemId} from ${where.endpoint} has an unexpected value at '${field}': ${issue.message}, got ${shown(valueAt(raw, issue.path))}. The API changed shape; update content-loaders/schemas or ask the API owner.`,
  );
}
