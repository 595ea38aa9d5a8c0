/**
 * Events: a page per event of the API at its permalink, in its language and time zone,
 * with Event JSON-LD and live updates; an `.ics` per event and the calendar feed, which
 * parse (ical.js) with the right UID, SUMMARY, DTSTART, DTEND and a DTSTAMP from the data.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator.ts';
import { ianaTimeZone } from '../../../src/lib/timezones.ts';
import { elements, jsonLd, loadPages, text, type BuiltPage } from '../helpers.ts';
import { lineProblems, parseCalendar } from '../content-lines.ts';

interface ApiEvent { id: number; title: string; starts_at: string; ends_at: string | null; timezone: string | null; language: string | null; location: string | null; online: boolean; permalink: string; live_event_id: number | null }
interface ApiLiveEvent { id: number; updates: Array<{ id: number; posted_at: string; body_html: string }> }

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');
const DOMAIN = 'newsroom.northwind.example';

let events: ApiEvent[];
let liveEvents: Map<number, ApiLiveEvent>;
let pressroom: { language: string; timezone: string };
let pages: Map<string, BuiltPage>;

beforeAll(async () => {
  const api = emulator();
  const get = async <T,>(p: string) => (await api.json<{ data: T }>(p)).body.data;
  [events, pressroom] = await Promise.all([get<ApiEvent[]>('events?limit=10000'), get<{ language: string; timezone: string }>('')]);
  liveEvents = new Map(
    await Promise.all(events.filter((e) => e.live_event_id).map(async (e) => [e.live_event_id!, await get<ApiLiveEvent>(`live_events/${e.live_event_id}`)] as const)),
  );
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));
});

const pagePath = (e: ApiEvent) => `${e.permalink.replace(/\/$/, '')}/`;
const icsPath = (e: ApiEvent) => `${e.permalink.replace(/\/$/, '')}.ics`;
const readIcs = (sitePath: string) => readFile(path.join(siteDir, sitePath), 'utf8');

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

  it('gives the times in the event\'s own time zone', () => {
    for (const e of events) {
      const zone = ianaTimeZone(e.timezone ?? pressroom.timezone);
      const clock = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
      const when = elements(pages.get(pagePath(e))!.doc, 'time').find((t) => t.attribs.datetime === e.starts_at);
      expect(when, pagePath(e)).toBeDefined();
      expect(text(when!), `${pagePath(e)} in ${zone}`).toContain(clock(e.starts_at));
      if (e.ends_at && e.ends_at.slice(0, 10) === e.starts_at.slice(0, 10)) expect(text(when!)).toContain(clock(e.ends_at));
    }
  });

  it('describes each event with schema.org Event JSON-LD', () => {
    for (const e of events) {
      const ld = jsonLd(pages.get(pagePath(e))!.doc) as Array<Record<string, unknown>>;
      const event = ld.find((x) => x['@type'] === 'Event');
      expect(event, pagePath(e)).toMatchObject({ '@context': 'https://schema.org', name: e.title, startDate: e.starts_at, url: `${siteUrl}${pagePath(e)}` });
      if (e.ends_at) expect(event!.endDate).toBe(e.ends_at);
      expect(event!.eventAttendanceMode).toMatch(/^https:\/\/schema\.org\/(Offline|Online|Mixed)EventAttendanceMode$/);
      if (e.location) expect(JSON.stringify(event!.location)).toContain(JSON.stringify(e.location).slice(1, -1));
    }
  });

  it('shows every update of an event\'s live blog, newest first', () => {
    expect(liveEvents.size).toBeGreaterThan(0);
    for (const e of events.filter((x) => x.live_event_id)) {
      const page = pages.get(pagePath(e))!;
      const shown = elements(page.doc, 'li').filter((li) => /^update-\d+$/.test(li.attribs.id ?? '')).map((li) => Number(li.attribs.id!.slice(7)));
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

  it('stamps every .ics with the same instant from the data (not the build clock)', async () => {
    const stamps = new Set<string>();
    for (const e of events) for (const x of parseCalendar(await readIcs(icsPath(e))).events) stamps.add(x.stamp);
    expect(stamps.size).toBe(1);
    const [stamp] = [...stamps];
    // The demo data's newest content (a clipping) is from 08:59 on the demo day; the emulator's clock stands at 09:00.
    expect(Date.parse(stamp!)).toBeLessThanOrEqual(Date.parse('2026-11-01T09:00:00.000Z'));
    expect(Date.parse(stamp!)).toBeGreaterThan(Date.parse('2026-10-01T00:00:00.000Z'));
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

describe('/events/', () => {
  it('lists upcoming events (not ended by the data\'s reference instant) apart from past ones', async () => {
    const now = Date.parse(parseCalendar(await readIcs('/events/calendar.ics')).events[0]!.stamp);
    const index = pages.get('/events/')!;
    const sections = elements(index.doc, 'section');
    const upcoming = sections.find((s) => s.attribs['aria-labelledby'] === 'upcoming-heading')!;
    const past = sections.find((s) => s.attribs['aria-labelledby'] === 'past-heading')!;
    const links = (s: typeof upcoming) => elements(s, 'a').map((a) => a.attribs.href).filter((h) => h?.startsWith('/events/'));
    const isUpcoming = (e: ApiEvent) => Date.parse(e.ends_at ?? e.starts_at) >= now;
    expect(links(upcoming).sort()).toEqual(events.filter(isUpcoming).map(pagePath).sort());
    expect(links(past).sort()).toEqual(events.filter((e) => !isUpcoming(e)).map(pagePath).sort());
    expect(events.some(isUpcoming) && events.some((e) => !isUpcoming(e))).toBe(true);
  });
});
