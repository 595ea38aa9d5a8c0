/**
 * One feed, three formats: RSS 2.0 (with content:encoded, dc: and Media RSS),
 * Atom 1.0 (RFC 4287) and JSON Feed 1.1. Pure functions of a `Feed` (one
 * document of a feed, cut by src/lib/feed-archives.ts from what src/lib/feeds.ts
 * builds from the site data): same feed in, same bytes out; no clock is read
 * anywhere, a document's `updated` is its newest item's date. The RFC 5005
 * links between a feed's documents are `atom:link`s (RSS, in the Atom namespace)
 * or `link`s (Atom) with `fh:archive` on archives; JSON Feed: see jsonFeed11.
 * With a WebSub hub (W3C WebSub), a subscription document names it beside its
 * `self` link (`rel="hub"`; JSON Feed: `hubs`), so readers subscribe and are
 * pushed each change; archives never change and name none.
 *
 * Every text goes through the XML writer (src/lib/xml.ts), which escapes it and
 * drops characters XML cannot carry; HTML content is the sanitized body with
 * absolute URLs (absoluteUrls below), written as escaped text (`type="html"` in
 * Atom, `content:encoded` in RSS). Also here: stable item ids (UUID v5).
 *
 * Why not the `feed` npm package: it writes JSON Feed 1.0 (not 1.1), has no
 * Atom language (`xml:lang`), types Atom enclosures from the file extension
 * (`image/jpg`), cannot declare the Media RSS namespace, and its XML writer
 * (xml-js) escapes only `"` in attributes and only the first `]]>` in CDATA.
 */
import { createHash } from 'node:crypto';
import { parseDocument, DomUtils } from 'htmlparser2';
import { mapSrcset } from './srcset.ts';
import { el, escapeXml, textEl, xmlDocument, type XmlElement } from './xml.ts';

export interface FeedPerson {
  name: string;
  url?: string | undefined;
}

export interface FeedImage {
  /** Absolute URL of a file this site serves (`…/_media/…`). */
  url: string;
  mime: string;
  width: number;
  height: number;
  /** Bytes of the file, when known (RSS `enclosure length`). */
  bytes?: number | undefined;
}

export interface FeedAttachment {
  url: string;
  mime: string;
  bytes: number;
  title?: string | undefined;
}

export interface FeedCategory {
  /** Machine term (the tag's slug). */
  term: string;
  /** Human label (the tag's name). */
  label: string;
  /** Absolute URL of the tag's page. */
  url: string;
}

export interface FeedItem {
  /** Stable, never changes with the title or the site's address (a `urn:uuid:`). */
  id: string;
  /** Absolute canonical URL of the release page. */
  url: string;
  title: string;
  /** Plain text. */
  summary: string;
  /** Sanitized HTML with absolute URLs. */
  contentHtml: string;
  /** ISO 8601 instants. */
  published: string;
  updated: string;
  language: string;
  authors: FeedPerson[];
  categories: FeedCategory[];
  image: FeedImage | null;
  attachments: FeedAttachment[];
}

export interface FeedUrls {
  rss: string;
  atom: string;
  json: string;
}

/**
 * How a document is tied to the rest of its feed (RFC 5005 archived feeds; see
 * src/lib/feed-archives.ts). URLs per format: each document links its own format.
 */
export interface FeedHistory {
  /** An archive document (`fh:archive`): the set of its items does not change. */
  archive: boolean;
  /** The subscription document (on archives). */
  current?: FeedUrls | undefined;
  /** The archive just older than this document. */
  prevArchive?: FeedUrls | undefined;
  /** The archive just newer than this one (on archives but the newest). */
  nextArchive?: FeedUrls | undefined;
}

