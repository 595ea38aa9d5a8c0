/** Paths of the Read API as the client builds them: checked segments, stats groups, query strings. */
import type { Query } from './types.ts';

const SEGMENT = /^[A-Za-z0-9_.~-]+$/;

/** Path relative to the press room, checked segment by segment; a leading `/` and a `.json` suffix are dropped. */
export function normaliseApiPath(path: string): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\.json$/, '');
  if (trimmed === '') return '';
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new TypeError(`Newsroom API path must be relative segments of letters, digits, '_', '-', '.', got ${JSON.stringify(path)}`);
    }
  }
  return segments.join('/');
}

/** `media_kits/12` → `media_kits/:id`; used to group stats. */
export function pathGroup(path: string): string {
  if (path === '') return '(pressroom)';
  return path
    .split('/')
    .map((s) => (/^\d+$/.test(s) ? ':id' : s))
    .join('/');
}

export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(name, Array.isArray(value) ? value.join(',') : String(value as string | number | boolean));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
