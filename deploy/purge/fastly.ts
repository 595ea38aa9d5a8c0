/**
 * Fastly's purge API (a token with the purge_select scope): by URL, one call
 * per URL (POST /purge/{host and path}), soft (marked stale, served while the
 * origin is asked again) so a burst of purges never empties the cache at once;
 * the whole service with POST /service/{service_id}/purge_all (purge_all scope).
 */
import pLimit from 'p-limit';
import { callPurgeApi } from './http.ts';
import type { Purger } from './types.ts';

export const FASTLY_API = 'https://api.fastly.com';

export function fastlyPurger({ serviceId, token, api = FASTLY_API }: { serviceId: string; token: string; api?: string }): Purger {
  const base = api.replace(/\/+$/, '');
  const headers = { 'fastly-key': token };
  return {
    name: 'Fastly',
    async purgeUrls(urls) {
      const limit = pLimit(8);
      await Promise.all(
        urls.map((url) =>
          limit(() =>
            callPurgeApi({
              method: 'POST',
              url: `${base}/purge/${url.replace(/^https?:\/\//, '')}`,
              headers: { ...headers, 'fastly-soft-purge': '1' },
              what: `Fastly purge of ${url}`,
            }),
          ),
        ),
      );
      return urls.length;
    },
    async purgeEverything() {
      await callPurgeApi({
        method: 'POST',
        url: `${base}/service/${encodeURIComponent(serviceId)}/purge_all`,
        headers,
        what: 'Fastly purge of the whole service',
      });
      return 1;
    },
  };
}
