/**
 * Events: a page per event of the API at its permalink, in its language and time zone,
 * with its start and end as `<time datetime>`, Event JSON-LD and live updates; an `.ics`
 * per event and the calendar feed, which parse (ical.js) with the right UID, SUMMARY,
 * DTSTART, DTEND and the build day as DTSTAMP; /events/ split by the build day as built,
 * with no live badge anywhere until the view-time script shows one (test/browser/events.test.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator.ts';
import { ianaTimeZone } from '../../../src/lib/timezones.ts';
import { allElements, elements, jsonLd, loadPages, text, type BuiltPage, type Element } from '../helpers.ts';
import { lineProblems, parseCalendar } from '../content-lines.ts';

interface ApiEvent {
  id: number;
  title: string;
  starts_at: string;
  ends_at: string | null;
  timezone: string | null;
  language: string | null;
  location: string | null;
  online: boolean;
  permalink: string;
  live_event_id: number | null;
}
interface ApiLiveEvent {
  id: number;
  updates: Array<{ id: number; posted_at: string; body_html: string }>;
}

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');
const DOMAIN = 'newsroom.northwind.example';

let events: ApiEvent[];
let liveEvents: Map<number, ApiLiveEvent>;
let pressroom: { language: string; timezone: string };
let pages: Map<string, BuiltPage>;
let record: { format: string; day: string; timeZone: string; dayStart: string };

beforeAll(async () => {
  const api = emulator();
  const get = async <T>(p: string) => (await api.json<{ data: T }>(p)).body.data;
  [events, pressroom] = await Promise.all([get<ApiEvent[]>('events?limit=10000'), get<{ language: string; timezone: string }>('')]);
  liveEvents = new Map(
    await Promise.all(
      events
        .filter((e) => e.live_event_id)
        .map(async (e) => [e.live_event_id!, await get<ApiLiveEvent>(`live_events/${e.live_event_id}`)] as const),
    ),
  );
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));
  record = JSON.parse(await readFile(path.join(siteDir, '.pressroom-build.json'), 'utf8')) as typeof record;
});

const pagePath = (e: ApiEvent) => `${e.permalink.replace(/\/$/, '')}/`;
const icsPath = (e: ApiEvent) => `${e.permalink.replace(/\/$/, '')}.ics`;
const readIcs = (sitePath: string) => readFile(path.join(siteDir, sitePath), 'utf8');
const yearIn = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en', { timeZone: ianaTimeZone(zone), year: 'numeric' }).format(new Date(iso));

describe('event pages', () => {
  it('has a page per event of the API at its permalink, with its title as h1 and its language as <html lang>', () => {
    expect(events.length).toBeGreaterThan(5);
    for (const e of events) {
      const page = pages.get(pagePath(e));
      expect(page, pagePath(e)).toBeDefined();
      expect(elements(page!.doc, 'h1').map(text)).toEqual([e.title]);
      expect(elements(page!.doc, 'html')[0]?.attribs.lang).toBe(e.language ?? pressroom.language);
      expect(page!.html).toContain(`href="${icsPath(e)}"`);
    }
  });

  it("gives the times in the event's own time zone, its start and its end each a <time datetime>", () => {
    let ranges = 0;
    for (const e of events) {
      const zone = ianaTimeZone(e.timezone ?? pressroom.timezone);
      const clock = (iso: string) =>
        new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
      const times = elements(pages.get(pagePath(e))!.doc, 'time');
      const start = times.find((t) => t.attribs.datetime === e.starts_at && 'data-event-start' in t.attribs);
      expect(start, pagePath(e)).toBeDefined();
      expect(text(start!), `${pagePath(e)} in ${zone}`).toContain(clock(e.starts_at));
      const end = times.find((t) => 'data-event-end' in t.attribs);
      if (e.ends_at && Date.parse(e.ends_at) > Date.parse(e.starts_at)) {
        ranges++;
        expect(end?.attribs.datetime, pagePath(e)).toBe(e.ends_at);
        expect(text(end!)).toContain(clock(e.ends_at));
        expect(start!.parent).toBe(end!.parent);
      } else {
        expect(end, pagePath(e)).toBeUndefined();
      }
    }
    expect(ranges).toBeGreaterThan(5);
  });

  it('describes each event with schema.org Event JSON-LD', () => {
    for (const e of events) {
      const ld = jsonLd(pages.get(pagePath(e))!.doc) as Array<Record<string, unknown>>;
      const event = ld.find((x) => x['@type'] === 'Event');
      expect(event, pagePath(e)).toMatchObject({
        '@context': 'https://schema.org',
        name: e.title,
        startDate: e.starts_at,
        url: `${siteUrl}${pagePath(e)}`,
      });
      if (e.ends_at) expect(event!.endDate).toBe(e.ends_at);
      expect(event!.eventAttendanceMode).toMatch(/^https:\/\/schema\.org\/(Offline|Online|Mixed)EventAttendanceMode$/);
      if (e.location) expect(JSON.stringify(event!.location)).toContain(JSON.stringify(e.location).slice(1, -1));
    }
  });

  it("shows every update of an event's live blog, newest first", () => {
    expect(liveEvents.size).toBeGreaterThan(0);
    for (const e of events.filter((x) => x.live_event_id)) {
      const page = pages.get(pagePath(e))!;
      const shown = elements(page.doc, 'li')
        .filter((li) => /^update-\d+$/.test(li.attribs.id ?? ''))
        .map((li) => Number(li.attribs.id!.slice(7)));
      const updates = [...liveEvents.get(e.live_event_id!)!.updates].sort((a, b) => Date.parse(b.posted_at) - Date.parse(a.posted_at));
      expect(shown, pagePath(e)).toEqual(updates.map((u) => u.id));
    }
  });
});

describe('calendar files', () => {
  it('writes one parseable .ics per event with its UID, SUMMARY, DTSTART and DTEND', async () => {
    for (const e of events) {
      const ics = await readIcs(icsPath(e));
      expect(lineProblems(ics), icsPath(e)).toEqual([]);
      const { events: parsed } = parseCalendar(ics);
      expect(parsed.length).toBe(1);
      expect(parsed[0]).toMatchObject({
        uid: `event-${e.id}@${DOMAIN}`,
        summary: e.title,
        start: e.starts_at,
        end: e.ends_at,
        url: `${siteUrl}${pagePath(e)}`,
      });
    }
  });

  it("stamps every .ics with the start of the build day (the demo's: 1 November 2026 in Amsterdam), never the clock's time", async () => {
    expect(record).toEqual({
      format: 'pressroom-build/1',
      day: '2026-11-01',
      timeZone: 'Europe/Amsterdam',
      dayStart: '2026-10-31T23:00:00.000Z',
    });
    const stamps = new Set<string>();
    for (const e of events) for (const x of parseCalendar(await readIcs(icsPath(e))).events) stamps.add(x.stamp);
    for (const x of parseCalendar(await readIcs('/events/calendar.ics')).events) stamps.add(x.stamp);
    expect([...stamps].map((s) => new Date(s).toISOString())).toEqual([record.dayStart]);
  });

  it('lists every public event in the calendar feed, soonest first, and links it from /events/', async () => {
    const ics = await readIcs('/events/calendar.ics');
    expect(lineProblems(ics)).toEqual([]);
    const feed = parseCalendar(ics);
    expect(feed.name).toContain('Northwind Mobility');
    const expected = [...events].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at) || a.id - b.id);
    expect(feed.events.map((x) => x.uid)).toEqual(expected.map((e) => `event-${e.id}@${DOMAIN}`));
    for (const [i, e] of expected.entries()) expect(feed.events[i]).toMatchObject({ summary: e.title, start: e.starts_at, end: e.ends_at });
    expect(pages.get('/events/')!.html).toContain('href="/events/calendar.ics"');
  });
});

describe('/events/ as built (what a reader without JavaScript and a crawler see)', () => {
  const group = (name: string) => elements(pages.get('/events/')!.doc, 'section').find((s) => s.attribs['data-event-group'] === name)!;
  const links = (s: Element) =>
    elements(s, 'a')
      .map((a) => a.attribs.href)
      .filter((h) => h?.startsWith('/events/'));
  // Past for every reader: ended before the build day began. The webinar of the demo day (08:00–14:00) is not.
  const endedBeforeBuildDay = (e: ApiEvent) =>
    Math.max(Date.parse(e.starts_at), Date.parse(e.ends_at ?? e.starts_at)) <= Date.parse(record.dayStart);

  it('lists as upcoming every event not ended when the build day began, soonest first, and the others as past by year', () => {
    const upcoming = events.filter((e) => !endedBeforeBuildDay(e)).sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
    const past = events.filter(endedBeforeBuildDay).sort((a, b) => Date.parse(b.starts_at) - Date.parse(a.starts_at));
    expect(upcoming.map((e) => e.title)).toContain('Webinar: die Zukunft von Paketzustellung auf der letzten Meile');
    expect(past.length).toBeGreaterThan(3);
    expect(links(group('upcoming'))).toEqual(upcoming.map(pagePath));
    expect(links(group('past'))).toEqual(past.map(pagePath));
    expect(elements(group('past'), 'h3').map(text)).toEqual([...new Set(past.map((e) => yearIn(e.starts_at, pressroom.timezone)))]);
    // Each item carries the year the script files it under when it moves to past.
    for (const li of elements(group('upcoming'), 'li')) expect(li.attribs['data-year']).toMatch(/^20\d\d$/);
  });

  it('calls no event live: the live group and every live badge wait, hidden, for the view-time script', () => {
    expect(group('live').attribs.hidden).toBeDefined();
    expect(links(group('live'))).toEqual([]);
    let badges = 0;
    for (const page of pages.values()) {
      for (const el of allElements(page.doc).filter((x) => (x.attribs.class ?? '').split(' ').includes('badge--live'))) {
        badges++;
        expect('hidden' in el.attribs, `${page.path}: a live badge is shown as built`).toBe(true);
      }
    }
    // Event pages, /events/, the home page's teaser and tag pages all carry one per event that can be live.
    expect(badges).toBeGreaterThan(20);
    for (const p of ['/events/', '/', ...events.map(pagePath)])
      expect(
        elements(pages.get(p)!.doc, 'script').some((s) => 'data-event-phases' in s.attribs),
        p,
      ).toBe(true);
  });
});
