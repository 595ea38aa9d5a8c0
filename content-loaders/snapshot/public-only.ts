/**
 * What a snapshot keeps of an API answer: only what is public. A snapshot
 * travels (it is packed into offline archives next to the site), so an
 * answer from a key with more rights than the public view must not carry
 * drafts, private or embargoed items, locked kits' media or unpublished
 * edits into it. Items that say they are not public are removed from lists,
 * includes and category trees (with everything under a hidden parent);
 * `draft_content_as_json` is removed everywhere. A single answer that is not
 * public is not recorded at all (null).
 */
import { hiddenReason, isLockedKit } from '../data-policy/visibility.ts';
import { flatNodeOf, hiddenWithDescendants } from '../data-policy/hidden-subtrees.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * How deep the recorder walks an answer. A value nested deeper (no API sends one; a hostile answer
 * may, 100,000 levels, which recursion and JSON.stringify cannot take) is recorded as null: what
 * cannot be checked for visibility is not kept.
 */
export const MAX_JSON_DEPTH = 256;

function isObject(value: unknown): value is Record<string, Json> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** An item (and everything nested in it) with the non-public parts removed; undefined when the item itself is not public. */
function publicPart(value: Json, now: number, release = false, depth = 0): Json | undefined {
  if (depth > MAX_JSON_DEPTH && (Array.isArray(value) || isObject(value))) return null;
  if (Array.isArray(value)) return publicList(value, now, release, depth);
  if (!isObject(value)) return value;
  if (hiddenReason(value, now, { release })) return undefined;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'draft_content_as_json') continue;
    if (key === 'media' && isLockedKit(value) && Array.isArray(child)) {
      out[key] = [];
      continue;
    }
    const kept = publicPart(child, now, false, depth + 1);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** A list with its non-public items removed, and items whose `parent_id` names a removed item (category subtrees). */
function publicList(list: Json[], now: number, release: boolean, depth: number): Json[] {
  const hidden = new Set<string>();
  const kept: Json[] = [];
  for (const item of list) {
    const part = publicPart(item, now, release, depth + 1);
    if (part === undefined) {
      if (isObject(item) && item.id !== undefined) hidden.add(String(item.id));
    } else kept.push(part);
  }
  if (hidden.size === 0) return kept;
  const under = hiddenWithDescendants(kept.filter(isObject).map(flatNodeOf), hidden);
  return kept.filter(
    (item) => !isObject(item) || item.parent_id === undefined || item.parent_id === null || !under.has(String(item.parent_id)),
  );
}

/**
 * The body to record for an API answer (`{data, paging, …}`), or null when the answer is a single
 * item that is not public. Bodies that are not JSON envelopes are kept as they are. `releases`: the
 * answer's items are press releases (their `release_date` is an embargo even without a `type`).
 */
export function publicAnswer(body: Uint8Array, now: number, { releases = false } = {}): Uint8Array | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return body;
  }
  if (!isObject(parsed) || !('data' in parsed)) return body;
  const data = publicPart(parsed.data, now, releases);
  if (data === undefined) return null;
  if (unchanged(data, parsed.data)) return body;
  return Buffer.from(JSON.stringify({ ...parsed, data }));
}

/** Whether the recorder kept all of an answer's data (an answer too deep to serialize was cut, so it changed). */
function unchanged(kept: Json, original: Json): boolean {
  try {
    return JSON.stringify(kept) === JSON.stringify(original);
  } catch {
    return false;
  }
}
