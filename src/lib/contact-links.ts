/**
 * The press room's free-text contact block (`contact_info`: "Press office\nT +31 20 794 1100\nE
 * press@…") as text with its phone numbers and e-mail addresses made tappable (`tel:`, `mailto:`),
 * for the footer (and a team's own Footer, docs/branding.md). A number counts as a phone when it is
 * written internationally (`+31 …`) or its line is labelled as one ("T", "Tel.", "Phone", "Mobiel"…),
 * so postcodes, dates and registration numbers stay text.
 */
import { mailtoHref, telHref } from './format.ts';

/** A piece of the text, linked when it is a phone number or an e-mail address. */
export interface ContactPart {
  text: string;
  href?: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** A phone number as people write it: digits with spaces, dots, dashes, slashes or brackets, an optional leading `+`. */
const PHONE = /\+?\(?\d[\d\s()./-]{5,}\d/g;
/** A line label for a phone number. */
const PHONE_LABEL = /^\s*(?:t|tel|phone|telephone|telefoon|telefon|téléphone|tél|m|mob|mobile|mobiel|handy|gsm|cell|portable)\b/i;

interface Found {
  start: number;
  end: number;
  href: string;
}

function linksIn(line: string): Found[] {
  const found: Found[] = [];
  for (const match of line.matchAll(EMAIL)) {
    const href = mailtoHref(match[0]);
    if (href) found.push({ start: match.index, end: match.index + match[0].length, href });
  }
  const labelled = PHONE_LABEL.test(line);
  for (const match of line.matchAll(PHONE)) {
    const written = match[0].trim();
    const start = match.index + match[0].indexOf(written);
    const href = (labelled || written.startsWith('+')) && telHref(written);
    if (href && !found.some((f) => start < f.end && f.start < start + written.length))
      found.push({ start, end: start + written.length, href });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The text in parts, line breaks kept in the text parts (the block is shown with `white-space: pre-line`). */
export function contactParts(text: string): ContactPart[] {
  const parts: ContactPart[] = [];
  const push = (part: ContactPart) => {
    const last = parts.at(-1);
    if (!part.href && last && !last.href) last.text += part.text;
    else if (part.text) parts.push(part);
  };
  const lines = text.trim().split(/\r?\n/);
  lines.forEach((line, index) => {
    let at = 0;
    for (const link of linksIn(line)) {
      push({ text: line.slice(at, link.start) });
      push({ text: line.slice(link.start, link.end), href: link.href });
      at = link.end;
    }
    push({ text: line.slice(at) + (index < lines.length - 1 ? '\n' : '') });
  });
  return parts;
}
