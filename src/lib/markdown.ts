/**
 * Markdown for machine readers (llms.txt, the releases' Markdown twins, llms-full.txt):
 * documents are built as mdast trees and written by mdast-util-to-markdown, whose
 * serializer escapes whatever would otherwise parse as something else, so text from
 * the API (`<script>` written as text, `[x](javascript:…)`, `&lt;`, `# `) stays text
 * and no raw HTML can reach a document.
 *
 *   htmlToBlocks(html, site)   SANITIZED release HTML → mdast blocks (parse5 without source
 *                              positions, hast-util-from-parse5, hast-util-to-mdast); links
 *                              and images made absolute on the site
 *   shiftHeadings(blocks, n)   the same blocks with headings moved down (new nodes only on
 *                              the way to a heading: the input is shared, never changed)
 *   serialize(blocks)          mdast → Markdown (CommonMark, GFM tables)
 *   serializedBlocks(blocks)   blocks serialized once, for the parts every document repeats;
 *                              (serializedText + written: the same in two steps, the text kept
 *                              between builds in src/lib/markdown-cache.ts)
 *   text, paragraph, heading, link, list, …   small builders for the documents' own parts
 *
 * Why not turndown: it leaves `<` in text as it is, so a sanitized body's
 * `&lt;script&gt;` (shown as text on the page) became a live `<script>` in the
 * Markdown, and `<https://…>` an autolink; mdast-util-to-markdown escapes both.
 */
import { fromParse5 } from 'hast-util-from-parse5';
import { toMdast } from 'hast-util-to-mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { parseFragment } from 'parse5';
import type {
  BlockContent,
  Heading,
  Image,
  Link,
  List,
  ListItem,
  Nodes,
  Paragraph,
  Parents,
  PhrasingContent,
  RootContent,
  Text,
} from 'mdast';
import { rootWithPatternFilter } from './markdown-text.ts';

export type Block = RootContent;
export type Inline = PhrasingContent;

/** URL schemes a link may keep; anything else becomes its text. Images must be http(s). */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const IMAGE_PROTOCOLS = new Set(['http:', 'https:']);