export interface Feed {
  /** Stable id of the feed (`urn:uuid:`), the same in all its documents. */
  id: string;
  title: string;
  description: string;
  /** The HTML page this feed mirrors (absolute). */
  homeUrl: string;
  /** Absolute URLs of this document in each format. */
  urls: FeedUrls;
  language: string;
  /** The newest item's `updated` (or a fixed date from the data when empty): never the build time. */
  updated: string;
  author: FeedPerson;
  /** Absolute URL of the press room's logo (a file of this site), if any. */
  logo?: FeedImage | null | undefined;
  /** Absolute URL of the scheme for categories (the tags index). */
  categoryScheme: string;
  generator: string;
  /** Newest first. An item whose `contentHtml` is empty is written with its summary only. */
  items: FeedItem[];
  /** Links to the feed's other documents (none: a feed in one document). */
  history?: FeedHistory | undefined;
  /** The WebSub hub (PRESSROOM_WEBSUB_HUB) subscribers are sent to; none: no `rel="hub"`. */
  hub?: string | undefined;
}

/** The hub a document names: only a subscription document, the one that changes. */
const hubOf = (feed: Feed): string | undefined => (feed.history?.archive ? undefined : feed.hub);

/** RFC 5005's namespace (`fh:archive`). */
const FEED_HISTORY_NS = 'http://purl.org/syndication/history/1.0';

/** The RFC 5005 links of a document in one format, in a fixed order. */
function historyLinks(history: FeedHistory | undefined, format: keyof FeedUrls): Array<{ rel: string; href: string }> {
  if (!history) return [];
  const links: Array<[string, FeedUrls | undefined]> = [
    ['current', history.current],
    ['prev-archive', history.prevArchive],
    ['next-archive', history.nextArchive],
  ];
  return links.flatMap(([rel, urls]) => (urls ? [{ rel, href: urls[format] }] : []));
}

const FEED_TYPES = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  json: 'application/feed+json',
} as const;

/** RFC 822 date for RSS (`Sun, 01 Nov 2026 09:00:00 GMT`). */
const rfc822 = (iso: string) => new Date(iso).toUTCString();
/** RFC 3339 for Atom and JSON Feed, always in UTC with milliseconds. */
const rfc3339 = (iso: string) => new Date(iso).toISOString();

function mediaContent(
  url: string,
  mime: string,
  medium: 'image' | 'document',
  extra: Record<string, string | number | undefined> = {},
): XmlElement {
  return el('media:content', { url, type: mime, medium, ...extra });
}

/** The featured image as Media RSS content, with its size. */
function imageMedia(image: FeedImage): XmlElement {
  return mediaContent(image.url, image.mime, 'image', { width: image.width, height: image.height, fileSize: image.bytes });
}

export function rss2(feed: Feed): string {
  const channel = el(
    'channel',
    {},
    textEl('title', feed.title),
    textEl('link', feed.homeUrl),
    textEl('description', escapeXml(feed.description || feed.title)),
    textEl('language', feed.language),
    textEl('lastBuildDate', rfc822(feed.updated)),
    textEl('pubDate', rfc822(feed.updated)),
    textEl('generator', feed.generator),
    textEl('docs', 'https://www.rssboard.org/rss-specification'),
    textEl('dc:publisher', feed.author.name),
    el('atom:link', { href: feed.urls.rss, rel: 'self', type: FEED_TYPES.rss }),
    hubOf(feed) ? el('atom:link', { href: hubOf(feed), rel: 'hub' }) : null,
    el('atom:link', { href: feed.urls.atom, rel: 'alternate', type: FEED_TYPES.atom }),
    el('atom:link', { href: feed.urls.json, rel: 'alternate', type: FEED_TYPES.json }),
    ...historyLinks(feed.history, 'rss').map((l) => el('atom:link', { href: l.href, rel: l.rel, type: FEED_TYPES.rss })),
    feed.history?.archive ? el('fh:archive') : null,
    feed.logo ? el('image', {}, textEl('url', feed.logo.url), textEl('title', feed.title), textEl('link', feed.homeUrl)) : null,
    ...feed.items.map((item) =>
      el(
        'item',
        {},
        textEl('title', item.title),
        textEl('link', item.url),
        textEl('guid', item.id, { isPermaLink: 'false' }),
        textEl('pubDate', rfc822(item.published)),
        // RSS readers take <description> as HTML: the plain-text summary is HTML-escaped first.
        textEl('description', escapeXml(item.summary)),
        textEl('content:encoded', item.contentHtml),
        ...item.authors.map((a) => textEl('dc:creator', a.name)),
        textEl('dc:language', item.language),
        // One date per item: pubDate. A dc:date beside it would be a second, different date (the update),
        // which validators flag and readers take either way; Atom and JSON Feed carry the update.
        ...item.categories.map((c) => textEl('category', c.label, { domain: feed.categoryScheme })),
        // RSS allows one enclosure per item: the featured image; the PDF is a Media RSS document.
        item.image ? el('enclosure', { url: item.image.url, length: item.image.bytes ?? 0, type: item.image.mime }) : null,
        item.image ? imageMedia(item.image) : null,
        ...item.attachments.map((a) => mediaContent(a.url, a.mime, 'document', { fileSize: a.bytes })),
      ),
    ),
  );
  return xmlDocument(
    el(
      'rss',
      {
        version: '2.0',
        'xmlns:atom': 'http://www.w3.org/2005/Atom',
        'xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
        'xmlns:dc': 'http://purl.org/dc/elements/1.1/',
        'xmlns:media': 'http://search.yahoo.com/mrss/',
        'xmlns:fh': feed.history?.archive ? FEED_HISTORY_NS : undefined,
      },
      channel,
    ),
  );
}

