import type { Store } from '../model/store.ts';

export interface ManagementRequest {
  store: Store;
  now: Date;
  params: Record<string, string | undefined>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export interface ManagementResult {
  status: number;
  body: unknown;
  /** Keys (`media_kit:12`) of records whose public content may have changed. */
  changed: string[];
}

export type ManagementHandler = (req: ManagementRequest) => ManagementResult;

export const ok = (data: unknown, changed: string[] = [], status = 200): ManagementResult => ({ status, body: { data }, changed });

export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'item'
  );
}

/** Embargo dates set through `update` wait here until `publish_under_embargo`. */
export const pendingEmbargo = new WeakMap<object, string>();
