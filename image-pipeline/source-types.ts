/**
 * The originals' types, in a module of their own: sources.ts (which original, once per build)
 * and original-fetch.ts (how one is fetched and kept) both use them without importing each other back.
 */
import type { FetchLike } from '@pressroom-static/content-loaders';
import type { HostPolicy } from './host-policy.ts';
import type { Settings } from './settings.ts';
import type { SourceRecord, Store } from './store.ts';
import type { Limit, PipelineStats } from './types.ts';

/** An original in the cache: what is known about it, and the file holding its bytes. */
export interface Source extends SourceRecord {
  path: string;
}

export interface SourcesContext {
  store: Store;
  stats: PipelineStats;
  settings: Settings;
  /** The sharp job limiter. */
  cpu: Limit;
  fetch: FetchLike;
  policy: HostPolicy;
  /** `file:` URLs of the site's own files that stand for originals (its logo); read from disk, never downloaded. */
  localOriginals: ReadonlySet<string>;
  /** URL → SHA-256 of originals taken as recorded (ImagePipelineOptions.trustedOriginals). */
  trusted: ReadonlyMap<string, string>;
}
