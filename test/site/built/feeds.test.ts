/**
 * Feeds, the Google News sitemap, robots.txt and the sitemaps of the built demo
 * site, checked against the API (the build's embedded emulator, clock frozen):
 * every feed document parses strictly; walked from its subscription document
 * along the RFC 5005 `prev-archive` links (JSON Feed: `next_url`), a feed lists
 * every public release of its scope once, newest first, the newest 50 in the
 * subscription document; items carry the full sanitized body, absolute links to
 * pages that exist, images and PDFs that are files of the site, stable ids and
 * the data's own dates.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument, DomUtils } from 'htmlparser2';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { absoluteUrls } from '../../../src/lib/feed-formats.ts';
import { useEmulator } from '../../helpers/emulator.ts';
import { allElements, elements, listFiles, loadPages, meta, resolveInternal, type BuiltPage } from '../helpers.ts';
import { childNamed, childrenNamed, parseXml, textOf, type XmlNode } from '../xml.ts';
import { parseSrcset } from '../../../src/lib/srcset.ts';
import { isSubscriptionFeed } from '../../../notify/urls.ts';

interface ApiTag {
  id: number;
  slug: string;
  name: string;
}
interface ApiRelease {
  id: number;
  title: string;
  permalink: string;
  language: string;
  release_date: string;
  tags: ApiTag[];
  pdf: string | null;
}
interface ApiPressroom {
  name: string;
  language: string;
  noindex?: boolean;
  nofollow?: boolean;
}

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');

let releases: ApiRelease[];
let tags: ApiTag[];
let pressroom: ApiPressroom;
let pages: Map<string, BuiltPage>;

/** A feed in any format, read into one shape. */
interface ReadItem {
  id: string;
  url: string;
  title: string;
  summary: string;
  content: string;
  published: number;
  updated: number;
  language: string | undefined;
  authors: string[];
  categories: string[];
  /** Featured image URL (enclosure / image). */
  image: string | undefined;
  imageLength: number | undefined;
  /** Every other file URL the item names (media:content, enclosures, attachments), with its declared bytes. */
  files: Array<{ url: string; bytes: number | undefined; type: string | undefined }>;
}
interface ReadFeed {
  file: string;
  /** RFC 5005: an archive document (fh:archive), and its links. */
  archive: boolean;
  current: string | undefined;
  prevArchive: string | undefined;
  nextArchive: string | undefined;
  self: string | undefined;
  home: string | undefined;
  language: string | undefined;
  updated: number;
  items: ReadItem[];
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));

const FEED_HISTORY = 'http://purl.org/syndication/history/1.0';

/** The RFC 5005 part of an RSS channel or Atom feed: at most one link of each relation, each in the document's own format. */
function history(head: XmlNode, links: XmlNode[], type: string): Pick<ReadFeed, 'archive' | 'current' | 'prevArchive' | 'nextArchive'> {
  const rel = (name: string) => {
    const found = links.filter((l) => l.attrs.rel === name);
    expect(found.length, name).toBeLessThanOrEqual(1);
    if (found[0]) expect(found[0].attrs.type, name).toBe(type);
    return found[0]?.attrs.href;
  };
  const marks = head.children.filter((c) => c.local === 'archive');
  for (const mark of marks) expect(mark.uri).toBe(FEED_HISTORY);
  return { archive: marks.length > 0, current: rel('current'), prevArchive: rel('prev-archive'), nextArchive: rel('next-archive') };
}

