/**
 * Where text read out of HTML breaks between words: at the start and end of these elements a
 * space goes in, so `<td>Amsterdam</td><td>Berlin</td>` reads "Amsterdam Berlin", never
 * "AmsterdamBerlin". One list for upstream HTML made text (src/lib/sanitize.ts, htmlToText) and
 * for the built pages the search reads (src/search/documents.ts).
 */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'li',
  'ol',
  'p',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/**
 * The built pages' breaks: the blocks, and `<time>`, which the site's own markup writes flush
 * against a label (`<time>2 oktober 2026</time><span class="badge">nl</span>`). Not in
 * BLOCK_ELEMENTS: in upstream prose a `<time>` runs inside a sentence ("on <time>5 May</time>,")
 * and a space there would put one before the comma.
 */
export const PAGE_TEXT_BREAKS: ReadonlySet<string> = new Set([...BLOCK_ELEMENTS, 'time']);
