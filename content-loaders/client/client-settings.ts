/**
 * A client's options checked and completed: the base URL without credentials,
 * the press room id, the key (only here and in the headers), timeouts, the
 * retry policy, paging and the headers every attempt sends.
 */
import type { NewsroomClientOptions } from './types.ts';
import type { SettingNames } from './errors.ts';
import { DEFAULT_CONCURRENCY } from './limiter.ts';
import { DEFAULT_MAX_PAGES, DEFAULT_PAGE_LIMIT } from './paging.ts';
import { createFetchTransport } from './fetch-transport.ts';
import type { Transport } from './transport.ts';
import { createUndiciTransport } from './undici-transport.ts';
import { defaultSleep, type RetryPolicy } from './retry.ts';

export interface ClientSettings {
  /** `https://api.example.com` */
  origin: string;
  /** Origin and path, no trailing slash. */
  baseUrl: string;
  /** The base URL's path, no trailing slash (`''` at the root). */
  basePath: string;
  pressroomId: string;
  apiKey: string | undefined;
  /** What must never appear in an error (the key). */
  secrets: readonly string[];
  concurrency: number;
  timeoutMs: number;
  stallTimeoutMs: number;
  maxResponseBytes: number;
  /** undici's request, or the `fetch` of the options. */
  transport: Transport;
  policy: RetryPolicy;
  paging: { limit: number; firstPage: number; maxPages: number; readAhead: number };
  /** Sent with every attempt (the bearer key among them). */
  headers: Record<string, string>;
  settingNames: Readonly<SettingNames> | undefined;
}

function parsedBaseUrl(baseUrl: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new TypeError(`Newsroom API baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new TypeError('Newsroom API baseUrl must be an http(s) URL without credentials, query or fragment');
  }
  return parsed;
}

export function clientSettings(options: NewsroomClientOptions): ClientSettings {
  const parsedBase = parsedBaseUrl(options.baseUrl);
  const pressroomId = String(options.pressroomId).trim();
  if (!/^[A-Za-z0-9.-]+$/.test(pressroomId)) {
    throw new TypeError(`pressroomId must be a numeric id or a domain, got ${JSON.stringify(options.pressroomId)}`);
  }
  const apiKey = options.apiKey === undefined || options.apiKey === '' ? undefined : options.apiKey;
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new TypeError('apiKey must be printable ASCII without spaces (value hidden)');
  }
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const policy: RetryPolicy = {
    retries: options.retries ?? 4,
    baseDelayMs: options.baseDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    retryAfterCapMs: options.retryAfterCapMs ?? 60_000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
  };
  const stallTimeoutMs = options.stallTimeoutMs ?? 10_000;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
  if (!Number.isInteger(policy.retries) || policy.retries < 0)
    throw new RangeError(`retries must be a non-negative integer, got ${String(policy.retries)}`);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'pressroom-static',
  };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  return {
    origin: parsedBase.origin,
    baseUrl: `${parsedBase.origin}${parsedBase.pathname}`.replace(/\/+$/, ''),
    basePath: parsedBase.pathname.replace(/\/+$/, ''),
    pressroomId,
    apiKey,
    secrets: apiKey === undefined ? [] : [apiKey],
    concurrency,
    timeoutMs: options.timeoutMs ?? 30_000,
    stallTimeoutMs,
    maxResponseBytes,
    transport: options.fetch
      ? createFetchTransport(options.fetch, { stallTimeoutMs })
      : createUndiciTransport({ stallTimeoutMs, maxResponseBytes }),
    policy,
    paging: {
      limit: options.pageLimit ?? DEFAULT_PAGE_LIMIT,
      firstPage: options.firstPage ?? 1,
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
      readAhead: options.readAhead ?? Math.min(2, concurrency - 1),
    },
    headers,
    settingNames: options.settingNames,
  };
}
