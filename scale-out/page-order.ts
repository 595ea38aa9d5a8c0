/**
 * The order the pages ask for originals, as BullMQ priorities (1 is taken
 * first; jobs of one priority are taken in the order added), so a worker
 * makes first what the next pages to render need. Astro renders the routes in
 * its route order (src/pages/, static segments before dynamic ones, then by
 * name): every page shows the press room's logo; the archive months, the
 * contacts, coverage, events and the feeds come before the media library,
 * the kits, the release lists, the tags and the release pages. So a
 * collection's jobs take the rank of the first route that shows its images,
 * and within a collection the entries' order (the API's, newest first, which
 * is how the lists and archive pages show them).
 */
import { renditionJobsOf } from './site-jobs.ts';
import type { RenditionJob } from '@pressroom-static/image-pipeline';

const RANKS: Readonly<Record<string, number>> = {
  // The layout of every page, from 404.html on.
  pressroom: 1,
  // Featured images on the archive months (the first routes), the feeds, the release lists and pages.
  pressReleases: 2,
  prContacts: 3,
  clippings: 4,
  events: 5,
  liveEvents: 5,
  // The media library: /media/<section>/.
  images: 6,
  videos: 6,
  movies: 6,
  sounds: 6,
  documents: 6,
  mediaKits: 7,
  tags: 8,
};
/** Collections the table does not name (category images, pages): after every ranked one. */
const LAST = 9;

/** The priority of a collection's jobs. */
export function pagePriorityOf(collection: string): number {
  return RANKS[collection] ?? LAST;
}

/** A collection's jobs, in entry order, and the priority of each. */
export interface PrioritizedJobs {
  jobs: Map<string, RenditionJob>;
  priorities: Map<string, number>;
}

/**
 * The jobs of every collection (collection → entries, as the data store holds them), each job with
 * the highest priority of the collections that show its original.
 */
export function jobsInPageOrder(collections: ReadonlyMap<string, unknown>, avif: boolean): PrioritizedJobs {
  const ranked = [...collections].toSorted(([a], [b]) => pagePriorityOf(a) - pagePriorityOf(b));
  const jobs = new Map<string, RenditionJob>();
  const priorities = new Map<string, number>();
  for (const [collection, entries] of ranked) {
    for (const [id, job] of renditionJobsOf(entries, avif)) {
      if (jobs.has(id)) continue;
      jobs.set(id, job);
      priorities.set(id, pagePriorityOf(collection));
    }
  }
  return { jobs, priorities };
}
