/**
 * Turns a collection source into an Astro content loader. The whole
 * collection is fetched and validated before the store is touched, so a
 * collection is either replaced completely or left as it was; unchanged
 * entries keep their digest and are not rewritten; entries gone upstream are
 * deleted.
 */
import type { z } from 'astro/zod';
import type { Loader, LoaderContext } from 'astro/loaders';
import { emptyGroupStats, type GroupStats, type NewsroomClient } from '../client/index.ts';
import { admitItem } from '../data-policy/admit.ts';
import { shown } from '../data-policy/issues.ts';
import { itemIdOf } from '../data-policy/repair.ts';
import type { CollectionSource, SourceContext } from '../sources/source.ts';
import type { CollectionReport, LoaderRuntime } from '../runtime.ts';
import { formatBytes } from '../format-bytes.ts';
import { sanitizeHtmlFields } from '../html/sanitize-upstream.ts';
import type { StoredBody } from '../html/body-files.ts';
import type { AdmissionMemo, Learning, MemoisedItem } from './admission-memo.ts';

/** The runtime every collection of one build shares (see `pressroomLoaders` for making one from options). */
export interface NewsroomLoaderOptions {
  runtime: () => Promise<LoaderRuntime>;
  /**
   * Called once a collection is stored, with every entry's data (the data policy applied): work on
   * the entries can start while other collections still load. It must not throw.
   */
  onStored?: (collection: string, entries: Iterable<Record<string, unknown>>) => void;
  /**
   * For a process that loads more than once (a warm renderer): what each raw item came to is kept
   * between loads, and an item received exactly as before is not admitted again (see
   * admission-memo.ts). Without it nothing is kept and nothing extra is computed.
   */
  memo?: AdmissionMemo | undefined;
}

/** The shared client, with every request this collection makes also counted in `tally` (for its own report). */
function talliedClient(client: NewsroomClient, tally: GroupStats): NewsroomClient {
  return {
    ...client,
    get: (path, query, options) => client.get(path, query, { ...options, tally }),
    getJson: (path, query, options) => client.getJson(path, query, { ...options, tally }),
    list: (path, query, options) => client.list(path, query, { ...options, tally }),
    pages: (path, query, options) => client.pages(path, query, { ...options, tally }),
  };
}

/** The name Astro knows a collection's loader by (`ContentLayer#sync({ loaders })` selects by it). */
export const loaderName = (collection: string): string => `pressroom-static/${collection}`;

/**
 * The loader's `schema` describes the stored entry (upstream schema piped into
 * the entry mapping), so `getCollection()` is typed. Items go through the
 * data policy (`admitItem`: non-public ones kept out, invalid values dropped
 * or replaced with a warning naming endpoint, id, field and value, items that
 * cannot stand skipped); `parseData` is not called, since entries are
 * already validated.
 */
