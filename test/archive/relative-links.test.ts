/** Pages made to open from a folder: root-absolute URLs become relative, folders name their index.html. */
import { describe, expect, it } from 'vitest';
import { relativeLinks, relativeUrl, srcsetCandidates } from '../../offline-archive/relative-links.ts';

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
  it('rewrites href, src, srcset, poster, action and a redirect page\'s refresh, and nothing else', () => {
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

  it('splits a srcset the way browsers do: a comma inside a URL stays, only root-absolute candidates change', () => {
    expect(srcsetCandidates('/_media/a.webp 320w, /_media/b.webp 640w')).toEqual([
      ['/_media/a.webp', ' 320w'],
      ['/_media/b.webp', ' 640w'],
    ]);
    expect(srcsetCandidates('data:image/png;base64,AAAA 1x,/_media/b.webp 2x')).toEqual([
      ['data:image/png;base64,AAAA', ' 1x'],
      ['/_media/b.webp', ' 2x'],
    ]);
    expect(srcsetCandidates('/_media/only.webp')).toEqual([['/_media/only.webp', '']]);
    expect(relativeLinks('<img srcset="data:image/png;base64,AAAA 1x, /_media/b.webp 2x">', 'a/index.html')).toBe('<img srcset="data:image/png;base64,AAAA 1x, ../_media/b.webp 2x">');
  });

  it('rewrites cite and xlink:href too', () => {
    expect(relativeLinks('<blockquote cite="/pages/about-us/"></blockquote><use xlink:href="/_astro/icons.svg#x"/>', 'index.html')).toBe(
      '<blockquote cite="pages/about-us/index.html"></blockquote><use xlink:href="_astro/icons.svg#x"/>',
    );
  });
});
