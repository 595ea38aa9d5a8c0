/**
 * Markdown for machine readers (llms.txt, the releases' Markdown twins, llms-full.txt):
 * documents are built as mdast trees and written by mdast-util-to-markdown, whose
 * serializer escapes whatever would otherwise parse as something else, so text from
 * the API (`<script>` written as text, `[x](javascript:…)`, `&lt;`, `# `) stays text
 * and no raw HTML can reach a document.
 *
 *   htmlToBlocks(html, site)   SANITIZED release HTML → mdast blocks (hast-util-from-html,
 *                              hast-util-to-mdast); links and images made absolute on the site
 *   serialize(blocks)          mdast → Markdown (CommonMark, GFM tables)
 *   text, paragraph, heading, link, list, …   small builders for the documents' own parts
 *
 * Why not turndown: it leaves `<` in text as it is, so a sanitized body's
 * `&lt;script&gt;` (shown as text on the page) became a live `<script>` in the
 * Markdown, and `<https://…>` an autolink; mdast-util-to-markdown escapes both.
 */
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
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
 * raw HTML nodes go (the converter makes none from sanitized HTML; this is the guarantee),
 * and headings move down by `headingOffset` (at most level 6).
 */
function clean(node: Nodes, base: URL, headingOffset: number): void {
  if (node.type === 'heading') node.depth = Math.min(6, node.depth + headingOffset) as Heading['depth'];
  if (!('children' in node)) return;
  const parent = node as Parents;
  const kept: Nodes[] = [];
  for (const child of parent.children as Nodes[]) {
    if (child.type === 'html') continue;
    if (child.type === 'link') {
      const url = allowedUrl(child.url, base, LINK_PROTOCOLS);
      clean(child, base, headingOffset);
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
      clean(child, base, headingOffset);
    }
    kept.push(child);
  }
  (parent as { children: Nodes[] }).children = kept;
}

/**
 * Sanitized HTML (a release body, the boilerplate) as mdast blocks: site-relative links and
 * images made absolute on `site`, headings moved down by `headingOffset`.
 */
export function htmlToBlocks(html: string, site: URL, headingOffset = 0): Block[] {
  if (!html.trim()) return [];
  const tree = toMdast(fromHtml(html, { fragment: true }));
  clean(tree, site, headingOffset);
  return tree.type === 'root' ? tree.children : [];
}

const OPTIONS: ToMarkdownOptions = {
  bullet: '-',
  emphasis: '_',
  strong: '*',
  rule: '-',
  listItemIndent: 'one',
  fences: true,
  resourceLink: true,
  extensions: [gfmTableToMarkdown()],
};

/** Blocks as one Markdown document (LF line ends, one final newline). */
export function serialize(blocks: readonly Block[]): string {
  if (blocks.length === 0) return '';
  return toMarkdown({ type: 'root', children: [...blocks] }, OPTIONS);
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
