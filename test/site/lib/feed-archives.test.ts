/**
 * Bounded feeds with RFC 5005 archives, as pure functions over a generated
 * press room large enough for many archive documents: every item is in exactly
 * one document, the `prev-archive` links (JSON Feed: `next_url`) walk from the
 * subscription document to the oldest archive in every format, documents stay
 * within the byte budget, and an archive that is full never changes when
 * releases are published.
 */
import { describe, expect, it } from 'vitest';
import {
  FEED_BUDGET,
  archiveCount,
  archivePlan,
  feedDocuments,
  type FeedBudget,
  type FeedDocument,
} from '../../../src/lib/feed-archives.ts';
import { FEED_FILES, stableId, type Feed, type FeedFile, type FeedItem, type FeedUrls } from '../../../src/lib/feed-formats.ts';
import { childNamed, childrenNamed, parseXml, textOf, type XmlNode } from '../xml.ts';

const BASE = 'https://press.example.test';
const FH = 'http://purl.org/syndication/history/1.0';

/** Release n of a press room: n grows with the date (n = 0 is the oldest). */
function release(n: number, contentBytes = 400 + (n % 7) * 300): FeedItem {
  const date = new Date(Date.UTC(2020, 0, 1) + n * 3_600_000).toISOString();
  return {
    id: stableId(`test/press_release/${n}`),
    url: `${BASE}/${1000 + n}-release-${n}/`,
    title: `Release ${n} & <co>`,
    summary: `Summary of release ${n}.`,
    contentHtml: `<p>Release ${n}</p><p>${'x'.repeat(contentBytes)}</p>`,
    published: date,
    updated: date,
    language: 'en',
    authors: [{ name: 'Northwind', url: `${BASE}/` }],
    categories: [{ term: 'bikes', label: 'Bikes', url: `${BASE}/tags/bikes/` }],
    image: null,
    attachments: [],
  };
}

const urlsOf = (folder: string): FeedUrls => ({
  rss: `${BASE}${folder}rss.xml`,
  atom: `${BASE}${folder}atom.xml`,
  json: `${BASE}${folder}feed.json`,
});
const archiveUrls = (n: number) => urlsOf(`/feeds/archive/${n}/`);

/** The feed of a press room with releases 0 … count-1 (newest first, as the site lists them). */
function feedOf(count: number, make: (n: number) => FeedItem = release): Feed {
  const items = Array.from({ length: count }, (_, i) => make(count - 1 - i));
  return {
    id: stableId('test/feed/all'),
    title: 'Northwind: all press releases',
    description: 'About Northwind',
    homeUrl: `${BASE}/releases/`,
    urls: urlsOf('/'),
    language: 'en',
    updated: items[0]?.updated ?? '2020-01-01T00:00:00.000Z',
    author: { name: 'Northwind', url: `${BASE}/` },
    categoryScheme: `${BASE}/tags/`,
    generator: 'pressroom-static',
    items,
  };
}

/** Every document of a feed by its URL, in one format. */
function served(documents: { current: FeedDocument; archives: FeedDocument[] }, file: FeedFile): Map<string, string> {
  const format = { 'rss.xml': 'rss', 'atom.xml': 'atom', 'feed.json': 'json' } as const;
  return new Map([documents.current, ...documents.archives].map((d) => [d.feed.urls[format[file]], text(d.bodies[file])]));
}

/** A document as a reader sees it: item ids and the RFC 5005 links. */
interface Read {
  ids: string[];
  withContent: number;
  archive: boolean;
  self?: string | undefined;
  current?: string | undefined;
  prev?: string | undefined;
  next?: string | undefined;
}

function readXml(body: string, file: 'rss.xml' | 'atom.xml'): Read {
  const root = parseXml(body);
  const head = file === 'rss.xml' ? childNamed(root, 'channel')! : root;
  const links = childrenNamed(head, file === 'rss.xml' ? 'atom:link' : 'link');
  const rel = (name: string) => {
    const found = links.filter((l) => l.attrs.rel === name);
    expect(found.length, `${name} links`).toBeLessThanOrEqual(1);
    return found[0]?.attrs.href;
  };
  const archive = head.children.filter((c) => c.local === 'archive' && c.uri === FH);
  const items = childrenNamed(head, file === 'rss.xml' ? 'item' : 'entry');
  const content = (item: XmlNode) => textOf(item, file === 'rss.xml' ? 'content:encoded' : 'content');
  return {
    ids: items.map((item) => (file === 'rss.xml' ? textOf(item, 'guid')! : textOf(item, 'id')!)),
    withContent: items.filter((item) => content(item) !== undefined).length,
    archive: archive.length === 1,
    self: rel('self'),
    current: rel('current'),
    prev: rel('prev-archive'),
    next: rel('next-archive'),
  };
}