export function atom1(feed: Feed): string {
  const person = (p: FeedPerson) => el('author', {}, textEl('name', p.name), textEl('uri', p.url));
  return xmlDocument(
    el(
      'feed',
      {
        xmlns: 'http://www.w3.org/2005/Atom',
        'xmlns:media': 'http://search.yahoo.com/mrss/',
        'xmlns:fh': feed.history?.archive ? FEED_HISTORY_NS : undefined,
        'xml:lang': feed.language,
      },
      textEl('id', feed.id),
      textEl('title', feed.title),
      textEl('subtitle', feed.description),
      textEl('updated', rfc3339(feed.updated)),
      el('link', { rel: 'alternate', type: 'text/html', href: feed.homeUrl }),
      el('link', { rel: 'self', type: FEED_TYPES.atom, href: feed.urls.atom }),
      hubOf(feed) ? el('link', { rel: 'hub', href: hubOf(feed) }) : null,
      el('link', { rel: 'alternate', type: FEED_TYPES.rss, href: feed.urls.rss }),
      el('link', { rel: 'alternate', type: FEED_TYPES.json, href: feed.urls.json }),
      ...historyLinks(feed.history, 'atom').map((l) => el('link', { rel: l.rel, type: FEED_TYPES.atom, href: l.href })),
      feed.history?.archive ? el('fh:archive') : null,
      person(feed.author),
      textEl('generator', feed.generator),
      feed.logo ? textEl('logo', feed.logo.url) : null,
      ...feed.items.map((item) =>
        el(
          'entry',
          { 'xml:lang': item.language },
          textEl('id', item.id),
          textEl('title', item.title, { type: 'text' }),
          el('link', { rel: 'alternate', type: 'text/html', href: item.url }),
          textEl('published', rfc3339(item.published)),
          textEl('updated', rfc3339(item.updated)),
          ...item.authors.map(person),
          ...item.categories.map((c) => el('category', { term: c.term, label: c.label, scheme: feed.categoryScheme })),
          textEl('summary', item.summary, { type: 'text' }),
          // An entry with an alternate link may still carry its content; readers show it.
          textEl('content', item.contentHtml, { type: 'html' }),
          item.image ? el('link', { rel: 'enclosure', type: item.image.mime, length: item.image.bytes, href: item.image.url }) : null,
          ...item.attachments.map((a) => el('link', { rel: 'enclosure', type: a.mime, length: a.bytes, title: a.title, href: a.url })),
          item.image ? imageMedia(item.image) : null,
        ),
      ),
    ),
  );
}

