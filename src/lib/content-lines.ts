/**
 * Content lines as iCalendar (RFC 5545 §3.1, §3.3.11) and vCard (RFC 6350 §3.2,
 * §3.4; RFC 2426 for 3.0) write them: TEXT values escaped, lines ended with
 * CRLF and folded so no physical line is longer than 75 octets of UTF-8, never
 * inside a character.
 */

const MAX_OCTETS = 75;
const encoder = new TextEncoder();

/** Control characters other than tab and line feed never belong in a value. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** A TEXT value: `\` `;` `,` escaped, line breaks as `\n`, control characters dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\n/g, '\\n');
}

/** One logical line folded at 75 octets: continuation lines start with one space. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= MAX_OCTETS) return line;
  // ASCII (a vCard's base64 PHOTO, most lines): every character one octet, cut by length.
  if (ASCII.test(line)) return foldAscii(line);
  const parts: string[] = [];
  let start = 0;
  let octets = 0;
  let limit = MAX_OCTETS;
  for (let i = 0; i < line.length;) {
    const codePoint = line.codePointAt(i)!;
    const units = codePoint > 0xffff ? 2 : 1;
    const size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    if (octets + size > limit) {
      parts.push(line.slice(start, i));
      start = i;
      octets = 0;
      limit = MAX_OCTETS - 1; // the leading space counts
    }
    octets += size;
    i += units;
  }
  parts.push(line.slice(start));
  return parts.join('\r\n ');
}

const ASCII = /^[\x00-\x7f]*$/;

function foldAscii(line: string): string {
  const parts = [line.slice(0, MAX_OCTETS)];
  for (let i = MAX_OCTETS; i < line.length; i += MAX_OCTETS - 1) parts.push(line.slice(i, i + MAX_OCTETS - 1));
  return parts.join('\r\n ');
}

/** Logical lines of a content-line document (folding undone). */
export function unfold(text: string): string[] {
  return text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter((line) => line !== '');
}

/** A whole document: every line folded at 75 octets and ended with CRLF. */
export function joinLines(lines: Iterable<string>): string {
  let out = '';
  for (const line of lines) out += `${foldLine(line)}\r\n`;
  return out;
}
