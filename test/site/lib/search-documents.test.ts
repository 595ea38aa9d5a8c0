/** What the search reads out of a built page (src/search/documents.ts): the marked content, its words kept apart. */
import { expect, it } from 'vitest';
import { searchDocument } from '../../../src/search/documents.ts';

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
