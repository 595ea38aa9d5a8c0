/** Every collection of the press room, loaded from the Newsroom API (or a snapshot) by @pressroom-static/content-loaders. */
import { defineCollection } from 'astro:content';
import { pressroomLoaders } from '@pressroom-static/content-loaders';
import { buildRuntime } from './config/build-runtime.ts';
import { collectionStored } from './config/stored-collections.ts';
import { keptAdmissionMemo } from './config/admission-memo.ts';

// The runtime the integrations share (its options come from the PRESSROOM_* configuration, see src/config/);
// each collection, once stored, is announced to the integrations that start work on it early. A process
// that builds again and again (the warm renderer) keeps what each item came to between its loads.
const loaders = pressroomLoaders({ runtime: () => buildRuntime(), onStored: collectionStored, memo: keptAdmissionMemo() });

export const collections = {
  pressroom: defineCollection({ loader: loaders.pressroom }),
  pressReleases: defineCollection({ loader: loaders.pressReleases }),
  timeline: defineCollection({ loader: loaders.timeline }),
  archive: defineCollection({ loader: loaders.archive }),
  clippings: defineCollection({ loader: loaders.clippings }),
  events: defineCollection({ loader: loaders.events }),
  liveEvents: defineCollection({ loader: loaders.liveEvents }),
  pages: defineCollection({ loader: loaders.pages }),
  prContacts: defineCollection({ loader: loaders.prContacts }),
  mediaKits: defineCollection({ loader: loaders.mediaKits }),
  mediaKitCategories: defineCollection({ loader: loaders.mediaKitCategories }),
  tags: defineCollection({ loader: loaders.tags }),
  images: defineCollection({ loader: loaders.images }),
  movies: defineCollection({ loader: loaders.movies }),
  videos: defineCollection({ loader: loaders.videos }),
  sounds: defineCollection({ loader: loaders.sounds }),
  documents: defineCollection({ loader: loaders.documents }),
};
