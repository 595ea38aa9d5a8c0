/**
 * The site's data types: the content collections' entries as the pages use them
 * (src/lib/data.ts loads them). Types only, in a module of their own, so that
 * the modules data.ts composes (site-indexes.ts, site-paths.ts) need not import
 * data.ts back.
 */
import type { CollectionEntry, CollectionKey } from 'astro:content';
import type { PictureSource } from './images.ts';

type Data<C extends CollectionKey> = CollectionEntry<C>['data'];

export type PressroomData = Data<'pressroom'>;
/**
 * A release with its site path and what the pages show of its body without reading it again
 * (made once: cards, descriptions and feeds all read them). The body itself is read where it is
 * shown (`readBody(release.body)`).
 */
export type Release = Data<'pressReleases'> & {
  href: string;
  /** The start of the body as plain text: enough for every summary the site writes (`BODY_LEAD_CHARS`). */
  bodyLead: string;
  wordCount: number;
  /** The featured pictures its body does not already show inline (the page does not repeat them). */
  picturesOutsideBody: Array<Data<'pressReleases'>['featured_images'][number] & PictureSource>;
};
/**
 * `segment`: the path segment it was placed at when its slug's was taken (site-paths.ts). Without the
 * API's `press_release_count`: pages count a tag's published releases themselves, and a count in the
 * item would change the digest of every page showing the tag whenever one of its releases comes or goes.
 */
export type Tag = Omit<Data<'tags'>, 'press_release_count'> & { href: string; segment?: string };
export type Clipping = Data<'clippings'>;
export type PressEvent = Data<'events'>;
export type LiveEvent = Data<'liveEvents'>;
export type CustomPage = Data<'pages'> & { href: string };
export type Contact = Data<'prContacts'>;
export type MediaKit = Data<'mediaKits'>;
export type MediaKitCategory = Data<'mediaKitCategories'>;
export type MediaItem = Release['featured_images'][number];
export type LibraryImage = Data<'images'>;
/** A media library item: images, movies (files), videos (platform embeds), sounds, documents. */
export type LibraryItem = Data<'movies'>;