export function newsroomLoader<Api extends z.ZodType, Entry extends Record<string, unknown>>(
  source: CollectionSource<Api, Entry>,
  options: NewsroomLoaderOptions,
): Loader & { schema: z.ZodType<Entry> } {
  return {
    name: loaderName(source.collection),
    schema: source.schema.transform((item) => source.toEntry(item, 0)) as unknown as z.ZodType<Entry>,
    load: async (context: LoaderContext) => {
      const runtime = await options.runtime();
      const logger = runtime.options.logger ?? context.logger;
      const started = performance.now();
      const tally = emptyGroupStats();
      const policy: SourceContext = { now: runtime.now, issues: runtime.issues, log: (line) => logger.warn(line) };
      // Only new and changed entries are kept until the list is complete: an unchanged one is already
      // in the store, and a second copy of every entry is what a rebuild at scale L could not afford.
      const next = new Map<string, { data: Record<string, unknown>; digest: string }>();
      const seen = new Set<string>();
      let changed = 0;
      let index = 0;
      const isDuplicate = (id: string, raw: unknown, endpoint: string): boolean => {
        if (!seen.has(id)) return false;
        // Two items under one key (two tags with one slug): the first keeps it, the other is skipped, named.
        logger.warn(
          runtime.issues.warn({
            kind: 'item-skipped',
            collection: source.collection,
            endpoint,
            itemId: itemIdOf(raw),
            field: '(item)',
            value: shown(id),
            reason: `an earlier item of this collection is already published under ${JSON.stringify(id)}`,
          }),
        );
        return true;
      };
      // An entry's `position` is the index it is made with: `toEntry` declares that parameter only
      // when the entry depends on it, and only then is a kept outcome tied to the item's place.
      const memo = options.memo?.forLoad(source.collection, runtime, source.toEntry.length > 1);
      for await (const { endpoint, items, answer } of source.fetch(talliedClient(runtime.client, tally), policy)) {
        runtime.issues.received(source.collection, items.length);
        const admission = { ...source, endpoint };
        const memoised = memo ? await memo.recall(endpoint, items, answer) : undefined;
        // One raw item to the entry it makes, or null: not published, or its id already taken.
        const pendingEntry = (raw: unknown, kept: MemoisedItem | undefined): Pending | null => {
          const reused = kept?.reuse(index, policy);
          if (reused !== undefined) return reused === null || isDuplicate(reused.id, raw, endpoint) ? null : reused;
          const learning = kept?.learn(index, policy);
          const item = admitItem(raw, admission, learning?.context ?? policy);
          if (item === null) {
            learning?.remember(null);
            return null;
          }
          const id = source.entryId(item);
          if (isDuplicate(id, raw, endpoint)) return null;
          const entry = source.toEntry(item, index);
          return { id, data: runtime.options.rawHtml ? entry : sanitizeHtmlFields(entry), learning };
        };
        const batch: Pending[] = [];
        for (const [n, raw] of items.entries()) {
          const pending = pendingEntry(raw, memoised?.[n]);
          if (pending === null) continue;
          index++;
          seen.add(pending.id);
          batch.push(pending);
        }
        for (const { id, data, digest: known, learning } of await Promise.all(batch.map((pending) => finished(pending, runtime)))) {
          const digest = known ?? context.generateDigest(data);
          learning?.remember({ id, data, digest });
          const existing = context.store.get(id);
          if (existing?.digest === digest) continue;
          if (existing) changed++;
          next.set(id, { data, digest });
        }
      }
      runtime.issues.checkShare(source.collection);
      memo?.commit();

      let removed = 0;
      for (const id of context.store.keys()) {
        if (!seen.has(id)) {
          context.store.delete(id);
          removed++;
        }
      }
      for (const [id, entry] of next) context.store.set({ id, ...entry });
      const added = next.size - changed;
      options.onStored?.(
        source.collection,
        context.store.values().map((entry) => entry.data),
      );

      const { requests, retries, notModified, bytes } = tally;
      const report: CollectionReport = {
        collection: source.collection,
        entries: seen.size,
        added,
        changed,
        removed,
        requests,
        retries,
        notModified,
        bytes,
        ms: performance.now() - started,
      };
      runtime.reports.push(report);
      logger.info(formatReport(report));
    },
  };
}

/** An entry on its way to the store: its digest is known when it is a kept one (the memo's). */
type Pending = { id: string; data: Record<string, unknown>; digest?: string; learning?: Learning | undefined };

/** A pending entry with its body in its file (a kept one has it there already). */
async function finished(pending: Pending, runtime: LoaderRuntime): Promise<Pending> {
  return pending.digest === undefined ? { ...pending, data: await bodyKeptOut(pending.data, runtime) } : pending;
}

/** An entry whose `body` goes to its file when the runtime keeps bodies out of the data store (`bodyDir`). */
async function bodyKeptOut(data: Record<string, unknown>, runtime: LoaderRuntime): Promise<Record<string, unknown>> {
  const body = data.body as StoredBody | undefined;
  if (!runtime.bodies || !body || !('html' in body)) return data;
  return { ...data, body: await runtime.bodies.store(body.html) };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function formatReport(r: CollectionReport): string {
  const unchanged = r.entries - r.added - r.changed;
  return (
    `${r.collection}: ${r.entries} entries (${r.added} new, ${r.changed} changed, ${unchanged} unchanged, ${r.removed} removed)` +
    ` · ${plural(r.requests, 'request')}, ${plural(r.retries, 'retry', 'retries')}, ${r.notModified} not modified · ${formatBytes(r.bytes)} · ${Math.round(r.ms)} ms`
  );
}
