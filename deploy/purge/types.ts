/** What every CDN's purge does (cloudflare.ts, fastly.ts), apart from purger.ts that picks one: no import cycle. */
export interface Purger {
  name: string;
  /** Purges every URL; returns the API calls made. */
  purgeUrls(urls: string[]): Promise<number>;
  purgeEverything(): Promise<number>;
}

/** The CDNs `--purge` knows (purger.ts picks one; the deploy's help names them without loading it). */
export const PURGE_CDNS = ['cloudflare', 'fastly'] as const;
export type PurgeCdn = (typeof PURGE_CDNS)[number];