function readJson(body: string): Read {
  const feed = JSON.parse(body) as Record<string, any>;
  const history = feed._feed_history as Record<string, any> | undefined;
  // JSON Feed's own paging and the RFC 5005 extension agree.
  expect(feed.next_url).toBe(history?.prev_archive);
  const items = feed.items as Array<Record<string, any>>;
  for (const item of items) expect(typeof (item.content_html ?? item.content_text)).toBe('string');
  return {
    ids: items.map((i) => i.id),
    withContent: items.filter((i) => i.content_html !== undefined).length,
    archive: history?.archive === true,
    self: feed.feed_url,
    current: history?.current,
    prev: feed.next_url,
    next: history?.next_archive,
  };
}

/** A document's file as text (documents hold their files as the UTF-8 bytes the build writes). */
const text = (body: Uint8Array | string): string => (typeof body === 'string' ? body : new TextDecoder().decode(body));
const read = (body: Uint8Array | string, file: FeedFile): Read => (file === 'feed.json' ? readJson(text(body)) : readXml(text(body), file));

/** Walks a feed as an RFC 5005 reader does: the subscription document, then `prev-archive` until there is none. */
function walk(documents: Map<string, string>, start: string, file: FeedFile): Array<Read & { url: string }> {
  const seen: Array<Read & { url: string }> = [];
  for (let url: string | undefined = start; url !== undefined;) {
    expect(
      seen.some((d) => d.url === url),
      `${url} visited twice`,
    ).toBe(false);
    const body = documents.get(url);
    expect(body, `${url} is a document of the feed`).toBeDefined();
    const doc: Read & { url: string } = { ...read(body!, file), url };
    seen.push(doc);
    url = doc.prev;
  }
  return seen;
}

describe('feed archives (RFC 5005)', () => {
  const COUNT = 1234;
  const feed = feedOf(COUNT);
  const documents = feedDocuments(feed, archiveUrls);

  it('cuts a large feed into the newest items and full archives counted from the oldest, the newest archive partial', () => {
    const expectedArchives = Math.floor((COUNT - FEED_BUDGET.currentItems) / FEED_BUDGET.archiveItems) + 1;
    expect(expectedArchives).toBeGreaterThan(20);
    expect(documents.archives).toHaveLength(expectedArchives);
    expect(archiveCount(COUNT)).toBe(expectedArchives);
    expect(documents.current.feed.items.map((i) => i.id)).toEqual(feed.items.slice(0, FEED_BUDGET.currentItems).map((i) => i.id));
    // Archive n holds releases (n-1)·k … n·k-1, counted from the oldest (release 0).
    documents.archives.forEach((archive, i) => {
      const from = i * FEED_BUDGET.archiveItems;
      const to = Math.min(from + FEED_BUDGET.archiveItems, COUNT - FEED_BUDGET.currentItems);
      expect(
        archive.feed.items.map((item) => item.id),
        `archive ${i + 1}`,
      ).toEqual(Array.from({ length: to - from }, (_, j) => release(to - 1 - j).id));
    });
  });

  for (const file of FEED_FILES) {
    it(`${file}: prev-archive links walk from the subscription document to the oldest archive, every item in exactly one document`, () => {
      const docs = served(documents, file);
      const format = file === 'rss.xml' ? 'rss' : file === 'atom.xml' ? 'atom' : 'json';
      const walked = walk(docs, feed.urls[format], file);
      // Every document is reached, and read in order they give the whole feed, newest first, each item once.
      expect(walked.map((d) => d.url).sort()).toEqual([...docs.keys()].sort());
      expect(walked.flatMap((d) => d.ids)).toEqual(feed.items.map((i) => i.id));
      expect(walked.at(-1)!.url).toBe(archiveUrls(1)[format]);

      const [subscription, ...archives] = walked;
      expect(subscription!.archive).toBe(false);
      expect(subscription!.self).toBe(feed.urls[format]);
      expect(subscription!.current).toBeUndefined();
      archives.forEach((doc, i) => {
        const n = archives.length - i;
        expect(doc.url).toBe(archiveUrls(n)[format]);
        expect(doc.self, doc.url).toBe(doc.url);
        expect(doc.archive, `${doc.url}: fh:archive`).toBe(true);
        expect(doc.current, doc.url).toBe(feed.urls[format]);
        // next-archive goes back the way the walk came, except from the newest archive.
        expect(doc.next, doc.url).toBe(n === archives.length ? undefined : archiveUrls(n + 1)[format]);
        expect(doc.withContent, doc.url).toBe(doc.ids.length);
      });
      expect(subscription!.withContent).toBe(subscription!.ids.length);
    });
  }

  it('keeps a feed that fits one document in one document, with no archive links', () => {
    const small = feedDocuments(feedOf(FEED_BUDGET.currentItems), archiveUrls);
    expect(small.archives).toEqual([]);
    for (const file of FEED_FILES) {
      const doc = read(small.current.bodies[file], file);
      expect(doc.ids).toHaveLength(FEED_BUDGET.currentItems);
      expect([doc.archive, doc.prev, doc.next, doc.current]).toEqual([false, undefined, undefined, undefined]);
    }
    expect(text(small.current.bodies['feed.json'])).not.toContain('_feed_history');
    expect(text(small.current.bodies['rss.xml'])).not.toContain(FH);
  });

  it('gives the same bytes for the same items', () => {
    const again = feedDocuments(feedOf(COUNT), archiveUrls);
    expect([again.current, ...again.archives].map((d) => d.bodies)).toEqual(
      [documents.current, ...documents.archives].map((d) => d.bodies),
    );
  });
});

