/**
 * Bounded feeds (RFC 5005 "Feed Paging and Archiving", section 4: archived feeds).
 * A feed is one subscription document with its newest items plus archive
 * documents that hold the rest, so what feed readers poll stays small while the
 * whole history can be walked back with `prev-archive` links.
 *
 *   subscription   the newest `currentItems` items; `prev-archive` → the newest archive
 *   archive n      items (n-1)·k … n·k-1 counted from the OLDEST item (k = `archiveItems`),
 *                  newest first inside; `current`, `prev-archive`, `next-archive`, fh:archive
 *
 * Every item is in exactly one document. Archives fill oldest-first in fixed
 * sizes, so publishing a release moves one item from the subscription document
 * into the newest archive: only those two documents change. As soon as an
 * archive is full, the next (empty) one exists, so the full one already has its
 * `next-archive` link and its bytes never change again (cacheable for ever).
 * What does shift archives: an older item removed, or one published with a date
 * older than archived items (both rare; the links stay right either way).
 *
 * Bytes: one document in any of the three formats stays within `bytes`; if its
 * items would go over, the oldest of them lose their full content (title,
 * summary, link, image, tags and files stay), newest kept first. That is decided
 * per document from its own items only, so it keeps archives stable too.
 *
 * Pure functions: same feed in, same documents and bytes out.
 */
import { escapeXml } from './xml.ts';
import { FEED_FILES, FEED_FORMATS, type Feed, type FeedFile, type FeedHistory, type FeedItem, type FeedUrls } from './feed-formats.ts';

export interface FeedBudget {
  /** Items of the subscription document: the newest. */
  currentItems: number;
  /** Items of a full archive document. */
  archiveItems: number;
  /** Bytes (UTF-8) one document may take in any format. */
  bytes: number;
}

/** The site's budget: documented in docs/site.md (Feeds). */
export const FEED_BUDGET: FeedBudget = { currentItems: 50, archiveItems: 50, bytes: 512 * 1024 };

/** Which items go where: `current` and each archive newest first; `archives[0]` is the oldest archive (number 1). */
export interface ArchivePlan<T> {
  current: T[];
  archives: T[][];
}

type Counts = Pick<FeedBudget, 'currentItems' | 'archiveItems'>;

/** Number of archive documents of a feed with `items` items: none when the subscription document holds them all, else ⌊archived ÷ k⌋ + 1. */
export function archiveCount(items: number, budget: Counts = FEED_BUDGET): number {
  if (!(budget.currentItems >= 1 && budget.archiveItems >= 1)) throw new Error('feeds: a budget needs at least one item per document');
  const archived = items - budget.currentItems;
  return archived > 0 ? Math.floor(archived / budget.archiveItems) + 1 : 0;
}

/**
 * The items (newest first) of one document of a feed whose items are `newestFirst`:
 * `null` for the subscription document, `n` for archive n (1 = oldest). The newest
 * archive is partial, or empty right after the one before it filled up.
 */
export function documentItems<T>(newestFirst: readonly T[], archive: number | null, budget: Counts = FEED_BUDGET): T[] {
  const total = newestFirst.length;
  const archived = Math.max(0, total - budget.currentItems);
  if (archive === null) return newestFirst.slice(0, total - archived);
  if (!Number.isInteger(archive) || archive < 1 || archive > archiveCount(total, budget))
    throw new Error(`feeds: no archive ${archive} in a feed of ${total} items`);
  // Counted from the oldest item: archive n holds oldest-first positions (n-1)·k … n·k-1.
  const from = (archive - 1) * budget.archiveItems;
  const to = Math.min(archive * budget.archiveItems, archived);
  return newestFirst.slice(total - to, total - from);
}

/** Which items go where, for the whole feed. */
export function archivePlan<T>(newestFirst: readonly T[], budget: Counts = FEED_BUDGET): ArchivePlan<T> {
  const count = archiveCount(newestFirst.length, budget);
  return {
    current: documentItems(newestFirst, null, budget),
    archives: Array.from({ length: count }, (_, i) => documentItems(newestFirst, i + 1, budget)),
  };
}

/** One document of a feed, and its bytes in every format. */
export interface FeedDocument {
  feed: Feed;
  /** Each format's file as UTF-8: encoded once, measured against the byte budget and written as it is. */
  bodies: Record<FeedFile, Uint8Array<ArrayBuffer>>;
}