function readRss(file: string, xml: string): ReadFeed {
  const rss = parseXml(xml);
  expect(rss.name, file).toBe('rss');
  expect(rss.attrs.version).toBe('2.0');
  const channel = childNamed(rss, 'channel')!;
  return {
    file,
    ...history(channel, childrenNamed(channel, 'atom:link'), 'application/rss+xml'),
    self: childrenNamed(channel, 'atom:link').find((l) => l.attrs.rel === 'self')?.attrs.href,
    home: textOf(channel, 'link'),
    language: textOf(channel, 'language'),
    updated: Date.parse(textOf(channel, 'lastBuildDate') ?? ''),
    items: childrenNamed(channel, 'item').map((item) => {
      const enclosure = childNamed(item, 'enclosure');
      const guid = childNamed(item, 'guid')!;
      expect(guid.attrs.isPermaLink).toBe('false');
      return {
        id: guid.text,
        url: textOf(item, 'link') ?? '',
        title: textOf(item, 'title') ?? '',
        summary: textOf(item, 'description') ?? '',
        content: textOf(item, 'content:encoded') ?? '',
        published: Date.parse(textOf(item, 'pubDate') ?? ''),
        // One date per item (the W3C validator flags pubDate beside dc:date): the update is in Atom and JSON Feed.
        updated: childNamed(item, 'dc:date') ? Number.NaN : Date.parse(textOf(item, 'pubDate') ?? ''),
        language: textOf(item, 'dc:language'),
        authors: childrenNamed(item, 'dc:creator').map((c) => c.text),
        categories: childrenNamed(item, 'category').map((c) => c.text),
        image: enclosure?.attrs.url,
        imageLength: num(enclosure?.attrs.length),
        files: childrenNamed(item, 'media:content').map((m) => ({ url: m.attrs.url!, bytes: num(m.attrs.fileSize), type: m.attrs.type })),
      };
    }),
  };
}

function readAtom(file: string, xml: string): ReadFeed {
  const feed = parseXml(xml);
  expect(feed.name, file).toBe('feed');
  expect(feed.uri).toBe('http://www.w3.org/2005/Atom');
  const links = (node: XmlNode) => childrenNamed(node, 'link');
  expect(textOf(feed, 'id')).toMatch(/^urn:uuid:/);
  expect(textOf(childNamed(feed, 'author')!, 'name')).toBe(pressroom.name);
  return {
    file,
    ...history(feed, links(feed), 'application/atom+xml'),
    self: links(feed).find((l) => l.attrs.rel === 'self')?.attrs.href,
    home: links(feed).find((l) => l.attrs.rel === 'alternate' && l.attrs.type === 'text/html')?.attrs.href,
    language: feed.attrs['xml:lang'],
    updated: Date.parse(textOf(feed, 'updated') ?? ''),
    items: childrenNamed(feed, 'entry').map((entry) => {
      const enclosures = links(entry).filter((l) => l.attrs.rel === 'enclosure');
      const image = enclosures.find((l) => l.attrs.type?.startsWith('image/'));
      expect(childNamed(entry, 'content')?.attrs.type).toBe('html');
      return {
        id: textOf(entry, 'id') ?? '',
        url: links(entry).find((l) => (l.attrs.rel ?? 'alternate') === 'alternate')?.attrs.href ?? '',
        title: textOf(entry, 'title') ?? '',
        summary: textOf(entry, 'summary') ?? '',
        content: textOf(entry, 'content') ?? '',
        published: Date.parse(textOf(entry, 'published') ?? ''),
        updated: Date.parse(textOf(entry, 'updated') ?? ''),
        language: entry.attrs['xml:lang'],
        authors: childrenNamed(entry, 'author').map((a) => textOf(a, 'name') ?? ''),
        categories: childrenNamed(entry, 'category').map((c) => c.attrs.label ?? c.attrs.term ?? ''),
        image: image?.attrs.href,
        imageLength: num(image?.attrs.length),
        files: [
          ...enclosures.map((l) => ({ url: l.attrs.href!, bytes: num(l.attrs.length), type: l.attrs.type })),
          ...childrenNamed(entry, 'media:content').map((m) => ({ url: m.attrs.url!, bytes: num(m.attrs.fileSize), type: m.attrs.type })),
        ],
      };
    }),
  };
}

