/**
 * Turns a collection source into an Astro content loader. The whole
 * collection is fetched and validated before the store is touched, so a
 * collection is either replaced completely or left as it was; unchanged
 * entries keep their digest and are not rewritten; entries gone upstream are
 * deleted. A sync whose context names some of a collection's items (a
 * targeted refresh: `TARGETED_ITEMS`) fetches those alone and leaves the rest.
 */
import type { z } from 'astro/zod';
import type { Loader, LoaderContext } from 'astro/loaders';
import { emptyGroupStats, type GroupStats, type NewsroomClient } from '../client/index.ts';
import { admitItem } from '../data-policy/admit.ts';
import { DataIssues, shown } from '../data-policy/issues.ts';
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

/**
 * The key of a sync's context (`ContentLayer#sync({ loaders, context })`, which Astro hands every
 * loader as `refreshContextData`) that names items to refresh: collection → ids. A collection it
 * names whose source can fetch one item (`fetchItem`) fetches only those, each as its list would
 * hand it over, through the same data policy: an item the API no longer shows, or shows but not as
 * public, is removed. The collection's other entries are left as they were, so a caller that
 * cannot be sure nothing else changed syncs every collection in full afterwards. A collection the
 * context does not name loads in full.
 */
export const TARGETED_ITEMS = 'pressroomItems';

/** Collection → ids, as a sync's context carries them under `TARGETED_ITEMS`. */
export type TargetedItems = Readonly<Record<string, readonly string[]>>;

/** The ids of `collection` a sync's context names, or undefined: load it whole. */
function namedIds(refreshContextData: Record<string, unknown> | undefined, collection: string): readonly string[] | undefined {
  const targets = refreshContextData?.[TARGETED_ITEMS] as TargetedItems | undefined;
  const ids = targets?.[collection];
  return Array.isArray(ids) ? ids : undefined;
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
      /** The collection is stored: its entries handed on, its report made. */
      const stored = (counts: Pick<CollectionReport, 'named' | 'entries' | 'added' | 'changed' | 'removed'>): void => {
        options.onStored?.(
          source.collection,
          context.store.values().map((entry) => entry.data),
        );
        const { requests, retries, notModified, bytes } = tally;
        const report: CollectionReport = {
          collection: source.collection,
          ...counts,
          requests,
          retries,
          notModified,
          bytes,
          ms: performance.now() - started,
        };
        runtime.reports.push(report);
        logger.info(formatReport(report));
      };
      const named = namedIds(context.refreshContextData, source.collection);
      // An entry made from its position cannot be made alone: such a collection always loads whole.
      if (named && source.fetchItem && source.toEntry.length <= 1) {
        const counts = await loadNamed(source, named, context, runtime, talliedClient(runtime.client, tally), logger);
        return stored({ entries: context.store.keys().length, ...counts });
      }
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
          return { id, data: entryOf(source, item, index, runtime), learning };
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
      stored({ entries: seen.size, added: next.size - changed, changed, removed });
    },
  };
}

/** The lean entry an admitted item makes, its HTML sanitised (unless the runtime keeps it raw). */
function entryOf<Api extends z.ZodType, Entry extends Record<string, unknown>>(
  source: CollectionSource<Api, Entry>,
  item: z.output<Api>,
  index: number,
  runtime: LoaderRuntime,
): Record<string, unknown> {
  const entry = source.toEntry(item, index);
  return runtime.options.rawHtml ? entry : sanitizeHtmlFields(entry);
}

/**
 * A targeted refresh of one collection: each named item fetched alone and admitted as a list's
 * item is (its warnings go to the log, not to the build's data report: the full load that follows
 * a targeted one reports them), stored when it differs, removed when it is not published.
 */
async function loadNamed<Api extends z.ZodType, Entry extends Record<string, unknown>>(
  source: CollectionSource<Api, Entry>,
  ids: readonly string[],
  context: LoaderContext,
  runtime: LoaderRuntime,
  client: NewsroomClient,
  logger: { warn(line: string): void },
): Promise<{ named: number; added: number; changed: number; removed: number }> {
  // Strict as the build is: a warning that would fail a full build fails this load too.
  const issues = new DataIssues({ strict: runtime.options.strict, strictName: runtime.options.settingNames.strict });
  const policy: SourceContext = { now: runtime.now, issues, log: (line) => logger.warn(line) };
  const unique = [...new Set(ids)];
  const counts = { named: unique.length, added: 0, changed: 0, removed: 0 };
  const answers = await Promise.all(unique.map((id) => source.fetchItem!(client, id)));
  for (const [n, id] of unique.entries()) {
    const { endpoint, items } = answers[n]!;
    const admission = { ...source, endpoint };
    const item = items
      .map((raw) => admitItem(raw, admission, policy))
      .find((admitted) => admitted !== null && source.entryId(admitted) === id);
    if (!item) {
      if (context.store.has(id)) {
        context.store.delete(id);
        counts.removed++;
      }
      continue;
    }
    const data = await bodyKeptOut(entryOf(source, item, 0, runtime), runtime);
    const digest = context.generateDigest(data);
    const existing = context.store.get(id);
    if (existing?.digest === digest) continue;
    if (existing) counts.changed++;
    else counts.added++;
    context.store.set({ id, data, digest });
  }
  return counts;
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
