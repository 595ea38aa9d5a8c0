/**
 * A small XML writer for the feeds and sitemaps: elements as plain objects,
 * every text and attribute value escaped by one function, characters XML 1.0
 * forbids (control characters, lone surrogates, U+FFFE/U+FFFF) dropped, so
 * whatever the API sends, the file parses. Output is deterministic: attributes
 * in the order given, two-space indentation, `\n` line ends.
 */

/** Characters outside XML 1.0's `Char` production (with /u, lone surrogates match too). */
const INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Every character INVALID can match, and surrogates: checked first without /u, which is many
 * times faster over the long texts of feed items (1.5 s of a 10,000-release build's route generation
 * went to the /u expression over texts that nearly always have nothing to remove).
 */
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The string with every character XML 1.0 cannot carry removed. */
export function xmlChars(value: string): string {
  return SUSPECT.test(value) ? value.replace(INVALID, '') : value;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escaped for XML text and attribute values (double- or single-quoted). */
export function escapeXml(value: string): string {
  return xmlChars(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export type XmlAttributes = Record<string, string | number | null | undefined | false>;
/** A child: an element, text (escaped when written), or nothing (skipped). */
export type XmlChild = XmlElement | string | null | undefined | false;

export interface XmlElement {
  name: string;
  attrs?: XmlAttributes;
  children?: XmlChild[];
}

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/;

/** `el('link', { href }, ...children)`: an element; null/undefined/false attributes and children are left out. */
export function el(name: string, attrs: XmlAttributes = {}, ...children: XmlChild[]): XmlElement {
  return { name, attrs, children };
}

/** An element with one text child, or null when the text is empty (so optional elements vanish). */
export function textEl(name: string, text: string | null | undefined, attrs: XmlAttributes = {}): XmlElement | null {
  return text === null || text === undefined || text === '' ? null : { name, attrs, children: [text] };
}

function attributes(attrs: XmlAttributes | undefined): string {
  let out = '';
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (!NAME.test(key)) throw new Error(`xml: bad attribute name ${JSON.stringify(key)}`);
    out += ` ${key}="${escapeXml(String(value))}"`;
  }
  return out;
}

function write(node: XmlElement, depth: number, out: string[]): void {
  if (!NAME.test(node.name)) throw new Error(`xml: bad element name ${JSON.stringify(node.name)}`);
  const indent = '  '.repeat(depth);
  const open = `${indent}<${node.name}${attributes(node.attrs)}`;
  const children = (node.children ?? []).filter((c): c is XmlElement | string => c !== null && c !== undefined && c !== false);
  if (children.length === 0) {
    out.push(`${open}/>`);
  } else if (children.every((c) => typeof c === 'string')) {
    out.push(`${open}>${children.map((c) => escapeXml(c)).join('')}</${node.name}>`);
  } else {
    out.push(`${open}>`);
    for (const child of children) {
      if (typeof child === 'string') out.push(`${indent}  ${escapeXml(child)}`);
      else write(child, depth + 1, out);
    }
    out.push(`${indent}</${node.name}>`);
  }
}

/** The document: XML declaration, the root element, a final newline. */
export function xmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, 0, out);
  return `${out.join('\n')}\n`;
}