function readJson(file: string, text: string): ReadFeed {
  const feed = JSON.parse(text) as Record<string, any>;
  expect(feed.version, file).toBe('https://jsonfeed.org/version/1.1');
  expect(typeof feed.title).toBe('string');
  expect(feed.authors?.[0]?.name).toBe(pressroom.name);
  const items = feed.items as Array<Record<string, any>>;
  const dates = items.map((i) => Date.parse(i.date_modified));
  const fh = feed._feed_history as Record<string, any> | undefined;
  // JSON Feed pages with next_url; the RFC 5005 links are in the _feed_history extension.
  expect(feed.next_url, file).toBe(fh?.prev_archive);
  if (fh) expect(fh.about, file).toBe('https://www.rfc-editor.org/rfc/rfc5005#section-4');
  return {
    file,
    archive: fh?.archive === true,
    current: fh?.current,
    prevArchive: feed.next_url,
    nextArchive: fh?.next_archive,
    self: feed.feed_url,
    home: feed.home_page_url,
    language: feed.language,
    // JSON Feed has no feed-level date: the newest item's stands in.
    updated: dates.length > 0 ? Math.max(...dates) : Number.NaN,
    items: items.map((i) => ({
      id: i.id,
      url: i.url,
      title: i.title,
      summary: i.summary ?? '',
      content: i.content_html ?? '',
      published: Date.parse(i.date_published),
      updated: Date.parse(i.date_modified),
      language: i.language,
      authors: (i.authors ?? []).map((a: { name: string }) => a.name),
      categories: i.tags ?? [],
      image: i.image,
      imageLength: undefined,
      files: (i.attachments ?? []).map((a: { url: string; size_in_bytes: number; mime_type: string }) => ({
        url: a.url,
        bytes: a.size_in_bytes,
        type: a.mime_type,
      })),
    })),
  };
}

interface Scope {
  name: string;
  folder: string;
  language: string;
  releases: ApiRelease[];
  /** Per format, the documents in the order a reader walks them: the subscription document, then prev-archive to the oldest. */
  walks: Map<string, string[]>;
}
/** Items of a subscription document (src/lib/feed-archives.ts FEED_BUDGET). */
const CURRENT_ITEMS = 50;
const FILES = ['rss.xml', 'atom.xml', 'feed.json'] as const;
const scopes: Scope[] = [];
const feeds = new Map<string, ReadFeed>();

const newestFirst = (a: ApiRelease, b: ApiRelease) => Date.parse(b.release_date) - Date.parse(a.release_date) || a.id - b.id;
const urlOf = (r: ApiRelease) => `${siteUrl}${r.permalink}/`;
const sitePath = (url: string) => {
  expect(url.startsWith(`${siteUrl}/`), url).toBe(true);
  return url.slice(siteUrl.length);
};

beforeAll(async () => {
  const api = emulator();
  const get = async <T>(p: string) => (await api.json<{ data: T }>(p)).body.data;
  [releases, tags] = await Promise.all([get<ApiRelease[]>('press_releases?limit=10000&includes=tags'), get<ApiTag[]>('tags?limit=10000')]);
  const room = (await api.json<ApiPressroom & { data?: ApiPressroom }>(api.base)).body;
  pressroom = room.data ?? room;
  releases.sort(newestFirst);
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));

  scopes.push({ name: 'all', folder: '/', language: pressroom.language, releases, walks: new Map() });
  for (const lang of [...new Set(releases.map((r) => r.language))].sort()) {
    scopes.push({
      name: `language ${lang}`,
      folder: `/feeds/${lang}/`,
      language: lang,
      releases: releases.filter((r) => r.language === lang),
      walks: new Map(),
    });
  }
  for (const tag of tags) {
    scopes.push({
      name: `tag ${tag.slug}`,
      folder: `/feeds/tags/${tag.slug}/`,
      language: pressroom.language,
      releases: releases.filter((r) => r.tags.some((t) => t.id === tag.id)),
      walks: new Map(),
    });
  }
  const readers = { 'rss.xml': readRss, 'atom.xml': readAtom, 'feed.json': readJson } as const;
  for (const scope of scopes) {
    for (const file of FILES) {
      const walk: string[] = [];
      for (let rel: string | undefined = `${scope.folder}${file}`; rel !== undefined;) {
        expect(walk, `${rel}: a loop`).not.toContain(rel);
        walk.push(rel);
        const feed: ReadFeed = readers[file](rel, await readFile(path.join(siteDir, rel), 'utf8'));
        feeds.set(rel, feed);
        rel = feed.prevArchive === undefined ? undefined : sitePath(feed.prevArchive);
      }
      scope.walks.set(file, walk);
    }
  }
});

