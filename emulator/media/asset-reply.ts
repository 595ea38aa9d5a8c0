import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from '../http/reply.ts';
import type { RenderedAsset } from './render-asset.ts';

const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The reply for a media GET: 200 with the whole file, 304 when the client's
 * `If-None-Match` already holds this ETag, 206 for one satisfiable byte range
 * (video seeking), 416 for an unsatisfiable one. Several ranges, or a range
 * that does not parse, get the whole file (RFC 9110 allows ignoring Range).
 */
export function assetReply(asset: RenderedAsset, requestHeaders: IncomingHttpHeaders): Reply {
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    etag: asset.etag,
    'cache-control': CACHE_CONTROL,
    'accept-ranges': 'bytes',
  };

  if (noneMatch(headerValue(requestHeaders['if-none-match']), asset.etag)) {
    return { status: 304, headers: { etag: asset.etag, 'cache-control': CACHE_CONTROL }, body: Buffer.alloc(0) };
  }

  const range = headerValue(requestHeaders.range);
  const ifRange = headerValue(requestHeaders['if-range']);
  // If-Range with another (or a weak / date) validator: the client's copy is stale, send it all.
  if (range !== undefined && (ifRange === undefined || ifRange.trim() === asset.etag)) {
    const total = asset.bytes.length;
    const parsed = parseRange(range, total);
    if (parsed === 'unsatisfiable') {
      return { status: 416, headers: { ...headers, 'content-range': `bytes */${total}` }, body: Buffer.alloc(0) };
    }
    if (parsed) {
      return {
        status: 206,
        headers: { ...headers, 'content-range': `bytes ${parsed.start}-${parsed.end}/${total}` },
        body: asset.bytes.subarray(parsed.start, parsed.end + 1),
      };
    }
  }

  return { status: 200, headers, body: asset.bytes };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** `If-None-Match` matches with the weak comparison: `*`, or any listed tag equal once `W/` is dropped. */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => tag.replace(/^W\//, '') === opaque);
}

/**
 * One `bytes=` range, resolved against the length: `a-b`, `a-` or `-n`.
 * `undefined` = ignore the header (bad syntax, other unit, several ranges).
 */
export function parseRange(header: string, total: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || total === 0) return 'unsatisfiable';
    return { start: Math.max(0, total - suffix), end: total - 1 };
  }
  const start = Number(first);
  const end = last === '' ? total - 1 : Number(last);
  if (last !== '' && end < start) return undefined;
  if (start >= total) return 'unsatisfiable';
  return { start, end: Math.min(end, total - 1) };
}
