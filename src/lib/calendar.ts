/**
 * iCalendar files (RFC 5545) for events: one `.ics` per event and the
 * calendar feed with every event. Written with the `ics` library, then every
 * line re-folded at 75 octets (the library counts characters, so a line of
 * accented text could exceed the limit in UTF-8).
 *
 * Deterministic, so a rebuild of unchanged data writes the same bytes:
 * UIDs come from the event id and the press room's domain, DTSTAMP is the
 * start of the build's day (src/lib/build-day.ts: the calendar was made that
 * day, and a rebuild the same day writes the same bytes), and times are
 * written in UTC (`…Z`), which needs no VTIMEZONE.
 */
import { createEvents, type EventAttributes } from 'ics';
import { escapeText, joinLines, unfold } from './content-lines.ts';

export interface CalendarEvent {
  /** Globally unique and stable: `event-<id>@<press room domain>`. */
  uid: string;
  title: string;
  /** ISO instants. */
  start: string;
  end: string | null;
  /** Plain text (line breaks allowed). */
  description?: string | null;
  location?: string | null;
  /** The event's page on this site (absolute). */
  url?: string | null;
}

export interface CalendarOptions {
  /** PRODID, e.g. `-//Northwind Mobility//pressroom-static//EN`. */
  productId: string;
  /** X-WR-CALNAME: the calendar's name in calendar apps (feeds). */
  name?: string | null;
  /** DTSTAMP of every event (ms since epoch): the start of the build's day, never the clock's exact time. */
  stamp: number;
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const clean = (text: string) => text.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim();

function toAttributes(event: CalendarEvent, stamp: number): EventAttributes {
  const start = Date.parse(event.start);
  const end = event.end ? Date.parse(event.end) : Number.NaN;
  if (!Number.isFinite(start)) throw new Error(`calendar: event ${event.uid} has no valid start (${event.start})`);
  const attributes: Record<string, unknown> = {
    uid: event.uid,
    title: clean(event.title) || event.uid,
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    timestamp: stamp,
  };
  // An end before the start is an upstream mistake: leave it out (RFC 5545: then the event ends when it starts).
  if (Number.isFinite(end) && end > start) Object.assign(attributes, { end, endInputType: 'utc', endOutputType: 'utc' });
  const description = event.description ? clean(event.description) : '';
  if (description) attributes.description = description;
  const location = event.location ? clean(event.location) : '';
  if (location) attributes.location = location;
  if (event.url && /^https?:\/\/[^\s]+$/.test(event.url)) attributes.url = event.url;
  return attributes as EventAttributes;
}

/** A VCALENDAR with the given events, in the given order. */
export function writeCalendar(events: readonly CalendarEvent[], options: CalendarOptions): string {
  const header = {
    productId: clean(options.productId).replace(/\n/g, ' '),
    method: 'PUBLISH',
    // The library only encodes line breaks in the name; TEXT escaping is ours.
    ...(options.name ? { calName: escapeText(clean(options.name)) } : {}),
  };
  if (events.length === 0) {
    // The library refuses an empty list; an empty calendar is still a valid feed.
    const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'CALSCALE:GREGORIAN', `PRODID:${header.productId}`, 'METHOD:PUBLISH'];
    if (header.calName) lines.push(`X-WR-CALNAME:${header.calName}`);
    lines.push('END:VCALENDAR');
    return joinLines(lines);
  }
  const { error, value } = createEvents(
    events.map((e) => toAttributes(e, options.stamp)),
    header,
  );
  if (error || !value) throw new Error(`calendar: ${error?.message ?? 'no output'}`);
  return joinLines(unfold(value));
}
