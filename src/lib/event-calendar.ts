/** Press room events as calendar entries (src/lib/calendar.ts) for the `.ics` files. */
import type { LiveEvent, PressEvent, SiteData } from './data.ts';
import { writeCalendar, type CalendarEvent } from './calendar.ts';
import { httpHref } from './format.ts';
import { eventHref } from './paths.ts';
import { htmlToText } from './sanitize.ts';

/** The host part of UIDs: the press room's domain, else its public URL's host, else its id. */
export function uidDomain(pressroom: SiteData['pressroom']): string {
  const domain = pressroom.domain?.trim().toLowerCase();
  if (domain && /^[a-z0-9.-]+$/.test(domain)) return domain;
  try {
    if (pressroom.permalink) return new URL(pressroom.permalink).hostname;
  } catch {
    // fall through
  }
  return `pressroom-${pressroom.id}.pressroom-static`;
}

function calendarEventOf(
  event: PressEvent,
  siteData: Pick<SiteData, 'pressroom' | 'liveEventById'>,
  siteUrl: URL | undefined,
): CalendarEvent {
  const live: LiveEvent | undefined = event.live_event_id !== null ? siteData.liveEventById.get(event.live_event_id) : undefined;
  const stream = httpHref(event.stream_url) ?? httpHref(live?.stream_url);
  const page = siteUrl ? new URL(eventHref(event), siteUrl).href : null;
  const text = htmlToText(event.description);
  const description = [text, stream ? `Stream: ${stream}` : '', page ?? ''].filter(Boolean).join('\n\n');
  const location = event.location?.trim() || (event.online ? (stream ?? 'Online') : null);
  return {
    uid: `event-${event.id}@${uidDomain(siteData.pressroom)}`,
    title: event.title,
    start: event.starts_at,
    end: event.ends_at,
    description,
    location,
    url: page,
  };
}

const productId = (siteData: Pick<SiteData, 'pressroom'>) => `-//${siteData.pressroom.name.replace(/\/\//g, '/')}//pressroom-static//EN`;

/** One event's `.ics`. */
export function eventIcs(
  event: PressEvent,
  siteData: Pick<SiteData, 'pressroom' | 'liveEventById' | 'buildDay'>,
  siteUrl: URL | undefined,
): string {
  return writeCalendar([calendarEventOf(event, siteData, siteUrl)], { productId: productId(siteData), stamp: siteData.buildDay.start });
}

/** The calendar feed: every event, soonest first. */
export function calendarFeed(
  siteData: Pick<SiteData, 'pressroom' | 'liveEventById' | 'buildDay' | 'events'>,
  siteUrl: URL | undefined,
  name: string,
): string {
  return writeCalendar(
    siteData.events.map((e) => calendarEventOf(e, siteData, siteUrl)),
    { productId: productId(siteData), stamp: siteData.buildDay.start, name },
  );
}
