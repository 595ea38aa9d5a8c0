import { createHash } from 'node:crypto';

/**
 * Bump when any renderer's output changes (picture design, encoder settings,
 * PDF layout, tone generator), so stale cache files are never served again.
 */
export const RENDERER_VERSION = 'pressroom-media-2';

/** JSON with object keys sorted at every level, so equal specs give equal text. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`cannot serialise ${typeof value} in an asset spec`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .filter((name) => record[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${stableStringify(record[name])}`);
  return `{${fields.join(',')}}`;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Cache key of anything rendered: SHA-256 of the renderer version and the stable spec text. */
export function cacheKey(spec: object): string {
  return sha256Hex(`${RENDERER_VERSION}\n${stableStringify(spec)}`);
}

/** Strong, quoted entity tag from the bytes themselves. */
export function strongEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}
