/**
 * Reading `.ics` and `.vcf` files in tests: parsed with ical.js (Mozilla's
 * RFC 5545 / RFC 6350 parser, independent of the writers under test), plus the
 * line rules it is lenient about: CRLF endings and 75-octet folding.
 */
import ICAL from 'ical.js';

const encoder = new TextEncoder();

/** Physical lines that break RFC 5545 §3.1 / RFC 6350 §3.2: not CRLF-ended, or longer than 75 octets. */
export function lineProblems(text: string): string[] {
  const problems: string[] = [];
  if (!text.endsWith('\r\n')) problems.push('does not end with CRLF');
  if (/[^\r]\n/.test(text) || /\r(?!\n)/.test(text)) problems.push('has a bare LF or CR');
  for (const line of text.split('\r\n')) {
    const octets = encoder.encode(line).length;
    if (octets > 75) problems.push(`line of ${octets} octets: ${line.slice(0, 40)}…`);
  }
  return problems;
}

export interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  /** null when the file has no DTEND. */
  end: string | null;
  stamp: string;
  location: string | null;
  description: string | null;
  url: string | null;
}

const iso = (value: unknown): string => (value as InstanceType<typeof ICAL.Time>).toJSDate().toISOString();

export function parseCalendar(text: string): { name: string | null; productId: string | null; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  if (calendar.name !== 'vcalendar') throw new Error(`not a VCALENDAR but ${calendar.name}`);
  const str = (c: InstanceType<typeof ICAL.Component>, name: string) => {
    const value = c.getFirstPropertyValue(name);
    return value === null || value === undefined ? null : String(value);
  };
  return {
    name: str(calendar, 'x-wr-calname'),
    productId: str(calendar, 'prodid'),
    events: calendar.getAllSubcomponents('vevent').map((e) => {
      const dtend = e.getFirstPropertyValue('dtend');
      return {
        uid: str(e, 'uid') ?? '',
        summary: str(e, 'summary') ?? '',
        start: iso(e.getFirstPropertyValue('dtstart')),
        end: dtend ? iso(dtend) : null,
        stamp: iso(e.getFirstPropertyValue('dtstamp')),
        location: str(e, 'location'),
        description: str(e, 'description'),
        url: str(e, 'url'),
      };
    }),
  };
}

export interface ParsedCard {
  version: string | null;
  fn: string | null;
  n: string[];
  org: string | null;
  title: string | null;
  emails: string[];
  tels: Array<{ value: string; types: string[] }>;
  photo: string | null;
  uid: string | null;
  other: Array<{ name: string; value: string; type: string | null }>;
}

export function parseVCard(text: string): ParsedCard {
  const card = new ICAL.Component(ICAL.parse(text));
  if (card.name !== 'vcard') throw new Error(`not a VCARD but ${card.name}`);
  const first = (name: string) => {
    const value = card.getFirstPropertyValue(name);
    return value === null || value === undefined ? null : String(value);
  };
  const types = (p: InstanceType<typeof ICAL.Property>) => {
    const type = p.getParameter('type');
    return (Array.isArray(type) ? type : type ? [type] : []).map((x) => String(x).toUpperCase());
  };
  const n = card.getFirstPropertyValue('n');
  return {
    version: first('version'),
    fn: first('fn'),
    n: Array.isArray(n) ? n.map(String) : n ? [String(n)] : [],
    org: first('org'),
    title: first('title'),
    emails: card.getAllProperties('email').map((p) => String(p.getFirstValue())),
    tels: card.getAllProperties('tel').map((p) => ({ value: String(p.getFirstValue()), types: types(p) })),
    photo: first('photo'),
    uid: first('uid'),
    other: card
      .getAllProperties()
      .filter((p) => p.name.startsWith('x-') || p.name === 'url')
      .map((p) => ({ name: p.name, value: String(p.getFirstValue()), type: types(p)[0] ?? null })),
  };
}
