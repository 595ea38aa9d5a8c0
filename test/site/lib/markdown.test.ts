/**
 * The HTML-to-Markdown converter of the AI files (src/lib/markdown.ts) against hostile upstream
 * HTML: read back by a CommonMark parser (commonmark.js, the reference implementation), what it
 * writes holds no raw HTML, links only to http(s), mailto and tel, and images only over http(s);
 * text that merely looks like markup stays text.
 */
import { spawn } from 'node:child_process';
import { HtmlRenderer, Parser, type Node } from 'commonmark';
import { describe, expect, it } from 'vitest';
import { htmlToBlocks, serialize, serializedBlocks, shiftHeadings, type Block } from '../../../src/lib/markdown.ts';
import { sanitizeArticle } from '../../../src/lib/sanitize.ts';
import { HOSTILE } from '../../helpers/hostile-html.ts';
import { SOURCE_CONDITION_FLAG } from '../../../src/config/source-condition.ts';

const SITE = new URL('https://press.example.test');
const toMarkdown = (html: string, offset = 0) => serialize(shiftHeadings(htmlToBlocks(html, SITE), offset));

/** Text that becomes markup once a careless converter decodes it: it must stay text. */
const LOOKS_LIKE_MARKUP = [
  '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
  '<p>&lt;img src=x onerror=alert(1)&gt;</p>',
  '<p>&lt;!-- comment --&gt; and &lt;![CDATA[x]]&gt; and &lt;?php ?&gt;</p>',
  '<p>&lt;https://evil.example/autolink&gt; and &lt;evil@example.com&gt;</p>',
  '<p>[click](javascript:alert(1)) and ![pic](https://evil.example/x.png)</p>',
  '<p>[ref]: javascript:alert(1)</p><p>[ref]</p>',
  '<p>&amp;lt;b&amp;gt; and &amp;#60;i&amp;#62;</p>',
  '<p># not a heading</p><p>- not a list</p><p>1. not a list</p><p>&gt; not a quote</p>',
  '<p>```</p><p>    indented, not code</p>',
  '<p>*not emphasis* _nor this_ `nor code`</p>',
  '<a href="https://example.org/a b(c)&lt;d&gt;&quot;e">odd URL</a>',
  '<img src="/_media/x.png" alt="alt with ] [ &lt;b&gt; and\nnewline">',
  '<table><tr><th>a|b</th></tr><tr><td>&lt;i&gt;x&lt;/i&gt;</td></tr></table>',
];

interface Found {
  html: string[];
  links: string[];
  images: string[];
}

function walk(markdown: string): Found {
  const found: Found = { html: [], links: [], images: [] };
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event; event = walker.next()) {
    const node: Node = event.node;
    if (!event.entering) continue;
    if (node.type === 'html_block' || node.type === 'html_inline') found.html.push(node.literal ?? '');
    if (node.type === 'link') found.links.push(node.destination ?? '');
    if (node.type === 'image') found.images.push(node.destination ?? '');
  }
  return found;
}

