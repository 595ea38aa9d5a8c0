/**
 * Cloudflare's purge API (POST /zones/{zone_id}/purge_cache, an API token with
 * the Cache Purge permission): by URL in calls of 30 (the limit on Free, Pro and
 * Business; Enterprise takes more), or the whole zone with `purge_everything`.
 */
import { apiMessage, callPurgeApi } from './http.ts';
import type { Purger } from './types.ts';

export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4';
export const CLOUDFLARE_URLS_PER_CALL = 30;

export function cloudflarePurger({ zoneId, token, api = CLOUDFLARE_API }: { zoneId: string; token: string; api?: string }): Purger {
  const call = async (body: unknown, what: string) => {
    const answer = (await callPurgeApi({
      method: 'POST',
      url: `${api.replace(/\/+$/, '')}/zones/${encodeURIComponent(zoneId)}/purge_cache`,
      headers: { authorization: `Bearer ${token}` },
      body,
      what,
    })) as { success?: boolean } | undefined;
    if (answer?.success !== true) throw new Error(`${what} failed: Cloudflare answered success: false${apiMessage(answer)}`);
  };
  return {
    name: 'Cloudflare',
    async purgeUrls(urls) {
      let calls = 0;
      for (let i = 0; i < urls.length; i += CLOUDFLARE_URLS_PER_CALL) {
        const batch = urls.slice(i, i + CLOUDFLARE_URLS_PER_CALL);
        await call({ files: batch }, `Cloudflare purge of URLs ${i + 1}-${i + batch.length} of ${urls.length}`);
        calls++;
      }
      return calls;
    },
    async purgeEverything() {
      await call({ purge_everything: true }, 'Cloudflare purge of the whole zone');
      return 1;
    },
  };
}
