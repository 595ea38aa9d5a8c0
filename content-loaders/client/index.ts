/** The Newsroom API client: what loaders import. */
export { createNewsroomClient, emptyGroupStats, normaliseApiPath, pathGroup } from './client.ts';
export type {
  ClientStats,
  GroupStats,
  ListOptions,
  NewsroomClient,
  NewsroomClientOptions,
  Query,
  QueryValue,
  RequestOptions,
} from './types.ts';
export { NewsroomApiError, RETRYABLE_STATUSES } from './errors.ts';
export type { FailureKind } from './errors.ts';
export { keyFingerprint } from './http-cache.ts';
export type { Limiter } from './limiter.ts';
export type { PageInfo, PagingOptions } from './paging.ts';