/** Text from the API as one line: whitespace collapsed, control characters dropped. */
export function oneLine(value: string | null | undefined): string {
  return (value ?? '')
    .replace(/[\u0000-\u0008\u000E-\u001F\u007F]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `url` resolved against `base` when its scheme is one of `protocols`, else null. */
function allowedUrl(url: string, base: URL, protocols: ReadonlySet<string>): string | null {
  try {
    const resolved = new URL(url.trim(), base);
    return protocols.has(resolved.protocol) ? resolved.href : null;
  } catch {
    return null;
  }
}

/**
 * Cleans a converted tree in place: links and images get absolute, allowed URLs (a link
 * without one is replaced by its text, an image without one is dropped), titles go,
 * and raw HTML nodes go (the converter makes none from sanitized HTML; this is the guarantee).
 */
function clean(node: Nodes, base: URL): void {
  if (!('children' in node)) return;
  const parent = node as Parents;
  const kept: Nodes[] = [];
  for (const child of parent.children as Nodes[]) {
    if (child.type === 'html') continue;
    if (child.type === 'link') {
      const url = allowedUrl(child.url, base, LINK_PROTOCOLS);
      clean(child, base);
      if (url === null) {
        kept.push(...child.children);
        continue;
      }
      child.url = url;
      child.title = null;
    } else if (child.type === 'image') {
      const url = allowedUrl(child.url, base, IMAGE_PROTOCOLS);
      if (url === null) continue;
      child.url = url;
      child.title = null;
      child.alt = oneLine(child.alt);
    } else if (child.type === 'definition' || child.type === 'linkReference' || child.type === 'imageReference') {
      continue;
    } else {
      clean(child, base);
    }
    kept.push(child);
  }
  (parent as { children: Nodes[] }).children = kept;
}

/**
 * Sanitized HTML (a release body, the boilerplate) as mdast blocks: site-relative links and
 * images made absolute on `site`.
 */
export function htmlToBlocks(html: string, site: URL): Block[] {
  if (!html.trim()) return [];
  // Parsed without source positions: the tree is converted, not reported on, and hast-util-to-mdast
  // clones its input (positions made the parse and that clone about three times slower).
  // `document`: text and inline markup outside any block become paragraphs. Left at the top level,
  // one such node made the serializer write the whole document it was placed in as a single line.
  const tree = toMdast(fromParse5(parseFragment(html)), { document: true });
  clean(tree, site);
  return tree.type === 'root' ? tree.children : [];
}

/** Containers a heading can sit in (CommonMark): the only nodes copied on the way to one. */
const FLOW_PARENTS = new Set<Nodes['type']>(['blockquote', 'list', 'listItem']);

/** The blocks with every heading moved down by `offset` (at most level 6), as new nodes; `blocks` stay as they are. */
export function shiftHeadings(blocks: readonly Block[], offset: number): Block[] {
  const shifted = (node: Nodes): Nodes => {
    if (node.type === 'heading') return { ...node, depth: Math.min(6, node.depth + offset) as Heading['depth'] };
    if (!FLOW_PARENTS.has(node.type) || !('children' in node)) return node;
    return { ...node, children: node.children.map(shifted) } as Nodes;
  };
  return offset === 0 ? [...blocks] : blocks.map((block) => shifted(block) as Block);
}

/** Blocks serialized once, written as they are wherever the node is placed (see `serializedBlocks`). */
export interface SerializedBlocks {
  type: 'serializedBlocks';
  value: string;
}

declare module 'mdast' {
  interface RootContentMap {
    serializedBlocks: SerializedBlocks;
  }
}

/**
 * Blocks every document of a kind repeats (a twin's boilerplate and press contacts), serialized
 * once: the serializer writes each top-level block the same whatever surrounds it (after a blank
 * line, from the start of a line), except a list right after a list, which takes the other bullet.
 * So the node goes at the top level, never starting with a list right after one, nor ending with
 * one right before one. No blocks give no node.
 */
export function serializedBlocks(blocks: readonly Block[]): Block[] {
  return blocks.length === 0 ? [] : [{ type: 'serializedBlocks', value: serializedText(blocks) }];
}

/** What a `serializedBlocks` node of `blocks` writes: text to keep (src/lib/markdown-cache.ts). */
export function serializedText(blocks: readonly Block[]): string {
  return serialize(blocks).replace(/\n$/, '');
}

/** A node writing `serializedText`'s text, or none when it is empty (blocks that write nothing add no blank lines either). */
export function written(value: string): Block[] {
  return value === '' ? [] : [{ type: 'serializedBlocks', value }];
}

/** The serializer's options (exported for the tests of its root handler). */
export const SERIALIZE_OPTIONS: ToMarkdownOptions = {
  bullet: '-',
  emphasis: '_',
  strong: '*',
  rule: '-',
  listItemIndent: 'one',
  fences: true,
  resourceLink: true,
  extensions: [gfmTableToMarkdown()],
  handlers: { root: rootWithPatternFilter, serializedBlocks: (node: SerializedBlocks) => node.value },
};

/** Blocks as one Markdown document (LF line ends, one final newline). */
export function serialize(blocks: readonly Block[]): string {
  if (blocks.length === 0) return '';
  return toMarkdown({ type: 'root', children: [...blocks] }, SERIALIZE_OPTIONS);
}

// Builders for the documents' own parts (their text comes from the API: oneLine it first).

export const text = (value: string): Text => ({ type: 'text', value });
export const strong = (...children: Inline[]): Inline => ({ type: 'strong', children });
export const emphasis = (...children: Inline[]): Inline => ({ type: 'emphasis', children });
export const paragraph = (...children: Inline[]): Paragraph => ({ type: 'paragraph', children });
export const heading = (depth: number, ...children: Inline[]): Heading => ({
  type: 'heading',
  depth: Math.min(6, Math.max(1, depth)) as Heading['depth'],
  children,
});
export const link = (url: string, ...children: Inline[]): Link => ({ type: 'link', url, title: null, children });
export const image = (url: string, alt: string): Image => ({ type: 'image', url, alt: oneLine(alt), title: null });
export const blockquote = (...children: BlockContent[]): Block => ({ type: 'blockquote', children });
export const rule = (): Block => ({ type: 'thematicBreak' });
/** A tight bullet list, one paragraph per item. */
export const list = (items: readonly Inline[][]): List => ({
  type: 'list',
  ordered: false,
  spread: false,
  children: items.map((children): ListItem => ({ type: 'listItem', spread: false, children: [paragraph(...children)] })),
});

/** Inline parts joined by a separator text (`a, b, c`). */
export function joined(parts: readonly Inline[][], separator: string): Inline[] {
  return parts.flatMap((part, i) => (i === 0 ? part : [text(separator), ...part]));
}
