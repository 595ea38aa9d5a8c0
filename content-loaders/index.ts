/**
 * @pressroom-static/content-loaders: Astro content loaders for a Newsroom Read
 * API press room. `pressroomLoaders(options)` gives one loader per collection;
 * the rest is what applications around the loaders share with them (the
 * client's retry and fetch types for their own downloads, byte formatting,
 * cache pruning, slugs, media URLs, snapshots).
 */
export { pressroomLoaders, newsroomLoader, loaderName, formatReport, createAdmissionMemo } from './loaders/index.ts';
export type { AdmissionMemo, PressroomLoaders } from './loaders/index.ts';
export type { NewsroomLoaderOptions, TargetedItems } from './loaders/newsroom-loader.ts';
export { TARGETED_ITEMS } from './loaders/newsroom-loader.ts';

export { loaderOptionsSchema, parseLoaderOptions, LoaderOptionsError } from './options.ts';
export type { LoaderOptions, LoaderLogger, ResolvedLoaderOptions } from './options.ts';
export { createLoaderRuntime } from './runtime.ts';
export type { CollectionReport, LoaderRuntime } from './runtime.ts';

export { createNewsroomClient, emptyGroupStats, NewsroomApiError, RETRYABLE_STATUSES } from './client/index.ts';
export type {
  ClientStats,
  FailureKind,
  GroupStats,
  ListOptions,
  NewsroomClient,
  NewsroomClientOptions,
  Query,
  RequestOptions,
} from './client/index.ts';
export { OPTION_SETTING_NAMES, errorCode, innermostMessage, oneLine } from './client/errors.ts';
export type { SettingNames } from './client/errors.ts';
export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './client/limiter.ts';
export type { FetchLike } from './client/transport.ts';
export { defaultSleep, parseRetryAfter, retrying } from './client/retry.ts';
export type { RetryPolicy } from './client/retry.ts';

export { DataIssues, DataPolicyError, shown } from './data-policy/issues.ts';
export type { DataReport, DataWarning } from './data-policy/issues.ts';
export { DROP_WITH_CONTENT, MAX_HTML_DEPTH, sanitizeHtmlFields, sanitizeUpstreamHtml } from './html/sanitize-upstream.ts';
export { readBody } from './html/body-files.ts';
export type { StoredBody } from './html/body-files.ts';

export { SOURCES } from './sources/index.ts';
export type { CollectionName, CollectionSource } from './sources/index.ts';
export { fetchAll, fetchOnlyContext } from './sources/source.ts';

export { recordSnapshot } from './snapshot/record-press-room.ts';
export type { RecordOptions, RecordResult } from './snapshot/record-press-room.ts';
export { assertSnapshotFolder, readManifest } from './snapshot/manifest.ts';
export type { Manifest } from './snapshot/manifest.ts';

export { formatBytes } from './format-bytes.ts';
export { pruneUnused } from './cache-pruning.ts';
export type { PruneResult } from './cache-pruning.ts';
export { slugify } from './slug.ts';
export { FILE_TYPES, mediaOriginalUrls, originalUrlOf } from './media-urls.ts';
