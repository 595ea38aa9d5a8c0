/**
 * Feeds, the news sitemap and robots.txt as pure functions: hostile text in
 * every field still gives well-formed XML (checked by a strict parser) that
 * reads back as the same text; same input, same bytes; the news window and the
 * robots rules.
 */
import { parseDocument, DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { absoluteUrls, atom1, jsonFeed11, rss2, stableId, type Feed, type FeedItem } from '../../../src/lib/feed-formats.ts';
import {
  newsArticles,
  newsLanguage,
  newsSitemapIndex,
  newsSitemapParts,
  newsUrlset,
  robotsTxt,
  NEWS_WINDOW_MS,
  hasNews,
  type NewsArticle,
} from '../../../src/lib/crawlers.ts';
import { sanitizeArticle } from '../../../src/lib/sanitize.ts';
import { el, escapeXml, xmlChars, xmlDocument } from '../../../src/lib/xml.ts';
import { childNamed, childrenNamed, parseXml, textOf } from '../xml.ts';

const NASTY = 'A ]]> B ]]> <script>alert(1)</script> & &amp; "q" \'s\' \u0001\u0008\u000b\uFFFE\uD800 end 🚲';
/** What XML can carry of NASTY: the forbidden characters dropped, everything else as it was. */
const NASTY_CLEAN = 'A ]]> B ]]> <script>alert(1)</script> & &amp; "q" \'s\'  end 🚲';

describe('xml writer', () => {
  it('drops characters XML 1.0 cannot carry and keeps the rest', () => {
    expect(xmlChars(NASTY)).toBe(NASTY_CLEAN);
    expect(xmlChars('tab\tnl\ncr\r')).toBe('tab\tnl\ncr\r');
    // Each forbidden character alone in a long text (what the quick pre-check must still notice).
    const prose = 'Northwind opens a hub. '.repeat(40);
    for (const bad of ['\u0000', '\u0008', '\u000b', '\u000c', '\u001f', '\uFFFE', '\uFFFF', '\uD800', '\uDFFF']) {
      expect(xmlChars(`${prose}${bad}${prose}`), JSON.stringify(bad)).toBe(`${prose}${prose}`);
    }
    expect(xmlChars(`${prose}🚲é\u00a0${prose}`)).toBe(`${prose}🚲é\u00a0${prose}`);
    expect(escapeXml('<a href="x">&\'')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
  });

  it('writes documents a strict parser reads back unchanged', () => {
    const xml = xmlDocument(el('root', { a: NASTY, skipped: null, off: false }, el('t', {}, NASTY), el('empty'), null, 'tail'));
    const root = parseXml(xml);
    expect(root.attrs.a).toBe(NASTY_CLEAN);
    expect(root.attrs).not.toHaveProperty('skipped');
    expect(textOf(root, 't')).toBe(NASTY_CLEAN);
    expect(childNamed(root, 'empty')?.children).toEqual([]);
  });

  it('refuses names that would break the document', () => {
    expect(() => xmlDocument(el('a b'))).toThrow(/bad element name/);
    expect(() => xmlDocument(el('a', { 'x"y': '1' }))).toThrow(/bad attribute name/);
  });

  it('is checked by a parser that refuses what lenient ones let through', () => {
    expect(() => parseXml('<a>\u0001</a>')).toThrow();
    expect(() => parseXml('<a b="<"/>')).toThrow();
    expect(() => parseXml('<x:a/>')).toThrow();
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow();
  });
});

const SITE = new URL('https://press.example.test');

function item(n: number, extra: Partial<FeedItem> = {}): FeedItem {
  return {
    id: stableId(`test/${n}`),
    url: `https://press.example.test/${n}-release/`,
    title: `Release ${n}`,
    summary: `Summary ${n}`,
    contentHtml: `<p>Body ${n}</p>`,
    published: `2026-10-0${n}T08:00:00.000Z`,
    updated: `2026-10-0${n}T09:00:00.000Z`,
    language: n % 2 ? 'en' : 'nl',
    authors: [{ name: 'Northwind', url: 'https://northwind.example/' }],
    categories: [{ term: 'awards', label: 'Awards', url: 'https://press.example.test/tags/awards/' }],
    image: { url: 'https://press.example.test/_media/abc-1200x675.jpg', mime: 'image/jpeg', width: 1200, height: 675, bytes: 1234 },
    attachments: [],
    ...extra,
  };
}

function feed(items: FeedItem[]): Feed {
  return {
    id: stableId('test/feed'),
    title: 'Northwind: press releases',
    description: 'About Northwind',
    homeUrl: 'https://press.example.test/releases/',
    urls: {
      rss: 'https://press.example.test/rss.xml',
      atom: 'https://press.example.test/atom.xml',
      json: 'https://press.example.test/feed.json',
    },
    language: 'en',
    updated: items[0]?.updated ?? '2026-10-01T00:00:00.000Z',
    author: { name: 'Northwind', url: 'https://northwind.example/' },
    categoryScheme: 'https://press.example.test/tags/',
    generator: 'pressroom-static',
    items,
  };
}

describe('feed formats', () => {
  const hostile = item(1, {
    title: NASTY,
    summary: `<b>${NASTY}</b>`,
    contentHtml: `<p>${escapeXml(NASTY)}</p><p>second ]]> paragraph</p>`,
    categories: [{ term: 'a"b<c', label: NASTY, url: 'https://press.example.test/tags/x/' }],
    attachments: [{ url: 'https://press.example.test/_media/doc.pdf', mime: 'application/pdf', bytes: 99, title: NASTY }],
  });
  const sample = feed([hostile, item(2), item(3, { image: null })]);

  it('RSS 2.0: well-formed, hostile text read back as text, HTML content and summary escaped', () => {
    const rss = parseXml(rss2(sample));
    expect(rss.name).toBe('rss');
    expect(rss.attrs.version).toBe('2.0');
    const channel = childNamed(rss, 'channel')!;
    expect(textOf(channel, 'language')).toBe('en');
    expect(textOf(channel, 'lastBuildDate')).toBe('Thu, 01 Oct 2026 09:00:00 GMT');
    const [first, , third] = childrenNamed(channel, 'item');
    expect(textOf(first!, 'title')).toBe(NASTY_CLEAN);
    expect(childNamed(first!, 'guid')?.attrs.isPermaLink).toBe('false');
    expect(textOf(first!, 'guid')).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The summary is plain text: readers take <description> as HTML, so its markup arrives escaped.
    expect(textOf(first!, 'description')).toBe(escapeXml(`<b>${NASTY_CLEAN}</b>`));
    const content = textOf(first!, 'content:encoded')!;
    expect(DomUtils.textContent(parseDocument(content))).toContain('second ]]> paragraph');
    expect(parseDocument(content).children.some((n) => DomUtils.getElementsByTagName('script', [n]).length > 0)).toBe(false);
    expect(childNamed(first!, 'category')?.text).toBe(NASTY_CLEAN);
    expect(childNamed(first!, 'enclosure')?.attrs).toEqual({ url: hostile.image!.url, length: '1234', type: 'image/jpeg' });
    expect(childrenNamed(first!, 'media:content').map((m) => m.attrs.medium)).toEqual(['image', 'document']);
    expect(childNamed(first!, 'media:content')?.uri).toBe('http://search.yahoo.com/mrss/');
    expect(textOf(first!, 'dc:language')).toBe('en');
    expect(textOf(first!, 'dc:creator')).toBe('Northwind');
    expect(childNamed(third!, 'enclosure')).toBeUndefined();
  });

  it('Atom 1.0: well-formed, languages, categories, enclosures, content as escaped HTML', () => {
    const atom = parseXml(atom1(sample));
    expect(atom.uri).toBe('http://www.w3.org/2005/Atom');
    expect(atom.attrs['xml:lang']).toBe('en');
    expect(textOf(atom, 'updated')).toBe('2026-10-01T09:00:00.000Z');
    expect(childrenNamed(atom, 'link').find((l) => l.attrs.rel === 'self')?.attrs.href).toBe(sample.urls.atom);
    const [first, second] = childrenNamed(atom, 'entry');
    expect(first!.attrs['xml:lang']).toBe('en');
    expect(second!.attrs['xml:lang']).toBe('nl');
    expect(textOf(first!, 'title')).toBe(NASTY_CLEAN);
    expect(childNamed(first!, 'content')?.attrs.type).toBe('html');
    expect(childNamed(first!, 'category')?.attrs).toEqual({
      term: 'a"b<c',
      label: NASTY_CLEAN,
      scheme: 'https://press.example.test/tags/',
    });
    const enclosures = childrenNamed(first!, 'link').filter((l) => l.attrs.rel === 'enclosure');
    expect(enclosures.map((l) => [l.attrs.type, l.attrs.length])).toEqual([
      ['image/jpeg', '1234'],
      ['application/pdf', '99'],
    ]);
    expect(textOf(first!, 'published')).toBe('2026-10-01T08:00:00.000Z');
  });

  it('JSON Feed 1.1: version, authors, language, items with image, tags and attachments', () => {
    const json = JSON.parse(jsonFeed11(sample)) as Record<string, any>;
    expect(json.version).toBe('https://jsonfeed.org/version/1.1');
    expect(json.language).toBe('en');
    expect(json.authors).toEqual([{ name: 'Northwind', url: 'https://northwind.example/' }]);
    expect(json).not.toHaveProperty('author');
    const [first, , third] = json.items as Array<Record<string, any>>;
    expect(first!.title).toBe(NASTY);
    expect(first!.image).toBe(hostile.image!.url);
    expect(first!.tags).toEqual([NASTY]);
    expect(first!.attachments).toEqual([
      { url: 'https://press.example.test/_media/doc.pdf', mime_type: 'application/pdf', size_in_bytes: 99, title: NASTY },
    ]);
    expect(first!.date_published).toBe('2026-10-01T08:00:00.000Z');
    expect(third).not.toHaveProperty('image');
  });

  it('gives the same bytes for the same feed, whatever the clock says', () => {
    const before = [rss2(sample), atom1(sample), jsonFeed11(sample)];
    const realNow = Date.now;
    Date.now = () => 0;
    try {
      expect([rss2(sample), atom1(sample), jsonFeed11(sample)]).toEqual(before);
    } finally {
      Date.now = realNow;
    }
  });

  it('WebSub: a subscription document names its hub beside rel="self" in every format; archives and hubless feeds none', () => {
    const hub = 'https://hub.example.test/';
    const current = { ...sample, hub, history: { archive: false, prevArchive: sample.urls } };
    const rss = childNamed(parseXml(rss2(current)), 'channel')!;
    const rssLinks = childrenNamed(rss, 'atom:link');
    expect(rssLinks.find((l) => l.attrs.rel === 'hub')?.attrs).toEqual({ href: hub, rel: 'hub' });
    expect(rssLinks.find((l) => l.attrs.rel === 'hub')?.uri).toBe('http://www.w3.org/2005/Atom');
    expect(rssLinks.map((l) => l.attrs.rel).slice(0, 2)).toEqual(['self', 'hub']);
    const atomLinks = childrenNamed(parseXml(atom1(current)), 'link');
    expect(atomLinks.filter((l) => l.attrs.rel === 'hub').map((l) => l.attrs.href)).toEqual([hub]);
    expect(atomLinks.findIndex((l) => l.attrs.rel === 'hub')).toBe(atomLinks.findIndex((l) => l.attrs.rel === 'self') + 1);
    expect((JSON.parse(jsonFeed11(current)) as { hubs?: unknown }).hubs).toEqual([{ type: 'WebSub', url: hub }]);

    const archive = { ...current, history: { archive: true, current: sample.urls } };
    const hubless = [sample, archive];
    for (const feed of hubless) {
      expect(childrenNamed(childNamed(parseXml(rss2(feed)), 'channel')!, 'atom:link').some((l) => l.attrs.rel === 'hub')).toBe(false);
      expect(childrenNamed(parseXml(atom1(feed)), 'link').some((l) => l.attrs.rel === 'hub')).toBe(false);
      expect(JSON.parse(jsonFeed11(feed))).not.toHaveProperty('hubs');
    }
    // Without a hub the bytes are those of every earlier build.
    expect(rss2({ ...sample, hub: undefined })).toBe(rss2(sample));
  });

  it('stable ids: a name-based UUID v5, the same for the same name, in the namespace every earlier build used', () => {
    // Computed independently (Python's uuid.uuid5 in namespace d00a5145-6554-4371-937d-3a7b397dfe5b): a changed
    // namespace or algorithm would re-announce every item of every feed to its readers.
    expect(stableId('pressroom/1/press_release/2')).toBe('urn:uuid:7200a8a6-4e3d-5700-91c6-3a459166e585');
    expect(stableId('pressroom/1/press_release/2')).not.toBe(stableId('pressroom/1/press_release/3'));
    expect(stableId('x')).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('feed content', () => {
  it('makes site-local links and images absolute and changes nothing else', () => {
    const html =
      '<p>See <a href="/100-x/">this</a> and <a href="https://other.example/a?b=1&amp;c=2" rel="noopener noreferrer">that</a> &amp; &lt;more&gt;.</p>' +
      '<figure><img src="/_media/a-600x338.jpg" srcset="/_media/a-600x338.jpg 600w, /_media/a-1200x675.jpg 1200w" alt="A" width="600"></figure>';
    const out = absoluteUrls(html, SITE);
    expect(out).toBe(
      '<p>See <a href="https://press.example.test/100-x/">this</a> and <a href="https://other.example/a?b=1&amp;c=2" rel="noopener noreferrer">that</a> &amp; &lt;more&gt;.</p>' +
        '<figure><img src="https://press.example.test/_media/a-600x338.jpg" srcset="https://press.example.test/_media/a-600x338.jpg 600w, https://press.example.test/_media/a-1200x675.jpg 1200w" alt="A" width="600"></figure>',
    );
  });

  it('makes every srcset candidate absolute, split as browsers split it (a comma inside a URL stays)', () => {
    expect(absoluteUrls('<img src="/_media/a.jpg" srcset="/_media/a,1.jpg 1x,/_media/b.jpg 2x, data:image/png;base64,AA 3x">', SITE)).toBe(
      '<img src="https://press.example.test/_media/a.jpg" srcset="https://press.example.test/_media/a,1.jpg 1x, https://press.example.test/_media/b.jpg 2x, data:image/png;base64,AA 3x">',
    );
  });

  it("after the pages' sanitizer, hostile bodies carry no script, handler, frame or javascript: URL into a feed", () => {
    const hostile = [
      '<script>alert(1)</script><p>text</p>',
      '<img src=x onerror=alert(1)>',
      '<p onclick="alert(1)">click</p>',
      '<a href="javascript:alert(1)">js</a><a href="jav&#x09;ascript:alert(1)">js2</a>',
      '<svg onload=alert(1)><script>alert(1)</script></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="/\\evil.example/">slash</a><a href="//evil.example/">proto</a>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      '<p>]]&gt; &lt;/content&gt; <![CDATA[ x ]]></p>',
    ].join('\n');
    const out = absoluteUrls(sanitizeArticle(hostile), SITE);
    const doc = parseDocument(out);
    for (const node of DomUtils.findAll(() => true, doc.children)) {
      expect(['script', 'style', 'iframe', 'svg', 'math', 'object', 'embed', 'img']).not.toContain(node.name);
      for (const [name, value] of Object.entries(node.attribs)) {
        expect(name).not.toMatch(/^on/i);
        expect(value).not.toMatch(/^\s*(javascript|data|vbscript):/i);
        if (name === 'href') expect(value.startsWith('//')).toBe(false);
      }
    }
    // And it still goes into XML safely.
    const rss = parseXml(rss2(feed([item(1, { contentHtml: out })])));
    expect(textOf(childNamed(childNamed(rss, 'channel')!, 'item')!, 'content:encoded')).toBe(out);
  });
});

describe('Google News sitemap', () => {
  const at = (iso: string, n: number, language = 'en'): NewsArticle => ({
    url: `https://press.example.test/${n}-x/`,
    title: `T${n}`,
    published: iso,
    language,
  });

  it('keeps the articles from two days before the build day began, inclusive, newest first', () => {
    const dayStart = Date.parse('2026-10-31T23:00:00.000Z');
    const articles = [
      at(new Date(dayStart - NEWS_WINDOW_MS - 1).toISOString(), 1),
      at(new Date(dayStart - NEWS_WINDOW_MS).toISOString(), 2),
      at('2026-11-01T09:00:00.000Z', 3),
      at('2026-10-31T00:00:00.000Z', 4),
      at('not a date', 5),
    ];
    expect(newsArticles(articles, dayStart).map((a) => a.title)).toEqual(['T3', 'T4', 'T2']);
    // A month later nothing is news any more, whatever the newest article is.
    expect(newsArticles(articles, dayStart + 30 * 24 * 3600 * 1000)).toEqual([]);
    expect(newsArticles([], dayStart)).toEqual([]);
  });

  it("uses Google's language codes", () => {
    expect(newsLanguage('en')).toBe('en');
    expect(newsLanguage('nl-BE')).toBe('nl');
    expect(newsLanguage('zh-TW')).toBe('zh-tw');
    expect(newsLanguage('zh-Hant-HK')).toBe('zh-tw');
    expect(newsLanguage('zh-Hans')).toBe('zh-cn');
  });

  it('writes a well-formed urlset with publication, date and title', () => {
    const xml = parseXml(
      newsUrlset('Northwind & Co <NV>', [at('2026-11-01T08:00:00+01:00', 1, 'nl-BE'), { ...at('2026-11-01T07:00:00Z', 2), title: NASTY }]),
    );
    expect(xml.name).toBe('urlset');
    const urls = childrenNamed(xml, 'url');
    const news = childNamed(urls[0]!, 'news:news')!;
    expect(news.uri).toBe('http://www.google.com/schemas/sitemap-news/0.9');
    const publication = childNamed(news, 'news:publication')!;
    expect(textOf(publication, 'news:name')).toBe('Northwind & Co <NV>');
    expect(textOf(publication, 'news:language')).toBe('nl');
    expect(textOf(news, 'news:publication_date')).toBe('2026-11-01T07:00:00.000Z');
    expect(textOf(childNamed(urls[1]!, 'news:news')!, 'news:title')).toBe(NASTY_CLEAN);
  });

  it('has news only with a dated release inside the window (no news sitemap is written otherwise)', () => {
    const day = Date.parse('2026-11-03T00:00:00Z');
    const release = (release_date: string | null) => ({ href: '/1-a/', title: 'A', release_date, language: 'en' });
    expect(hasNews({ releases: [release('2026-11-01T00:00:00Z')], buildDay: { start: day } })).toBe(true);
    expect(hasNews({ releases: [release('2026-10-31T23:59:59Z'), release(null)], buildDay: { start: day } })).toBe(false);
    expect(hasNews({ releases: [], buildDay: { start: day } })).toBe(false);
  });

  it('splits past 1,000 articles into parts listed by an index', () => {
    const many = Array.from({ length: 2500 }, (_, i) => at('2026-11-01T08:00:00Z', i));
    const parts = newsSitemapParts(many);
    expect(parts.map((p) => p.length)).toEqual([1000, 1000, 500]);
    const index = parseXml(newsSitemapIndex(SITE, parts));
    expect(childrenNamed(index, 'sitemap').map((s) => textOf(s, 'loc'))).toEqual([
      'https://press.example.test/sitemap-news-1.xml',
      'https://press.example.test/sitemap-news-2.xml',
      'https://press.example.test/sitemap-news-3.xml',
    ]);
    expect(newsSitemapParts(many.slice(0, 1000))).toHaveLength(1);
  });
});

describe('robots.txt', () => {
  const sitemaps = ['https://press.example.test/sitemap-index.xml', 'https://press.example.test/sitemap-news.xml'];

  it('allows everything and lists the sitemaps', () => {
    const txt = robotsTxt({ noindex: false, nofollow: false, sitemaps });
    expect(txt).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://press.example.test/sitemap-index.xml\nSitemap: https://press.example.test/sitemap-news.xml\n',
    );
  });

  it('turns noindex into Disallow: / and offers no sitemap', () => {
    const txt = robotsTxt({ noindex: true, nofollow: true, sitemaps });
    expect(txt).toMatch(/^User-agent: \*\nDisallow: \/\n/);
    expect(txt).not.toMatch(/^Sitemap:/m);
    expect(txt).not.toMatch(/^Allow:/m);
  });

  it("keeps crawling allowed under nofollow alone (the pages' robots meta says nofollow)", () => {
    const txt = robotsTxt({ noindex: false, nofollow: true, sitemaps });
    expect(txt).toMatch(/^Allow: \/$/m);
    expect(txt).toMatch(/^Sitemap: /m);
    expect(txt).not.toMatch(/^Disallow/m);
  });
});
