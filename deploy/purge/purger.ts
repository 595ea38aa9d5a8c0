/**
 * A CDN's purge, after a deploy: the URLs of the files it uploaded and deleted,
 * or everything when the deploy filled an empty prefix (a first deploy).
 */
import { cloudflarePurger, CLOUDFLARE_API } from './cloudflare.ts';
import { fastlyPurger, FASTLY_API } from './fastly.ts';
import { PURGE_CDNS, type Purger } from './types.ts';

export { PURGE_CDNS, type PurgeCdn, type Purger } from './types.ts';

/** The purger `--purge NAME` asks for, with its settings from the environment; throws naming a missing variable. */
export function purgerFor(cdn: string, env: NodeJS.ProcessEnv): Purger {
  const need = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`--purge ${cdn} needs ${name}`);
    return value;
  };
  if (cdn === 'cloudflare')
    return cloudflarePurger({ zoneId: need('CF_ZONE_ID'), token: need('CF_API_TOKEN'), api: env.CF_API_URL?.trim() || CLOUDFLARE_API });
  if (cdn === 'fastly')
    return fastlyPurger({
      serviceId: need('FASTLY_SERVICE_ID'),
      token: need('FASTLY_API_TOKEN'),
      api: env.FASTLY_API_URL?.trim() || FASTLY_API,
    });
  throw new Error(`--purge must be one of ${PURGE_CDNS.join(', ')}, got ${JSON.stringify(cdn)}`);
}

/** The URLs a CDN caches a site file under, absolute on the site's URL: `a/index.html` → `…/a/` and `…/a/index.html`. */
export function purgeUrlsOf(files: Iterable<string>, site: string, urlsOfFile: (file: string) => string[]): string[] {
  const origin = site.replace(/\/+$/, '');
  return [...new Set([...files].flatMap((file) => urlsOfFile(file).map((url) => `${origin}${url}`)))].sort();
}