/**
 * JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). JSON Feed has no
 * archives, only `next_url` ("the next n items"): it names the next older
 * document, so a reader that pages walks the same path as `prev-archive`. The
 * RFC 5005 links themselves are in a custom object, `_feed_history` (the spec's
 * way to extend a feed: a leading `_`, an `about` URL, ignored by readers that
 * do not know it): `archive`, `current`, `prev_archive`, `next_archive`.
 */
export function jsonFeed11(feed: Feed): string {
  const person = (p: FeedPerson) => ({ name: p.name, ...(p.url ? { url: p.url } : {}) });
  const history = feed.history;
  const links = Object.fromEntries(historyLinks(history, 'json').map((l) => [l.rel.replace('-', '_'), l.href]));
  const out = {
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: feed.homeUrl,
    feed_url: feed.urls.json,
    ...(hubOf(feed) ? { hubs: [{ type: 'WebSub', url: hubOf(feed) }] } : {}),
    ...(history?.prevArchive ? { next_url: history.prevArchive.json } : {}),
    ...(feed.description ? { description: feed.description } : {}),
    authors: [person(feed.author)],
    language: feed.language,
    ...(history
      ? { _feed_history: { about: 'https://www.rfc-editor.org/rfc/rfc5005#section-4', archive: history.archive, ...links } }
      : {}),
    items: feed.items.map((item) => ({
      id: item.id,
      url: item.url,
      title: item.title,
      // One of the two is required: an item over the document's byte budget keeps its summary.
      ...(item.contentHtml ? { content_html: item.contentHtml } : { content_text: item.summary || item.title }),
      ...(item.summary ? { summary: item.summary } : {}),
      ...(item.image ? { image: item.image.url } : {}),
      date_published: rfc3339(item.published),
      date_modified: rfc3339(item.updated),
      authors: item.authors.map(person),
      ...(item.categories.length > 0 ? { tags: item.categories.map((c) => c.label) } : {}),
      language: item.language,
      ...(item.attachments.length > 0
        ? {
            attachments: item.attachments.map((a) => ({
              url: a.url,
              mime_type: a.mime,
              size_in_bytes: a.bytes,
              ...(a.title ? { title: a.title } : {}),
            })),
          }
        : {}),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

export const FEED_FORMATS = {
  'rss.xml': { type: `${FEED_TYPES.rss}; charset=utf-8`, render: rss2 },
  'atom.xml': { type: `${FEED_TYPES.atom}; charset=utf-8`, render: atom1 },
  'feed.json': { type: `${FEED_TYPES.json}; charset=utf-8`, render: jsonFeed11 },
} as const;

export type FeedFile = keyof typeof FEED_FORMATS;
export const FEED_FILES = Object.keys(FEED_FORMATS) as FeedFile[];

// ---------------------------------------------------------------------------
// Stable ids

/** Namespace of pressroom-static's name-based UUIDs (RFC 9562 version 5). */
const NAMESPACE = Buffer.from('d00a514565544371937d3a7b397dfe5b', 'hex');

/** `urn:uuid:` of a name (UUID v5): the same name always gives the same id. */
export function stableId(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---------------------------------------------------------------------------
// Content

/**
 * Rewrites the site-local `href`, `src` and `srcset` URLs (`/…`) of sanitized HTML
 * to absolute ones on `base`, so they work in a feed reader. Only those attribute
 * values change: no element or attribute is added or removed.
 */
export function absoluteUrls(html: string, base: URL): string {
  if (!html) return '';
  const doc = parseDocument(html);
  const absolute = (url: string) => {
    if (!/^\/(?![/\\])/.test(url)) return url;
    try {
      return new URL(url, base).href;
    } catch {
      return url;
    }
  };
  for (const node of DomUtils.findAll(() => true, doc.children)) {
    for (const attr of ['href', 'src'] as const) {
      const value = node.attribs[attr];
      if (value) node.attribs[attr] = absolute(value.trim());
    }
    const srcset = node.attribs.srcset;
    if (srcset) node.attribs.srcset = mapSrcset(srcset, absolute);
  }
  return DomUtils.getOuterHTML(doc.children, { encodeEntities: 'utf8' });
}