function expectSafe(markdown: string) {
  const { html, links, images } = walk(markdown);
  expect(html, markdown).toEqual([]);
  for (const url of links) expect(url, markdown).toMatch(/^(https?:\/\/|mailto:|tel:)/i);
  for (const url of images) expect(url, markdown).toMatch(/^https?:\/\//i);
}

describe('htmlToBlocks + serialize', () => {
  it('writes no raw HTML, and no link but http(s), mailto and tel, for every hostile payload, sanitized first (as the site does)', () => {
    for (const payload of [...HOSTILE, ...LOOKS_LIKE_MARKUP]) {
      const markdown = toMarkdown(
        sanitizeArticle(`<p>Before.</p>${payload}<p>After.</p>`, {
          rewriteInlineImage: (src) => (src.startsWith('/_media/') ? { src } : null),
        }),
      );
      expectSafe(markdown);
      expect(markdown).toContain('Before.');
      expect(markdown).toContain('After.');
    }
  });

  it('writes no raw HTML even from unsanitized hostile HTML (the converter does not rely on the sanitizer for that)', () => {
    for (const payload of [...HOSTILE, ...LOOKS_LIKE_MARKUP]) expectSafe(toMarkdown(payload));
    expectSafe(toMarkdown(HOSTILE.join('\n')));
  });

  it('keeps text that looks like markup as the same visible text', () => {
    const render = (markdown: string) => new HtmlRenderer().render(new Parser().parse(markdown));
    expect(render(toMarkdown('<p>&lt;script&gt;alert(1)&lt;/script&gt; AT&amp;T &amp;lt;</p>'))).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; AT&amp;T &amp;lt;</p>\n',
    );
    expect(render(toMarkdown('<p>[click](javascript:alert(1)) # *x*</p>'))).toBe('<p>[click](javascript:alert(1)) # *x*</p>\n');
  });

  it('keeps links, images with their alt text, lists, quotes and tables; site paths become absolute', () => {
    const markdown = toMarkdown(
      '<h2>Key figures</h2><p>See <a href="/releases/">all releases</a> or <a href="mailto:press@example.com">write</a>.</p>' +
        '<figure><img src="/_media/abc-640x480.jpg" alt="A cargo bike"><figcaption>Photo: Northwind</figcaption></figure>' +
        '<ul><li>one</li><li>two</li></ul><blockquote><p>Quoted.</p></blockquote>' +
        '<table><thead><tr><th>Metric</th><th>2026</th></tr></thead><tbody><tr><td>Cities</td><td>36</td></tr></tbody></table>',
    );
    expect(markdown).toContain('## Key figures');
    expect(markdown).toContain('[all releases](https://press.example.test/releases/)');
    expect(markdown).toContain('[write](mailto:press@example.com)');
    expect(markdown).toContain('![A cargo bike](https://press.example.test/_media/abc-640x480.jpg)');
    expect(markdown).toContain('Photo: Northwind');
    expect(markdown).toMatch(/^- one\n- two$/m);
    expect(markdown).toContain('> Quoted.');
    expect(markdown).toMatch(/^\| Metric +\| 2026 \|$/m);
    expect(markdown).toMatch(/^\| Cities +\| 36 +\|$/m);
  });

  it('moves headings down by the offset, never below level 6', () => {
    expect(toMarkdown('<h2>A</h2><h4>B</h4>', 1)).toBe('### A\n\n##### B\n');
    expect(toMarkdown('<h4>C</h4>', 4)).toBe('###### C\n');
  });

  it('shifts headings on copies: blocks shared by a twin and llms-full.txt stay as they were', () => {
    const blocks = htmlToBlocks('<h2>A</h2><blockquote><h3>B</h3></blockquote><ul><li><h4>C</h4></li></ul>', SITE);
    const before = serialize(blocks);
    expect(serialize(shiftHeadings(blocks, 1))).toBe('### A\n\n> #### B\n\n- ##### C\n');
    expect(serialize(blocks)).toBe(before);
    expect(before).toBe('## A\n\n> ### B\n\n- #### C\n');
  });

  it('makes a body without block markup a paragraph, so the document around it keeps its lines', () => {
    for (const html of ['plain text body', 'one<br>two', '<b>bold</b> and text']) {
      const blocks = htmlToBlocks(html, SITE);
      expect(blocks.map((b) => b.type)).toEqual(['paragraph']);
      const markdown = serialize([
        { type: 'heading', depth: 1, children: [{ type: 'text', value: 'Title' }] },
        ...blocks,
        { type: 'thematicBreak' },
      ]);
      expect(markdown).toMatch(/^# Title\n\n.+\n\n---\n$/s);
    }
  });

  it('gives the same bytes for the same input, in another process too', async () => {
    const html = HOSTILE.join('') + LOOKS_LIKE_MARKUP.join('');
    // A fresh Node process: its own hash seeds, its own object and Map orders; what it writes is what this one does.
    const script = [
      `import { htmlToBlocks, serialize } from ${JSON.stringify(new URL('../../../src/lib/markdown.ts', import.meta.url).href)};`,
      'let input = "";',
      'for await (const chunk of process.stdin) input += chunk;',
      `process.stdout.write(serialize(htmlToBlocks(input, new URL(${JSON.stringify(SITE.href)}))));`,
    ].join('\n');
    const child = spawn(process.execPath, [SOURCE_CONDITION_FLAG, '--input-type=module', '-e', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.end(html);
    let written = '';
    for await (const chunk of child.stdout) written += chunk;
    expect(written.length).toBeGreaterThan(100);
    expect(written).toBe(toMarkdown(html));
  });
});

describe('serializedBlocks', () => {
  const parts = [
    ...HOSTILE.map((html) => htmlToBlocks(html, SITE)),
    htmlToBlocks('<ul><li>one</li><li>two</li></ul>', SITE),
    htmlToBlocks('<p>About</p><ol><li>first</li></ol>', SITE),
    htmlToBlocks('<h2>Press contacts</h2><ul><li><a href="mailto:a@b.example">a_b*c</a> · <a href="tel:+31">+31</a></li></ul>', SITE),
    htmlToBlocks(LOOKS_LIKE_MARKUP.join('<br>'), SITE),
  ].filter((blocks) => blocks.length > 0);
  const endsInText = htmlToBlocks('<ul><li>a list</li></ul><p>Body</p>', SITE);
  const endsInList = htmlToBlocks('<p>Body</p><ul><li>a list</li></ul>', SITE);
  const after: Block[] = [{ type: 'thematicBreak' }, ...htmlToBlocks('<ul><li>Published: 2026</li></ul>', SITE)];
  const same = (before: Block[], blocks: Block[]) =>
    expect(serialize([...before, ...serializedBlocks(blocks), ...after])).toBe(serialize([...before, ...blocks, ...after]));

  it('writes the same document as the blocks it stands for, at the top level and not next to a list', () => {
    for (const blocks of parts) same(endsInText, blocks);
    // After a list too, when it does not start with one (a twin's parts start with their heading).
    const notStartingWithList = parts.filter((b) => b[0]!.type !== 'list');
    expect(notStartingWithList.length).toBeGreaterThan(10);
    for (const blocks of notStartingWithList) same(endsInList, blocks);
  });

  it('is where a list next to a list would take the other bullet: why it must not be placed so', () => {
    const list = htmlToBlocks('<ul><li>one</li></ul>', SITE);
    expect(serialize([...endsInList, ...list])).toContain('* one');
    expect(serialize([...endsInList, ...serializedBlocks(list)])).toContain('- one');
  });

  it('is no node for no blocks', () => {
    expect(serializedBlocks([])).toEqual([]);
  });
});
