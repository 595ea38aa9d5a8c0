/** What every CDN's purge does (cloudflare.ts, fastly.ts), apart from purger.ts that picks one: no import cycle. */
export interface Purger {
  name: string;
  /** Purges every URL; returns the API calls made. */
  purgeUrls(urls: string[]): Promise<number>;
  purgeEverything(): Promise<number>;
}