/**
 * One document of a feed: `archive` null for the subscription document, else
 * the archive's number. `feed` describes the feed as a whole (all its items,
 * newest first; `urls` those of the subscription document); `archiveUrls(n)`
 * gives the URLs of archive n.
 */
export function feedDocument(
  feed: Feed,
  archive: number | null,
  archiveUrls: (n: number) => FeedUrls,
  budget: FeedBudget = FEED_BUDGET,
): FeedDocument {
  return documentOf(feed, feed.items.length, archive, documentItems(feed.items, archive, budget), archiveUrls, budget);
}

/**
 * One document made from its own items alone (`documentItems` of the feed's), so that it needs no
 * other item of the feed: `feed`'s items are ignored, its `updated` is the date of a document
 * without items, and `total` is how many items the feed has in all (for the archive links).
 */
export function documentOf(
  feed: Omit<Feed, 'items'>,
  total: number,
  archive: number | null,
  items: FeedItem[],
  archiveUrls: (n: number) => FeedUrls,
  budget: FeedBudget = FEED_BUDGET,
): FeedDocument {
  const last = archiveCount(total, budget);
  const history: FeedHistory | undefined =
    archive === null
      ? last > 0
        ? { archive: false, prevArchive: archiveUrls(last) }
        : undefined
      : {
          archive: true,
          current: feed.urls,
          prevArchive: archive > 1 ? archiveUrls(archive - 1) : undefined,
          nextArchive: archive < last ? archiveUrls(archive + 1) : undefined,
        };
  // A document's date is its own newest item's: an archive's never moves with newer items.
  const updated = items.length > 0 ? items.reduce((newest, item) => later(newest, item.updated), items[0]!.updated) : feed.updated;
  return withinBytes({ ...feed, urls: archive === null ? feed.urls : archiveUrls(archive), history, updated, items }, budget.bytes);
}

/** Every document of a feed: the subscription document and its archives (index 0 = archive 1, the oldest). */
export function feedDocuments(
  feed: Feed,
  archiveUrls: (n: number) => FeedUrls,
  budget: FeedBudget = FEED_BUDGET,
): { current: FeedDocument; archives: FeedDocument[] } {
  return {
    current: feedDocument(feed, null, archiveUrls, budget),
    archives: Array.from({ length: archiveCount(feed.items.length, budget) }, (_, i) => feedDocument(feed, i + 1, archiveUrls, budget)),
  };
}

const later = (a: string, b: string) => (b > a ? b : a);
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');
const utf8 = new TextEncoder();

function render(feed: Feed): FeedDocument {
  return {
    feed,
    bodies: Object.fromEntries(FEED_FILES.map((file) => [file, utf8.encode(FEED_FORMATS[file].render(feed))])) as FeedDocument['bodies'],
  };
}

/** The largest of a document's renderings, in bytes. */
export function documentBytes(document: FeedDocument): number {
  return Math.max(...Object.values(document.bodies).map((body) => body.byteLength));
}

/** What an item's full content adds to a document at most (escaped in XML, quoted in JSON, plus the element around it). */
function contentBytes(item: FeedItem): number {
  return Math.max(byteLength(escapeXml(item.contentHtml)), byteLength(JSON.stringify(item.contentHtml))) + 64;
}

const withoutContent = (item: FeedItem): FeedItem => ({ ...item, contentHtml: '' });

/**
 * The document rendered, its items' full content kept newest first as long as
 * every format stays within `bytes`. Items are never dropped: a document of
 * only titles and summaries over the ceiling is written as it is.
 */
export function withinBytes(feed: Feed, bytes: number): FeedDocument {
  const whole = render(feed);
  if (documentBytes(whole) <= bytes) return whole;
  let room = bytes - documentBytes(render({ ...feed, items: feed.items.map(withoutContent) }));
  const keep = feed.items.map((item) => {
    const cost = item.contentHtml ? contentBytes(item) : 0;
    if (cost > room) return false;
    room -= cost;
    return true;
  });
  const fitted = () => render({ ...feed, items: feed.items.map((item, i) => (keep[i] ? item : withoutContent(item))) });
  let document = fitted();
  // The estimate is an upper bound; should it ever fall short, the oldest kept item loses its content until it fits.
  while (documentBytes(document) > bytes && keep.includes(true)) {
    keep[keep.lastIndexOf(true)] = false;
    document = fitted();
  }
  return document;
}
