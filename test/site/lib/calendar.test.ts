/** The iCalendar writer (src/lib/calendar.ts) and content-line rules, checked with an independent parser. */
import { describe, expect, it } from 'vitest';
import { writeCalendar, type CalendarEvent } from '../../../src/lib/calendar.ts';
import { escapeText, foldLine, unfold } from '../../../src/lib/content-lines.ts';
import { lineProblems, parseCalendar } from '../content-lines.ts';

const stamp = Date.parse('2026-11-01T08:59:00.000Z');
const options = { productId: '-//Northwind Mobility//pressroom-static//EN', stamp };
const base: CalendarEvent = {
  uid: 'event-700038@newsroom.northwind.example',
  title: 'Northwind Mobility auf der Smart Cities Summit 2026',
  start: '2026-11-25T10:55:00.000Z',
  end: '2026-11-25T18:55:00.000Z',
  description: 'Journalistinnen und Journalisten sind herzlich willkommen.',
  location: 'Brussels Expo, Place de Belgique 1, Brussels',
  url: 'https://press.example.test/events/700038-smart-cities/',
};

describe('content lines', () => {
  it('escapes TEXT values: backslash, semicolon, comma, line breaks; drops control characters', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf\u0007g')).toBe('a\\\\b\\;c\\,d\\ne\\nfg');
  });

  it('folds at 75 octets without splitting a character, and unfolds back', () => {
    const line = `SUMMARY:${'Überraschung für alle — 🚲 '.repeat(12)}`;
    const folded = foldLine(line);
    for (const physical of folded.split('\r\n')) expect(new TextEncoder().encode(physical).length).toBeLessThanOrEqual(75);
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((l) => l.startsWith(' ')),
    ).toBe(true);
    expect(unfold(`${folded}\r\n`)).toEqual([line]);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
  });

  it('fills every folded line of ASCII text (a vCard photo) to exactly 75 octets', () => {
    const line = `PHOTO;ENCODING=b;TYPE=JPEG:${'QUJD'.repeat(100)}`;
    const physical = foldLine(line).split('\r\n');
    expect(physical.slice(0, -1).every((l) => l.length === 75)).toBe(true);
    expect(physical.at(-1)!.length).toBeLessThanOrEqual(75);
    expect(unfold(`${physical.join('\r\n')}\r\n`)).toEqual([line]);
  });
});

describe('writeCalendar', () => {
  it('writes a VEVENT with UID, SUMMARY, DTSTART, DTEND (UTC), DTSTAMP from the data, LOCATION, DESCRIPTION, URL', () => {
    const ics = writeCalendar([base], options);
    expect(lineProblems(ics)).toEqual([]);
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
    expect(ics).toContain('\r\nDTSTART:20261125T105500Z\r\n');
    expect(ics).toContain('\r\nDTEND:20261125T185500Z\r\n');
    expect(ics).toContain('\r\nDTSTAMP:20261101T085900Z\r\n');
    const { events, productId } = parseCalendar(ics);
    expect(productId).toBe(options.productId);
    expect(events).toEqual([
      {
        uid: base.uid,
        summary: base.title,
        start: base.start,
        end: base.end,
        stamp: '2026-11-01T08:59:00.000Z',
        location: base.location,
        description: base.description,
        url: base.url,
      },
    ]);
  });

  it('is deterministic: the same events give the same bytes, whatever the clock says', async () => {
    const a = writeCalendar([base], options);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(writeCalendar([base], options)).toBe(a);
  });

  it('round-trips hostile and non-ASCII text through escaping and folding', () => {
    const title = 'Pressekonferenz; Zahlen, Ausblick \\ Ergebnisse — ça va? 東京 🚲 '.repeat(3).trim();
    const description = 'Line one\nLine two, with comma; and semicolon\nBEGIN:VEVENT\nEND:VCALENDAR';
    const ics = writeCalendar([{ ...base, title, description, location: 'Messe Wien; Halle A, Eingang 2' }], options);
    expect(lineProblems(ics)).toEqual([]);
    const [event] = parseCalendar(ics).events;
    expect(event?.summary).toBe(title);
    expect(event?.description).toBe(description);
    expect(event?.location).toBe('Messe Wien; Halle A, Eingang 2');
    expect(ics.match(/^BEGIN:VEVENT$/gm)?.length).toBe(1);
  });

  it('leaves DTEND out when there is no end, or an end before the start', () => {
    for (const end of [null, '2026-11-25T09:00:00.000Z']) {
      const ics = writeCalendar([{ ...base, end }], options);
      expect(ics).not.toContain('DTEND');
      expect(parseCalendar(ics).events[0]?.end).toBeNull();
    }
  });

  it('writes a feed with every event in order and the calendar name escaped', () => {
    const events = [base, { ...base, uid: 'event-2@x', title: 'Second', start: '2027-01-01T10:00:00.000Z', end: null }];
    const ics = writeCalendar(events, { ...options, name: 'Acme, Inc. · Events' });
    expect(ics).toContain('X-WR-CALNAME:Acme\\, Inc. · Events\r\n');
    const parsed = parseCalendar(ics);
    // ical.js leaves X- property values as written (it cannot know their type); calendar apps read them as TEXT.
    expect(parsed.name?.replace(/\\(.)/g, '$1')).toBe('Acme, Inc. · Events');
    expect(parsed.events.map((e) => e.uid)).toEqual(['event-700038@newsroom.northwind.example', 'event-2@x']);
  });

  it('writes an empty feed when there are no events', () => {
    const ics = writeCalendar([], { ...options, name: 'Events' });
    expect(lineProblems(ics)).toEqual([]);
    expect(parseCalendar(ics).events).toEqual([]);
  });
});
