/** Pages made to open from a folder: root-absolute URLs become relative, folders name their index.html. */
import { describe, expect, it } from 'vitest';
import { relativeLinks, relativeUrl } from '../../offline-archive/relative-links.ts';

describe('relativeUrl', () => {
  it.each([
    ['/', 'index.html', 'index.html'],
    ['/', '404.html', 'index.html'],
    ['/releases/', 'index.html', 'releases/index.html'],
    ['/releases/', 'releases/2/index.html', '../index.html'],
    ['/releases/2/', 'releases/index.html', '2/index.html'],
    ['/_astro/site.css', 'tags/energy/index.html', '../../_astro/site.css'],
    ['/media/images/2/#image-91001', 'images/91001/index.html', '../../media/images/2/index.html#image-91001'],
    ['/search/?q=bike', 'index.html', 'search/index.html?q=bike'],
    ['/events/700005-webinar.ics', 'events/index.html', '700005-webinar.ics'],
  ])('%s seen from %s is %s', (url, page, expected) => {
    expect(relativeUrl(url, page)).toBe(expected);
  });

  it('leaves absolute, protocol-relative, fragment and mailto URLs alone', () => {
    for (const url of ['https://example.org/x/', '//cdn.example/x.js', '#main', 'mailto:press@example.org', 'tel:+3120']) {
      expect(relativeUrl(url, 'a/b/index.html')).toBe(url);
    }
  });
});

describe('relativeLinks', () => {
  it("rewrites href, src, srcset, poster, action and a redirect page's refresh, and nothing else", () => {
    const page = 'media_kits/1-x/index.html';
    const html = [
      '<link rel="canonical" href="https://press.example/media-kits/1-x/">',
      '<meta http-equiv="refresh" content="0; url=/media-kits/1-x/">',
      '<a href="/media-kits/1-x/">kit</a>',
      '<img src="/_media/a.jpg" srcset="/_media/a.webp 320w, /_media/b.webp 640w" alt="/not-a-url/">',
      '<video poster="/_media/p.jpg"></video><form action="/search/"></form>',
      '<p>Text with /a/path/ in it and href=&quot;/x/&quot; as Astro escapes it</p>',
    ].join('');
    expect(relativeLinks(html, page)).toBe(
      [
        '<link rel="canonical" href="https://press.example/media-kits/1-x/">',
        '<meta http-equiv="refresh" content="0; url=../../media-kits/1-x/index.html">',
        '<a href="../../media-kits/1-x/index.html">kit</a>',
        '<img src="../../_media/a.jpg" srcset="../../_media/a.webp 320w, ../../_media/b.webp 640w" alt="/not-a-url/">',
        '<video poster="../../_media/p.jpg"></video><form action="../../search/index.html"></form>',
        '<p>Text with /a/path/ in it and href=&quot;/x/&quot; as Astro escapes it</p>',
      ].join(''),
    );
  });
});

describe('links the site writes without a trailing slash, and srcsets that are not plain lists', () => {
  const folders = new Set(['100314-northwind-raises', 'releases', 'pages/about-us']);
  const isFolder = (p: string) => folders.has(p);

  it('names the index.html of a folder linked without its slash (upstream HTML links releases so), keeping query and fragment', () => {
    expect(relativeUrl('/100314-northwind-raises', 'tags/x/index.html', isFolder)).toBe('../../100314-northwind-raises/index.html');
    expect(relativeUrl('/releases?page=2', 'index.html', isFolder)).toBe('releases/index.html?page=2');
    expect(relativeUrl('/pages/about-us#team', 'pages/about-us/index.html', isFolder)).toBe('index.html#team');
    expect(relativeUrl('/rss.xml', 'index.html', isFolder)).toBe('rss.xml');
  });

  it('rewrites a srcset the way browsers split it: a comma inside a URL stays, only candidates inside the site change', () => {
    expect(relativeLinks('<img srcset="data:image/png;base64,AAAA 1x, /_media/b.webp 2x">', 'a/index.html')).toBe(
      '<img srcset="data:image/png;base64,AAAA 1x, ../_media/b.webp 2x">',
    );
    expect(relativeLinks('<img srcset="/_media/a,b.webp 1x,/_media/c.webp 2x">', 'a/index.html')).toBe(
      '<img srcset="../_media/a,b.webp 1x, ../_media/c.webp 2x">',
    );
    // No candidate inside the site: the attribute is left exactly as written.
    expect(relativeLinks('<img srcset="https://cdn.example/a.webp   1x,https://cdn.example/b.webp 2x">', 'a/index.html')).toBe(
      '<img srcset="https://cdn.example/a.webp   1x,https://cdn.example/b.webp 2x">',
    );
  });

  it('rewrites cite and xlink:href too', () => {
    expect(relativeLinks('<blockquote cite="/pages/about-us/"></blockquote><use xlink:href="/_astro/icons.svg#x"/>', 'index.html')).toBe(
      '<blockquote cite="pages/about-us/index.html"></blockquote><use xlink:href="_astro/icons.svg#x"/>',
    );
  });
});

