/** Every event of the press room as one iCalendar feed to subscribe to: /events/calendar.ics. */
import type { APIRoute } from 'astro';
import { getSite } from '../../lib/data.ts';
import { calendarFeed } from '../../lib/event-calendar.ts';
import { translator } from '../../lib/i18n.ts';

export const GET: APIRoute = async ({ site: siteUrl }) => {
  const siteData = await getSite();
  const t = translator(siteData.pressroom.language);
  return new Response(calendarFeed(siteData, siteUrl, `${siteData.pressroom.name} · ${t('events')}`), {
    headers: { 'Content-Type': 'text/calendar; charset=utf-8' },
  });
};
