/** What the search reads out of a built page (src/search/documents.ts): the marked content, its words kept apart. */
import { expect, it } from 'vitest';
import { indexedPage, searchDocument } from '../../../src/search/documents.ts';

const page = (body: string) =>
  `<html lang="en"><head><title>T</title></head><body><nav>Menu</nav><main data-pagefind-body>${body}</main></body></html>`;

it("keeps the words of neighbouring blocks and the site's dates apart, and leaves out what is marked ignored", () => {
  const document = searchDocument(
    page(
      '<p class="meta"><time datetime="2026-10-02">2 oktober 2026</time><span class="badge">nl</span></p><h3>Title</h3>' +
        '<table><tr><td>Amsterdam</td><td>Berlin</td></tr></table>After<div data-pagefind-ignore>Breadcrumbs</div>',
    ),
    '/releases/x/',
  );
  expect(document?.text).toBe('2 oktober 2026 nl Title Amsterdam Berlin After');
  expect(searchDocument('<html><body><p>Unmarked</p></body></html>', '/x/')).toBeNull();
});

it('digests what Pagefind reads of a page: the marked part, its metadata anywhere, the title and the first image after it, not the rest', () => {
  const full = (head: string, body: string, aside: string, lang = 'en') =>
    `<html lang="${lang}"><head><title>T</title>${head}</head><body><nav>Menu</nav><main><article data-pagefind-body><h1>Title</h1>${body}</article>` +
    `<aside>${aside}</aside></main></body></html>`;
  const input = (html: string) => indexedPage(html, '/releases/x/')!.pagefindInput;
  const meta = '<meta name="pagefind:type" data-pagefind-filter="type[content]" content="release" />';
  // The index's reading of the page is the search document every other reader gets.
  const page = full(meta, '<p>Body</p>', '<img src="a.jpg" alt="A">');
  expect(indexedPage(page, '/releases/x/')!.document).toEqual(searchDocument(page, '/releases/x/'));
  const base = input(full(meta, '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">'));
  expect(input(full(meta, '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">'))).toBe(base);
  // Outside the marked part and its metadata, text is not read.
  expect(input(full(meta, '<p>Body</p>', '<p>Related: New title</p><img src="a.jpg" alt="Old title">'))).toBe(base);
  // Each of these is.
  expect(input(full(meta, '<p>Body changed</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">'))).not.toBe(base);
  expect(
    input(full(meta.replace('release', 'page'), '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">')),
  ).not.toBe(base);
  // The article has no image, so the aside's first one is the result's image...
  expect(input(full(meta, '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="New title">'))).not.toBe(base);
  // ...unless the page names its result image (SearchMeta names none): then no image after the title is read.
  const named = `${meta}<meta name="pagefind:image" data-pagefind-meta="image:" />`;
  const namedBase = input(full(named, '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">'));
  expect(input(full(named, '<p>Body</p>', '<p>Related: Old title</p><img src="b.jpg" alt="New title">'))).toBe(namedBase);
  expect(namedBase).not.toBe(base);
  expect(input(full(meta, '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">', 'nl'))).not.toBe(base);
  expect(
    input(full(meta, '<p>Body</p>', '<p>Related: Old title</p><img src="a.jpg" alt="Old title">').replace('<title>T<', '<title>U<')),
  ).not.toBe(base);
  expect(indexedPage(full(meta, '<p>Body</p>', ''), '/releases/y/')!.pagefindInput).not.toBe(
    indexedPage(full(meta, '<p>Body</p>', ''), '/releases/x/')!.pagefindInput,
  );
});

it('reads a page as marked whatever the case of its mark, and a page that names the mark only in its text as unmarked', () => {
  const upper = page('<p>Body</p>').replace('data-pagefind-body', 'DATA-PAGEFIND-BODY');
  expect(indexedPage(upper, '/releases/x/')?.document.text).toBe('Body');
  expect(searchDocument(upper, '/releases/x/')?.text).toBe('Body');
  const named = '<html><body><p>Mark content with data-pagefind-body.</p></body></html>';
  expect(indexedPage(named, '/x/')).toBeNull();
  expect(searchDocument(named, '/x/')).toBeNull();
});

it("titles a page by the first h1 inside its marked content, else the page's first h1, else its <title>", () => {
  const html = (header: string, body: string) =>
    `<html lang="en"><head><title>Tab</title></head><body><header>${header}</header><main data-pagefind-body>${body}</main></body></html>`;
  expect(indexedPage(html('<h1>Site</h1>', '<p>x</p><h1>Release</h1>'), '/r/')?.document.title).toBe('Release');
  expect(searchDocument(html('<h1>Site</h1>', '<p>x</p><h1>Release</h1>'), '/r/')?.title).toBe('Release');
  expect(indexedPage(html('<h1>Site</h1>', '<p>x</p>'), '/r/')?.document.title).toBe('Site');
  expect(indexedPage(html('', '<p>x</p>'), '/r/')?.document.title).toBe('Tab');
});