describe('attributes in every quoting style, and what only looks like one', () => {
  const page = 'tags/x/index.html';

  it.each([
    ['double quotes', '<a href="/releases/">r</a>', '<a href="../../releases/index.html">r</a>'],
    ['single quotes', "<a href='/releases/'>r</a>", "<a href='../../releases/index.html'>r</a>"],
    ['no quotes', '<a href=/releases/>r</a>', '<a href="../../releases/index.html">r</a>'],
    ['spaces around =, upper case name', '<a HREF = "/releases/">r</a>', '<a HREF = "../../releases/index.html">r</a>'],
    ['white space inside the value', '<a href=" /releases/\n">r</a>', '<a href="../../releases/index.html">r</a>'],
    ['an entity in the value', '<a href="/search/?q=a&amp;t=b">s</a>', '<a href="../../search/index.html?q=a&amp;t=b">s</a>'],
    ['a single-quoted value holding a quote', "<a href='/it&#39;s/'>q</a>", "<a href='../../it&#39;s/index.html'>q</a>"],
    [
      'a single-quoted srcset',
      "<img src='/_media/a.jpg' srcset='/_media/a.webp 320w, /_media/b.webp 640w'>",
      "<img src='../../_media/a.jpg' srcset='../../_media/a.webp 320w, ../../_media/b.webp 640w'>",
    ],
    ['an unquoted srcset', '<img srcset=/_media/a.webp>', '<img srcset="../../_media/a.webp">'],
    ['an unquoted src before />', '<img src=/_media/a.jpg alt=x />', '<img src="../../_media/a.jpg" alt=x />'],
    [
      'an svg <use> with xlink:href',
      "<svg><use xlink:href='/_astro/i.svg#x'/></svg>",
      "<svg><use xlink:href='../../_astro/i.svg#x'/></svg>",
    ],
    [
      'a single-quoted refresh, attributes in any order',
      "<meta content='0;URL=/media-kits/' http-equiv=Refresh>",
      "<meta content='0;URL=../../media-kits/index.html' http-equiv=Refresh>",
    ],
    [
      'a refresh URL in quotes of its own',
      '<meta http-equiv="refresh" content="0; url=\'/x/\'">',
      '<meta http-equiv="refresh" content="0; url=\'../../x/index.html\'">',
    ],
    [
      'a relative link',
      '<a href="../../releases/">r</a><a href="sub/">s</a>',
      '<a href="../../releases/index.html">r</a><a href="sub/index.html">s</a>',
    ],
  ])('%s', (_label, html, expected) => {
    expect(relativeLinks(html, page)).toBe(expected);
  });

  it('leaves text, comments, scripts, styles and JSON-LD alone, and URLs that leave the site', () => {
    const html = [
      '<!-- <a href="/x/"> -->',
      '<script>const a = \'<a href="/x/">\' + "<img src=/y.png>";</script>',
      '<script type="application/ld+json">{"url":"/x/","html":"<a href=\\"/x/\\">"}</script>',
      '<style>a[href="/x/"] { background: red }</style>',
      '<textarea><a href="/x/"></textarea><title>href="/x/"</title>',
      "<p>Text with href=/x/ and src='/y/' in it</p>",
      '<a href="//cdn.example/x">proto</a><a href="/\\evil.example/">backslash</a><a href="/\t/evil.example/">tab</a>',
      '<a href="https://press.example/x/">abs</a><a href="mailto:a@b.example">m</a><a href="#main">frag</a><a href="?q=1">query</a><a href="">self</a>',
      '<meta content="/x/" name="description"><meta http-equiv="refresh" content="30">',
    ].join('');
    expect(relativeLinks(html, page)).toBe(html);
  });

  it('a <base> inside the site: relative URLs resolve against it, every URL is made relative to the page, and the base href goes', () => {
    const html =
      '<head><base target="_blank" href=\'/releases/\'></head>' +
      '<a href="2/">page 2</a><a href="#top">top</a><a href="/tags/">tags</a><a href="../media/">media</a>' +
      '<img src="x.jpg" srcset="a.webp 1x, /_media/b.webp 2x">';
    expect(relativeLinks(html, page)).toBe(
      '<head><base target="_blank"></head>' +
        '<a href="../../releases/2/index.html">page 2</a><a href="../../releases/index.html#top">top</a><a href="../index.html">tags</a><a href="../../media/index.html">media</a>' +
        '<img src="../../releases/x.jpg" srcset="../../releases/a.webp 1x, ../../_media/b.webp 2x">',
    );
    // Only the first base with an href counts (as in a browser); a relative one resolves against the page.
    expect(relativeLinks('<base href="../../"><base href="/ignored/"><a href="releases/">r</a>', page)).toBe(
      '<base><base href="/ignored/"><a href="../../releases/index.html">r</a>',
    );
  });

  it('a <base> on another site: every URL already points there, nothing changes', () => {
    const html = '<base href="https://press.example/"><a href="/releases/">r</a><a href="2/">2</a>';
    expect(relativeLinks(html, page)).toBe(html);
  });
});

