/**
 * A strict XML reader for tests: saxes (a conformant, namespace-aware XML 1.0
 * parser) refuses anything not well-formed — bad characters, unescaped `<` or
 * `&`, unbound prefixes — and gives a small tree to query.
 */
import { SaxesParser } from 'saxes';

export interface XmlNode {
  /** Qualified name as written, e.g. `content:encoded`. */
  name: string;
  /** Namespace URI. */
  uri: string;
  /** Local name, e.g. `encoded`. */
  local: string;
  /** Attributes by qualified name. */
  attrs: Record<string, string>;
  children: XmlNode[];
  /** Text and CDATA directly inside this element, concatenated. */
  text: string;
}

/** Parses a whole document strictly; throws with the parser's message (line and column) on any error. */
export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const root: XmlNode = { name: '#document', uri: '', local: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const [name, attr] of Object.entries(tag.attributes)) attrs[name] = attr.value;
    const node: XmlNode = { name: tag.name, uri: tag.uri, local: tag.local, attrs, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.on('cdata', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.write(xml).close();
  if (error) throw error;
  const [doc] = root.children;
  if (!doc || root.children.length !== 1) throw new Error('xml: not exactly one root element');
  return doc;
}

export const childrenNamed = (node: XmlNode, name: string): XmlNode[] => node.children.filter((c) => c.name === name);
export const childNamed = (node: XmlNode, name: string): XmlNode | undefined => node.children.find((c) => c.name === name);
/** The text of the first child called `name`, or undefined. */
export const textOf = (node: XmlNode, name: string): string | undefined => childNamed(node, name)?.text;
