/**
 * The content collections the site's pages are made from (getSite() loads exactly these, by the
 * names the site data gives them). The others (`timeline`, `archive`: references to items the site
 * has anyway) are loaded by a full build for whoever reads the content store, but no page reads them,
 * so a warm change syncs these before it renders and the others once it is live
 * (scripts/warm/content-refresh.ts): at L the two are 262 of 546 requests, and after a release comes
 * or goes, 101 MB of shifted pages.
 */
import type { CollectionKey } from 'astro:content';

export const SITE_COLLECTIONS = {
  pressroom: 'pressroom',
  releases: 'pressReleases',
  tags: 'tags',
  clippings: 'clippings',
  events: 'events',
  liveEvents: 'liveEvents',
  pages: 'pages',
  contacts: 'prContacts',
  kits: 'mediaKits',
  categories: 'mediaKitCategories',
  images: 'images',
  movies: 'movies',
  videos: 'videos',
  sounds: 'sounds',
  documents: 'documents',
} as const satisfies Record<string, CollectionKey>;
