/**
 * A source says how one collection is fetched from the Newsroom API and how
 * each raw item becomes a lean entry. Sources know nothing of Astro, so the
 * snapshot recorder runs exactly the requests a build makes.
 */
import type { z } from 'astro/zod';
import { NewsroomApiError } from '../client/errors.ts';
import type { NewsroomClient } from '../client/types.ts';
import { DataIssues } from '../data-policy/issues.ts';
import type { Rescue, Where } from '../data-policy/repair.ts';
import { readEagerly } from './read-eagerly.ts';

export interface RawItems {
  /** The endpoint the items came from, as shown in errors (no secrets). */
  endpoint: string;
  items: unknown[];
  /**
   * What identifies the answer whose `data` these items are, whole and in order (its request and
   * the SHA-256 of its bytes): the same answer, the same items. Absent when not known, or when the
   * items are not the whole answer (a page whose items of earlier pages were dropped).
   */
  answer?: string;
}

/** What a source may consult while fetching and screening: the build's clock and the data policy's log. */
export interface SourceContext {
  /** The build's clock (ms since the epoch): an item embargoed until after it is not public. */
  now: number;
  issues: DataIssues;
  /** Where warning lines go (the collection's logger). */
  log(line: string): void;
}

/** A context for runs that only fetch (snapshot recording, benchmarks): nothing is reported. */
export function fetchOnlyContext(): SourceContext {
  return { now: Date.now(), issues: new DataIssues(), log: () => {} };
}

/** A collection's raw items in batches (a list's pages), each handed over as it arrives, always in the same order. */
export type RawBatches = AsyncIterable<RawItems>;

export interface CollectionSource<Api extends z.ZodType = z.ZodType, Entry extends Record<string, unknown> = Record<string, unknown>> {
  /** Collection name in Astro, e.g. `pressReleases`. */
  collection: string;
  /**
   * Fetches every raw item (all pages, all endpoints this collection needs), batch by batch: a
   * loader makes each batch into entries before the next, so a long list's answers are never all
   * held at once.
   */
  fetch(client: NewsroomClient, context: SourceContext): RawBatches;
  /**
   * Fetches the one item of this id as the list would hand it over (a targeted refresh: a webhook
   * named it); `items` is empty when the API does not show it (404). Absent: the collection is only
   * ever loaded whole.
   */
  fetchItem?(client: NewsroomClient, id: string): Promise<RawItems>;
  /** Validates one upstream item. */
  schema: Api;
  /** The entry id (unique in the collection). */
  entryId(item: z.output<Api>): string;
  /** The lean entry stored in the content layer. */
  toEntry(item: z.output<Api>, index: number): Entry;
  /** Lists inside an item that hold other items (`includes`): each element is kept only when public, like an item. */
  nested?: readonly string[];
  /** A last look at a raw, public item before validation (a locked kit's media are taken out here); `where` names it in warnings. */
  screen?(raw: Record<string, unknown>, context: SourceContext, where: Where): Record<string, unknown>;
  /** Replacements for required top-level fields that cannot be used (a safe path for an unusable permalink). */
  rescues?: Readonly<Record<string, Rescue>>;
}

export function defineSource<Api extends z.ZodType, Entry extends Record<string, unknown>>(
  source: CollectionSource<Api, Entry>,
): CollectionSource<Api, Entry> {
  return source;
}

/** One list endpoint, page by page (every item named by the list's endpoint). */
export function listOf(path: string, query?: Record<string, string>) {
  return async function* (client: NewsroomClient): RawBatches {
    const endpoint = client.endpoint(path, query);
    for await (const page of client.pages(path, query)) {
      const whole = page.sha256 !== undefined && page.received === page.items.length;
      yield { endpoint, items: page.items, ...(whole ? { answer: `${page.endpoint} ${page.sha256}` } : {}) };
    }
  };
}

/**
 * One item of a list by its id (`<path>/<id>`, the list's own query: the same shape), or none when
 * the API answers 404: the item is not shown (any longer).
 */
export function itemOf(path: string, query?: Record<string, string>) {
  return async (client: NewsroomClient, id: string): Promise<RawItems> => {
    const itemPath = `${path}/${encodeURIComponent(id)}`;
    const endpoint = client.endpoint(itemPath, query);
    try {
      return { endpoint, items: [await client.get(itemPath, query)] };
    } catch (error) {
      if (error instanceof NewsroomApiError && error.status === 404) return { endpoint, items: [] };
      throw error;
    }
  };
}

/**
 * Several list endpoints, page by page: all asked for at once, so their chains of pages overlap,
 * and handed over one list after the other (a later list's pages wait until the earlier lists are
 * handed over), so their items come in the same order every time.
 */
export function listsOf(paths: readonly string[], query?: Record<string, string>) {
  return async function* (client: NewsroomClient): RawBatches {
    const readers = paths.map((path) => readEagerly(listOf(path, query)(client)));
    try {
      for (const reader of readers) yield* reader;
    } finally {
      await Promise.all(readers.map((reader) => reader.close()));
    }
  };
}

/** A source whose few answers are fetched together, then handed over as batches. */
export function fetchedTogether(fetch: (client: NewsroomClient, context: SourceContext) => Promise<RawItems[]>) {
  return async function* (client: NewsroomClient, context: SourceContext): RawBatches {
    yield* await fetch(client, context);
  };
}

/** Runs a source's fetch to the end (every request it makes), keeping nothing: for what only needs the answers. */
export async function fetchAll(batches: RawBatches, onBatch: (batch: RawItems) => void = () => {}): Promise<void> {
  for await (const batch of batches) onBatch(batch);
}
