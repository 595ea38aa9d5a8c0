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

/** The generator's own slug rule, so a retitled item gets the permalink a new one would. */
export { slugify } from '../demo-data/slug.ts';

/** Embargo dates set through `update` wait here until `publish_under_embargo`. */
export const pendingEmbargo = new WeakMap<object, string>();