describe('relativeLinks for a site under a base path', () => {
  const base = '/press/';

  it("makes the base-prefixed URLs relative to the page's place in the built folder, and leaves the rest of the host alone", () => {
    const html = [
      '<link rel="icon" href="/press/favicon.svg">',
      '<meta http-equiv="refresh" content="0; url=/press/media-kits/1-x/">',
      '<a href="/press/">home</a><a href="/press">bare</a><a href="/press/releases/?q=a#r">r</a>',
      '<img src="/press/_media/a.jpg" srcset="/press/_media/a.webp 320w, /press/_media/b.webp 640w">',
      '<a href="/other/">other site on the host</a><a href="/pressroom/">not the base</a><a href="https://press.example/press/x/">abs</a>',
      '<a href="2/">relative</a><a href="../">up</a>',
    ].join('');
    expect(relativeLinks(html, 'media_kits/1-x/index.html', () => false, base)).toBe(
      [
        '<link rel="icon" href="../../favicon.svg">',
        '<meta http-equiv="refresh" content="0; url=../../media-kits/1-x/index.html">',
        '<a href="../../index.html">home</a><a href="../../index.html">bare</a><a href="../../releases/index.html?q=a#r">r</a>',
        '<img src="../../_media/a.jpg" srcset="../../_media/a.webp 320w, ../../_media/b.webp 640w">',
        '<a href="/other/">other site on the host</a><a href="/pressroom/">not the base</a><a href="https://press.example/press/x/">abs</a>',
        '<a href="2/index.html">relative</a><a href="../index.html">up</a>',
      ].join(''),
    );
  });

  it("resolves relative URLs from the page's served address: `../` above the base leaves the site", () => {
    expect(relativeLinks('<a href="../x/">out</a><a href="./">self</a>', 'index.html', () => false, base)).toBe(
      '<a href="../x/">out</a><a href="index.html">self</a>',
    );
  });
});