describe('archive stability', () => {
  const bodiesOf = (count: number, budget: FeedBudget) => {
    const docs = feedDocuments(feedOf(count), archiveUrls, budget);
    return { current: docs.current.bodies, archives: docs.archives.map((d) => d.bodies) };
  };

  it('a new release changes only the subscription document and the newest, partial archive', () => {
    const before = bodiesOf(1234, FEED_BUDGET);
    const after = bodiesOf(1235, FEED_BUDGET);
    expect(after.archives).toHaveLength(before.archives.length);
    const last = before.archives.length - 1;
    for (let n = 0; n < last; n++) expect(after.archives[n], `archive ${n + 1}`).toEqual(before.archives[n]);
    expect(after.archives[last]).not.toEqual(before.archives[last]);
    expect(after.current).not.toEqual(before.current);
  });

  it('an archive never changes again once it is full, release after release across archive boundaries', () => {
    const budget: FeedBudget = { currentItems: 10, archiveItems: 7, bytes: 1 << 30 };
    /** Archive number → its bodies, from the build in which it was first full. */
    const frozen = new Map<number, FeedDocument['bodies']>();
    for (let count = 1; count <= 60; count++) {
      const { archives } = bodiesOf(count, budget);
      const plan = archivePlan(feedOf(count).items, budget);
      expect(archives).toHaveLength(archiveCount(count, budget));
      archives.forEach((bodies, i) => {
        const full = plan.archives[i]!.length === budget.archiveItems;
        const seen = frozen.get(i + 1);
        if (seen) expect(bodies, `archive ${i + 1} with ${count} releases`).toEqual(seen);
        else if (full) frozen.set(i + 1, bodies);
      });
      // Only the newest archive is ever not full; right after one fills up, the next one exists (empty).
      plan.archives.slice(0, -1).forEach((items) => expect(items).toHaveLength(budget.archiveItems));
    }
    expect(frozen.size).toBe(7);
  });
});

describe('byte budget', () => {
  const big = (n: number) => release(n, n % 5 === 0 ? 60_000 : 9_000);
  const budget: FeedBudget = { currentItems: 40, archiveItems: 40, bytes: 128 * 1024 };
  const feed = feedOf(200, big);
  const documents = feedDocuments(feed, archiveUrls, budget);

  it('keeps every document within its bytes in every format, and every item in it', () => {
    for (const doc of [documents.current, ...documents.archives]) {
      for (const file of FEED_FILES) {
        expect(doc.bodies[file].byteLength, `${doc.feed.urls.rss} ${file}`).toBeLessThanOrEqual(budget.bytes);
        expect(read(doc.bodies[file], file).ids, `${doc.feed.urls.rss} ${file}`).toEqual(doc.feed.items.map((i) => i.id));
      }
    }
    const walked = walk(served(documents, 'atom.xml'), feed.urls.atom, 'atom.xml');
    expect(walked.flatMap((d) => d.ids)).toEqual(feed.items.map((i) => i.id));
  });

  it('keeps full content newest first: the oldest items of a document lose it, and the same items in every format', () => {
    const original = new Map(feed.items.map((i) => [i.id, i.contentHtml]));
    const current = documents.current.feed.items;
    const kept = current.map((i) => i.contentHtml !== '');
    expect(kept.filter((k) => k).length).toBeGreaterThan(3);
    expect(kept.filter((k) => !k).length).toBeGreaterThan(10);
    for (const [i, item] of current.entries()) if (kept[i]) expect(item.contentHtml).toBe(original.get(item.id));
    // Among items of the same size, those that keep their content are the newest ones.
    const ordinary = current.filter((item) => original.get(item.id)!.length < 20_000).map((item) => item.contentHtml !== '');
    const cut = ordinary.indexOf(false);
    expect(cut).toBeGreaterThan(0);
    expect(ordinary).toEqual(ordinary.map((_, i) => i < cut));
    for (const file of FEED_FILES) expect(read(documents.current.bodies[file], file).withContent, file).toBe(kept.filter(Boolean).length);
  });

  it('writes an item without its content with its summary (JSON Feed: content_text)', () => {
    const json = JSON.parse(text(documents.current.bodies['feed.json'])) as { items: Array<Record<string, string>> };
    const bare = json.items.find((i) => i.content_html === undefined)!;
    expect(bare.content_text).toMatch(/^Summary of release \d+\.$/);
    expect(bare.summary).toBe(bare.content_text);
  });
});
