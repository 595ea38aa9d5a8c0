/**
 * The serializer's root handler (src/lib/markdown-text.ts) makes every value safe against only the
 * "unsafe" patterns whose character it contains, and must write exactly what
 * mdast-util-to-markdown's own handlers write.
 */
import type { Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { toMarkdown, type Unsafe } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import { SERIALIZE_OPTIONS, htmlToBlocks } from '../../../src/lib/markdown.ts';
import { possiblePatterns } from '../../../src/lib/markdown-text.ts';
import { HOSTILE } from '../../helpers/hostile-html.ts';

// The site's serializer, and the same with the library's own handlers.
const filtered = (tree: Nodes) => toMarkdown(tree, SERIALIZE_OPTIONS);
const library = (tree: Nodes) => toMarkdown(tree, { ...SERIALIZE_OPTIONS, handlers: {} });

/** Deterministic texts over every printable ASCII character, spaces, tabs and line breaks. */
function texts(count: number): string[] {
  const alphabet = `${Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('')}\t\n\r   aaaa1é`;
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, () => Array.from({ length: 1 + (next() % 24) }, () => alphabet[next() % alphabet.length]).join(''));
}

/** A text in every place the site's documents put one. */
function documentsWith(value: string): RootContent[][] {
  const t = (): PhrasingContent => ({ type: 'text', value });
  const paragraph = (...children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });
  return [
    [paragraph(t())],
    [paragraph({ type: 'text', value: 'a' }, t(), { type: 'emphasis', children: [t()] })],
    [{ type: 'heading', depth: 2, children: [t()] }],
    [paragraph({ type: 'link', url: 'https://example.com/', title: null, children: [t()] }, t())],
    [paragraph({ type: 'link', url: `https://example.com/${value}`, title: value, children: [t()] })],
    [paragraph({ type: 'link', url: value, title: null, children: [{ type: 'text', value: 'x' }] })],
    [paragraph({ type: 'image', url: `https://example.com/${value}.png`, alt: value, title: null })],
    [paragraph({ type: 'strong', children: [t()] }), paragraph(t(), { type: 'inlineCode', value: 'x' }, t())],
    [{ type: 'list', ordered: false, spread: false, children: [{ type: 'listItem', spread: false, children: [paragraph(t())] }] }],
    [{ type: 'blockquote', children: [paragraph(t())] }],
    [
      {
        type: 'table',
        children: [
          { type: 'tableRow', children: [{ type: 'tableCell', children: [t()] }] },
          { type: 'tableRow', children: [{ type: 'tableCell', children: [t()] }] },
        ],
      },
    ],
  ];
}

describe('rootWithPatternFilter', () => {
  it('writes what the library writes, for values of every ASCII character in every place', () => {
    for (const value of texts(400)) {
      for (const children of documentsWith(value)) {
        const tree: Nodes = { type: 'root', children };
        expect(filtered(tree), JSON.stringify(value)).toBe(library(tree));
      }
    }
  });

  it('writes what the library writes for hostile HTML converted', () => {
    for (const html of [...HOSTILE, HOSTILE.join('\n')]) {
      const tree: Nodes = { type: 'root', children: htmlToBlocks(html, new URL('https://press.example.test')) };
      expect(filtered(tree)).toBe(library(tree));
    }
  });
});

describe('possiblePatterns', () => {
  const hash: Unsafe = { character: '#', atBreak: true };
  const star: Unsafe = { character: '*', inConstruct: 'phrasing' };
  const tab: Unsafe = { character: '\t', after: '[\\r\\n]', inConstruct: 'phrasing' };
  const accent: Unsafe = { character: 'é' };

  it('keeps the patterns whose character the text contains, and those about characters beyond ASCII', () => {
    const patterns = [hash, star, tab, accent];
    expect(possiblePatterns(patterns, 'a # b')).toEqual([hash, accent]);
    expect(possiblePatterns(patterns, 'plain words')).toEqual([accent]);
    expect(possiblePatterns(patterns, '*\t#')).toEqual([hash, star, tab, accent]);
  });

  it('answers for a new list of other patterns, not from the last list', () => {
    expect(possiblePatterns([hash], '#*')).toEqual([hash]);
    expect(possiblePatterns([star], '#*')).toEqual([star]);
  });
});