const allItems = () => [...feeds.values()].flatMap((f) => f.items.map((item) => ({ feed: f.file, item })));

describe('feeds', () => {
  it('has RSS, Atom and JSON Feed for all releases, each language and each tag, their archives, and no others', async () => {
    expect(scopes.length).toBeGreaterThan(10);
    const subscriptions = scopes.flatMap((scope) => FILES.map((file) => `${scope.folder}${file}`));
    expect(new Set(subscriptions).size).toBe(scopes.length * 3);
    for (const rel of subscriptions) expect(feeds.has(rel), rel).toBe(true);
    const written = (await listFiles(path.join(siteDir, 'feeds'))).map((f) => `/${path.relative(siteDir, f).split(path.sep).join('/')}`);
    // Every file under /feeds/ is a document reached by walking a feed; nothing else is there.
    expect(written.sort()).toEqual([...feeds.keys()].filter((k) => k.startsWith('/feeds/')).sort());
    // The demo's all-releases feed is larger than one document: its history is in an archive.
    expect(scopes[0]!.releases.length).toBeGreaterThan(CURRENT_ITEMS);
    expect(scopes[0]!.walks.get('rss.xml')).toEqual(['/rss.xml', '/feeds/archive/1/rss.xml']);
  });

  it('are told to a WebSub hub by their subscription documents, never their archives (notify/urls.ts knows the layout)', () => {
    const subscriptions = new Set(scopes.flatMap((scope) => FILES.map((file) => `${scope.folder}${file}`)));
    expect([...feeds.keys()].some((rel) => rel.includes('/archive/'))).toBe(true);
    for (const rel of feeds.keys()) expect(isSubscriptionFeed(rel.slice(1)), rel).toBe(subscriptions.has(rel));
  });

  it('walked along prev-archive, lists every public release of its scope once, newest first, the newest 50 in the subscription document (the same in every format)', () => {
    for (const scope of scopes) {
      if (!scope.name.startsWith('tag ')) expect(scope.releases.length, scope.name).toBeGreaterThan(0);
      for (const file of FILES) {
        const walk = scope.walks.get(file)!.map((rel) => feeds.get(rel)!);
        expect(
          walk.flatMap((feed) => feed.items.map((i) => i.url)),
          `${scope.name} ${file}`,
        ).toEqual(scope.releases.map(urlOf));
        expect(
          walk[0]!.items.map((i) => i.url),
          `${scope.name} ${file}`,
        ).toEqual(scope.releases.slice(0, CURRENT_ITEMS).map(urlOf));
        // The same documents in every format, cut at the same releases.
        expect(
          walk.map((feed) => feed.file.replace(file, '')),
          scope.name,
        ).toEqual(scope.walks.get('rss.xml')!.map((rel) => rel.replace('rss.xml', '')));
      }
    }
    expect(feeds.get('/rss.xml')!.items.length).toBe(CURRENT_ITEMS);
  });

  it('ties the documents together as RFC 5005 archived feeds: current, prev-archive and next-archive, fh:archive on archives', () => {
    let archives = 0;
    for (const scope of scopes) {
      for (const file of FILES) {
        const walk = scope.walks.get(file)!;
        const subscription = feeds.get(walk[0]!)!;
        expect([subscription.archive, subscription.current, subscription.nextArchive], subscription.file).toEqual([
          false,
          undefined,
          undefined,
        ]);
        walk.slice(1).forEach((rel, i) => {
          const feed = feeds.get(rel)!;
          archives++;
          // Archive n (1 = the oldest) of the scope, in the format's own file.
          const n = walk.length - 1 - i;
          const folder = scope.folder === '/' ? '/feeds/' : scope.folder;
          expect(rel).toBe(`${folder}archive/${n}/${file}`);
          expect(feed.archive, rel).toBe(true);
          expect(feed.current, rel).toBe(`${siteUrl}${walk[0]}`);
          expect(feed.nextArchive, rel).toBe(i === 0 ? undefined : `${siteUrl}${walk[i]}`);
          expect(feed.items.length, rel).toBeLessThanOrEqual(50);
        });
      }
    }
    expect(archives).toBeGreaterThan(0);
  });

  it("describes itself: self link, home page, language, and an updated date from the data (the newest item's)", () => {
    for (const feed of feeds.values()) {
      const scope = scopes.find((s) => [...s.walks.values()].some((walk) => walk.includes(feed.file)))!;
      expect(feed.self, feed.file).toBe(`${siteUrl}${feed.file}`);
      expect(resolveInternal(siteDir, sitePath(feed.home ?? '')), `${feed.file} home ${feed.home}`).not.toBeNull();
      expect(feed.language, feed.file).toBe(scope.language);
      // RSS items carry their publication only; the channel's lastBuildDate is still the newest update.
      if (feed.items.length > 0 && feed.file.endsWith('rss.xml'))
        expect(feed.updated, feed.file).toBeGreaterThanOrEqual(Math.max(...feed.items.map((i) => i.published)));
      else if (feed.items.length > 0) expect(feed.updated, feed.file).toBe(Math.max(...feed.items.map((i) => i.updated)));
      else expect(Number.isNaN(feed.updated) || feed.updated <= Date.parse(releases[0]!.release_date), feed.file).toBe(true);
    }
  });

  it('gives each item its title, absolute canonical link to a page in dist, dates, language, author and tags', () => {
    const byUrl = new Map(releases.map((r) => [urlOf(r), r]));
    for (const { feed, item } of allItems()) {
      const release = byUrl.get(item.url)!;
      const where = `${feed} ${item.url}`;
      expect(item.title, where).toBe(release.title);
      const page = resolveInternal(siteDir, sitePath(item.url));
      expect(page, where).not.toBeNull();
      const html = pages.get(sitePath(item.url))!;
      expect(elements(html.doc, 'link').find((l) => l.attribs.rel === 'canonical')?.attribs.href, where).toBe(item.url);
      expect(item.published, where).toBe(Date.parse(release.release_date));
      expect(item.updated >= item.published, where).toBe(true);
      expect(item.language, where).toBe(release.language);
      expect(item.authors, where).toEqual([pressroom.name]);
      expect([...item.categories].sort(), where).toEqual(release.tags.map((t) => t.name).sort());
      expect(item.summary.length, where).toBeGreaterThan(10);
    }
  });

  it('gives each release one stable id (urn:uuid, v5) in every feed and format, unique within a feed', () => {
    const idOf = new Map<string, string>();
    for (const feed of feeds.values()) {
      expect(new Set(feed.items.map((i) => i.id)).size, feed.file).toBe(feed.items.length);
      for (const item of feed.items) {
        expect(item.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        const known = idOf.get(item.url);
        if (known) expect(item.id, `${feed.file} ${item.url}`).toBe(known);
        else idOf.set(item.url, item.id);
      }
    }
    expect(new Set(idOf.values()).size).toBe(releases.length);
  });

  it("carries the full sanitized body: the release page's own body, with absolute URLs", () => {
    for (const { feed, item } of allItems()) {
      const page = pages.get(sitePath(item.url))!;
      const prose = allElements(page.doc).find((e) => e.name === 'div' && (e.attribs.class ?? '').split(/\s+/).includes('prose'));
      expect(prose, `${item.url}: the page's body`).toBeDefined();
      const body = absoluteUrls(DomUtils.getOuterHTML(prose!.children, { encodeEntities: 'utf8' }), new URL(siteUrl));
      expect(item.content.length, `${feed} ${item.url}`).toBeGreaterThan(200);
      expect(item.content, `${feed} ${item.url}`).toBe(body);
    }
  });

  it('has no script, style, frame, handler or javascript: URL in any content, and only absolute URLs', () => {
    const problems: string[] = [];
    for (const { feed, item } of allItems()) {
      for (const el of allElements(parseDocument(item.content))) {
        if (['script', 'style', 'iframe', 'object', 'embed', 'svg', 'math', 'form', 'base', 'link', 'meta'].includes(el.name))
          problems.push(`${feed} ${item.url}: <${el.name}>`);
        for (const [name, value] of Object.entries(el.attribs)) {
          if (/^on/i.test(name)) problems.push(`${feed} ${item.url}: <${el.name} ${name}>`);
          if (/^\s*(javascript|data|vbscript):/i.test(value)) problems.push(`${feed} ${item.url}: ${name}=${value}`);
          if ((name === 'href' || name === 'src') && value.startsWith('/')) problems.push(`${feed} ${item.url}: relative ${name}=${value}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('names images and files that the site serves under /_media/, with their real sizes and types', async () => {
    const mime: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', pdf: 'application/pdf' };
    const checked = new Map<string, number>();
    const size = async (url: string) => {
      const rel = sitePath(url);
      expect(rel.startsWith('/_media/'), url).toBe(true);
      if (!checked.has(rel)) checked.set(rel, (await stat(path.join(siteDir, rel))).size);
      return checked.get(rel)!;
    };
    let withImage = 0;
    let withPdf = 0;
    for (const { feed, item } of allItems()) {
      const where = `${feed} ${item.url}`;
      if (item.image) {
        withImage++;
        const bytes = await size(item.image);
        if (item.imageLength !== undefined) expect(item.imageLength, where).toBe(bytes);
        // The same picture the page gives Open Graph.
        expect(meta(pages.get(sitePath(item.url))!.doc, 'og:image'), where).toBe(item.image);
      }
      for (const f of item.files) {
        const bytes = await size(f.url);
        if (f.bytes !== undefined) expect(f.bytes, `${where} ${f.url}`).toBe(bytes);
        expect(f.type, `${where} ${f.url}`).toBe(mime[f.url.slice(f.url.lastIndexOf('.') + 1)]);
        if (f.type === 'application/pdf') withPdf++;
      }
      for (const img of allElements(parseDocument(item.content)).filter((e) => e.name === 'img')) {
        await size(img.attribs.src!);
        for (const { url } of parseSrcset(img.attribs.srcset ?? '')) await size(url);
      }
    }
    expect(withImage).toBeGreaterThan(allItems().length / 2);
    expect(withPdf).toBeGreaterThan(0);
    // A release's PDF is the file its page offers.
    for (const release of releases.filter((r) => r.pdf)) {
      const item = scopes[0]!.walks
        .get('feed.json')!
        .flatMap((rel) => feeds.get(rel)!.items)
        .find((i) => i.url === urlOf(release))!;
      const pdf = item.files.find((f) => f.type === 'application/pdf');
      expect(pdf, release.permalink).toBeDefined();
      expect(pages.get(`${release.permalink}/`)!.html, release.permalink).toContain(`href="${sitePath(pdf!.url)}"`);
    }
  });

  it('is advertised only with links that lead to the feed itself (FeedLinks, wherever a page has them)', () => {
    const types = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);
    for (const page of pages.values()) {
      for (const link of elements(page.doc, 'link').filter((l) => l.attribs.rel === 'alternate' && types.has(l.attribs.type ?? ''))) {
        const feed = feeds.get(sitePath(link.attribs.href ?? ''));
        expect(feed, `${page.path}: ${link.attribs.href}`).toBeDefined();
        expect(feed!.self).toBe(link.attribs.href);
        expect(link.attribs.title, `${page.path}: ${link.attribs.href}`).toBeTruthy();
      }
    }
  });
});

describe('Google News sitemap', () => {
  it('lists exactly the releases of the two days before the build day began, with publication, language, date and title', async () => {
    const xml = parseXml(await readFile(path.join(siteDir, 'sitemap-news.xml'), 'utf8'));
    expect(xml.name).toBe('urlset');
    expect(xml.uri).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const { dayStart } = JSON.parse(await readFile(path.join(siteDir, '.pressroom-build.json'), 'utf8')) as { dayStart: string };
    const expected = releases.filter((r) => Date.parse(r.release_date) >= Date.parse(dayStart) - 2 * 24 * 3600 * 1000);
    expect(expected.length).toBeGreaterThan(0);
    const urls = childrenNamed(xml, 'url');
    expect(urls.map((u) => textOf(u, 'loc'))).toEqual(expected.map(urlOf));
    for (const [i, url] of urls.entries()) {
      const release = expected[i]!;
      const news = childNamed(url, 'news:news')!;
      expect(news.uri).toBe('http://www.google.com/schemas/sitemap-news/0.9');
      const publication = childNamed(news, 'news:publication')!;
      expect(textOf(publication, 'news:name')).toBe(pressroom.name);
      expect(textOf(publication, 'news:language')).toBe(release.language.split('-')[0]!.toLowerCase());
      expect(Date.parse(textOf(news, 'news:publication_date')!)).toBe(Date.parse(release.release_date));
      expect(textOf(news, 'news:title')).toBe(release.title);
      expect(resolveInternal(siteDir, sitePath(textOf(url, 'loc')!))).not.toBeNull();
    }
  });
});

describe('robots.txt and sitemaps', () => {
  it('robots.txt allows crawling (the demo press room is indexable) and lists both sitemaps with absolute URLs', async () => {
    expect(pressroom.noindex ?? false).toBe(false);
    const robots = await readFile(path.join(siteDir, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).not.toMatch(/^Disallow: \/\s*$/m);
    const sitemaps = [...robots.matchAll(/^Sitemap: (\S+)$/gm)].map((m) => m[1]!);
    expect(sitemaps).toEqual([`${siteUrl}/sitemap-index.xml`, `${siteUrl}/sitemap-news.xml`]);
    for (const url of sitemaps) expect(resolveInternal(siteDir, sitePath(url)), url).not.toBeNull();
  });

  it('sitemap-index.xml and its sitemaps list every HTML page once, except the 404 page', async () => {
    const index = parseXml(await readFile(path.join(siteDir, 'sitemap-index.xml'), 'utf8'));
    expect(index.name).toBe('sitemapindex');
    const listed: string[] = [];
    for (const sitemap of childrenNamed(index, 'sitemap')) {
      const loc = textOf(sitemap, 'loc')!;
      const file = resolveInternal(siteDir, sitePath(loc));
      expect(file, loc).not.toBeNull();
      const urlset = parseXml(await readFile(file!, 'utf8'));
      expect(urlset.name).toBe('urlset');
      listed.push(...childrenNamed(urlset, 'url').map((u) => textOf(u, 'loc')!));
    }
    expect(new Set(listed).size).toBe(listed.length);
    const expected = [...pages.values()]
      .filter((p) => p.path !== '/404.html' && p.redirectTo === undefined)
      .map((p) => `${siteUrl}${p.path}`);
    expect([...listed].sort()).toEqual(expected.sort());
    expect(listed).not.toContain(`${siteUrl}/404/`);
  });
});
