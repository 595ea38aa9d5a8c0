/**
 * A source says how one collection is fetched from the Newsroom API and how
 * each raw item becomes a lean entry. Sources know nothing of Astro, so the
 * snapshot recorder runs exactly the requests a build makes.
 */
import type { z } from 'astro/zod';
import type { NewsroomClient } from '../client/client.ts';

export interface RawItems {
  /** The endpoint the items came from, as shown in errors (no secrets). */
  endpoint: string;
  items: unknown[];
}

export interface CollectionSource<Api extends z.ZodType = z.ZodType, Entry extends Record<string, unknown> = Record<string, unknown>> {
  /** Collection name in Astro, e.g. `pressReleases`. */
  collection: string;
  /** Fetches every raw item (all pages, all endpoints this collection needs). */
  fetch(client: NewsroomClient): Promise<RawItems[]>;
  /** Validates one upstream item. */
  schema: Api;
  /** The entry id (unique in the collection). */
  entryId(item: z.output<Api>): string;
  /** The lean entry stored in the content layer. */
  toEntry(item: z.output<Api>, index: number): Entry;
}

export function defineSource<Api extends z.ZodType, Entry extends Record<string, unknown>>(
  source: CollectionSource<Api, Entry>,
): CollectionSource<Api, Entry> {
  return source;
}

/** One list endpoint fetched with every page. */
export function listOf(path: string, query?: Record<string, string>) {
  return async (client: NewsroomClient): Promise<RawItems[]> => [
    { endpoint: client.endpoint(path, query), items: await client.list(path, query) },
  ];
}
