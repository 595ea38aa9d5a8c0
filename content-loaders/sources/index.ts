/** Every collection a press-room site is built from. */
import {
  documentsSource,
  imagesSource,
  mediaKitCategoriesSource,
  mediaKitsSource,
  moviesSource,
  soundsSource,
  tagsSource,
  videosSource,
} from './media-library.ts';
import {
  archiveSource,
  clippingsSource,
  eventsSource,
  liveEventsSource,
  pagesSource,
  pressReleasesSource,
  pressroomSource,
  prContactsSource,
  timelineSource,
} from './press-room.ts';

export const SOURCES = {
  pressroom: pressroomSource,
  pressReleases: pressReleasesSource,
  timeline: timelineSource,
  archive: archiveSource,
  clippings: clippingsSource,
  events: eventsSource,
  liveEvents: liveEventsSource,
  pages: pagesSource,
  prContacts: prContactsSource,
  mediaKits: mediaKitsSource,
  mediaKitCategories: mediaKitCategoriesSource,
  tags: tagsSource,
  images: imagesSource,
  movies: moviesSource,
  videos: videosSource,
  sounds: soundsSource,
  documents: documentsSource,
} as const;

export type CollectionName = keyof typeof SOURCES;
export type { CollectionSource, RawItems } from './source.ts';
