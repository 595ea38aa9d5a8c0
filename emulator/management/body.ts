/** Reading and checking management request bodies. */
import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

/** A management request the emulator refuses: answered with this status and message. */
export class ManagementError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ManagementError(413, `request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the one error below
  }
  throw new ManagementError(400, 'request body must be a JSON object');
}

/** The `group` hash of a body, e.g. `media_kit` in `{media_kit: {...}}`. */
export function hashParam(body: Record<string, unknown>, name: string, { required = true } = {}): Record<string, unknown> {
  const value = body[name];
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (value === undefined && !required) return {};
  throw new ManagementError(422, `'${name}' must be an object (hash)`);
}

export function stringField(
  hash: Record<string, unknown>,
  group: string,
  name: string,
  { required = false } = {},
): string | null | undefined {
  const value = hash[name];
  if (value === undefined && !required) return undefined;
  if (value === null && !required) return null;
  if (typeof value === 'string' && (!required || value.trim() !== '')) return value;
  throw new ManagementError(422, `'${group}[${name}]' must be a ${required ? 'non-empty ' : ''}string`);
}

export function integerField(
  hash: Record<string, unknown>,
  group: string,
  name: string,
  { required = false } = {},
): number | null | undefined {
  const value = hash[name];
  if (value === undefined && !required) return undefined;
  if (value === null && !required) return null;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n)) return n;
  throw new ManagementError(422, `'${group}[${name}]' must be an integer`);
}

export function booleanField(hash: Record<string, unknown>, group: string, name: string): boolean | undefined {
  const value = hash[name];
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw new ManagementError(422, `'${group}[${name}]' must be a boolean (true, false, 1, 0)`);
}

export function dateField(hash: Record<string, unknown>, group: string, name: string): string | null | undefined {
  const value = stringField(hash, group, name);
  if (value === undefined || value === null) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ManagementError(422, `'${group}[${name}]' must be an ISO-8601 date, got '${value}'`);
  return new Date(ms).toISOString();
}

/** Positions as `[{id, position}]` or as an ordered list of ids. */
/**
 * `positionsParam` with every id resolved to its record before anything is changed, so a list
 * naming an unknown id is refused whole (422) instead of applied in part.
 */
export function positionsOf<T>(
  body: Record<string, unknown>,
  name: string,
  noun: string,
  find: (id: number) => T | undefined,
): Array<{ record: T; position: number }> {
  return positionsParam(body, name).map(({ id, position }) => {
    const record = find(id);
    if (!record) throw new ManagementError(422, `${name}: no ${noun} ${id}`);
    return { record, position };
  });
}

export function positionsParam(body: Record<string, unknown>, name: string): Array<{ id: number; position: number }> {
  const value = body[name];
  if (!Array.isArray(value)) throw new ManagementError(422, `'${name}' must be an array of {id, position} or of ids`);
  return value.map((entry, index) => {
    if (typeof entry === 'number' || (typeof entry === 'string' && /^\d+$/.test(entry))) return { id: Number(entry), position: index + 1 };
    if (entry && typeof entry === 'object') {
      const { id, position } = entry as Record<string, unknown>;
      if (Number.isInteger(Number(id)) && Number.isInteger(Number(position))) return { id: Number(id), position: Number(position) };
    }
    throw new ManagementError(422, `'${name}[${index}]' must be {id, position} or an id`);
  });
}
