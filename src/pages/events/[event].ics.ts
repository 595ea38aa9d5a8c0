/** One event as an iCalendar file: /events/<id>-<slug>.ics (src/lib/event-calendar.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite, type PressEvent } from '../../lib/data.ts';
import { eventIcs } from '../../lib/event-calendar.ts';
import { itemSegment } from '../../lib/paths.ts';

export const getStaticPaths = (async () => {
  const siteData = await getSite();
  return siteData.events.map((event) => ({ params: { event: itemSegment(event) }, props: { event } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ event: PressEvent }> = async ({ props, site: siteUrl }) => {
  const siteData = await getSite();
  return new Response(eventIcs(props.event, siteData, siteUrl), { headers: { 'Content-Type': 'text/calendar; charset=utf-8' } });
};
