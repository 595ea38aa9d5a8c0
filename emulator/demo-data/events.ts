/**
 * Events (past, one happening now, upcoming, one private) and live events: a
 * live blog running now for the current event, and one from a past event.
 */
import type { LiveEvent, PressEvent, Tag } from '../model/types.ts';
import { CITIES, COMPANY } from './company.ts';
import { DAY, HOUR, MINUTE, YEAR, between, floorTo, iso, officeTime } from './dates.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import { PACKS } from './language/index.ts';
import type { Lang, Slots } from './language/pack.ts';
import { escapeHtml, fill, list, paragraph } from './markup.ts';
import type { People } from './people.ts';
import type { Rng } from '../model/random.ts';
import type { Plan } from './scale.ts';
import { slugify } from './slug.ts';
import { releaseSlots } from './text.ts';
import { visible } from './visibility.ts';

export interface EventInputs {
  rng: Rng;
  plan: Plan;
  now: number;
  people: People;
  tags: readonly Tag[];
  photoIds: readonly number[];
}

type When = 'past' | 'current' | 'upcoming' | 'private';

const PROGRAMME: Readonly<Record<Lang, readonly string[]>> = {
  en: ['Doors open', 'Welcome and keynote', 'Product demonstration', 'Panel discussion', 'Test rides', 'Drinks'],
  nl: ['Inloop', 'Welkom en keynote', 'Productdemonstratie', 'Paneldiscussie', 'Proefritten', 'Borrel'],
  de: ['Einlass', 'Begrüßung und Keynote', 'Produktvorführung', 'Podiumsdiskussion', 'Probefahrten', 'Get-together'],
};
const PROGRAMME_HEADING: Readonly<Record<Lang, string>> = { en: 'Programme', nl: 'Programma', de: 'Programm' };

/** Rails zone names used here → IANA, for wall-clock times in programmes. */
const IANA: Readonly<Record<string, string>> = {
  Amsterdam: 'Europe/Amsterdam',
  Berlin: 'Europe/Berlin',
  Brussels: 'Europe/Brussels',
  Copenhagen: 'Europe/Copenhagen',
  Vienna: 'Europe/Vienna',
  Zurich: 'Europe/Zurich',
  London: 'Europe/London',
};
const clocks = new Map<string, Intl.DateTimeFormat>();

function localClock(zone: string): Intl.DateTimeFormat {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', { timeZone: IANA[zone] ?? 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(zone, clock);
  }
  return clock;
}

export function generateEvents(input: EventInputs): { events: PressEvent[]; slots: Map<number, Slots> } {
  const { rng, now, plan } = input;
  const plans: Array<{ when: When; start: number }> = [];
  for (let i = 0; i < plan.pastEvents; i++)
    plans.push({ when: 'past', start: officeTime(rng, between(rng, now - 3 * YEAR, now - 3 * DAY)) });
  plans.push({ when: 'current', start: floorTo(now - 2 * HOUR, 15 * MINUTE) });
  for (let i = 0; i < plan.upcomingEvents; i++)
    plans.push({ when: 'upcoming', start: officeTime(rng, between(rng, now + 2 * DAY, now + 150 * DAY)) });
  plans.push({ when: 'private', start: officeTime(rng, now + rng.int(10, 40) * DAY) });
  plans.sort((a, b) => a.start - b.start);

  const ids = new IdSequence(rng.fork('ids'), ID_BASE.event, 7);
  const tagIds = input.tags.map((t) => t.id);
  const eventsTag = input.tags.find((t) => t.slug === 'events')?.id;

  const slotsById = new Map<number, Slots>();
  const events = plans.map(({ when, start }) => {
    const id = ids.next();
    const r = rng.fork('event', id);
    const lang: Lang =
      when === 'private'
        ? 'en'
        : r.weighted([
            ['en', 75],
            ['nl', 15],
            ['de', 10],
          ]);
    const pack = PACKS[lang];
    const slots = releaseSlots(r, pack, start, input.people);
    const city = r.pick(CITIES);
    slots.city = city.name[lang];
    slotsById.set(id, slots);
    const [template, mode] = r.pick(pack.eventTitles);
    const online = when !== 'private' && (mode === 'online' || (mode === 'either' && r.chance(0.35)));
    const title = when === 'private' ? `PRIVATE: Board strategy offsite ${slots.year}` : fill(template, slots);
    const length =
      when === 'current'
        ? 6 * HOUR
        : r.weighted([
            [r.int(1, 3) * HOUR, 6],
            [8 * HOUR, 3],
            [r.int(2, 3) * DAY - 14 * HOUR, 2],
          ] as const);
    const parts = [
      paragraph(`${fill(r.pick(pack.eventSentences), slots)} ${fill(r.pick(pack.sentences), slots)}`),
      paragraph(
        r
          .sample(pack.eventSentences, 2)
          .map((s) => fill(s, slots))
          .join(' '),
      ),
    ];
    if (!online && r.chance(0.5)) {
      const items = PROGRAMME[lang].slice(0, r.int(3, 6));
      const clock = localClock(city.zone);
      const times = items.map((item, i) => `${clock.format(start + i * 45 * MINUTE)} ${item}`);
      parts.push(`<h3>${escapeHtml(PROGRAMME_HEADING[lang])}</h3>${list(times)}`);
    }
    const publishedAt = Math.min(now - HOUR, start - r.int(7, 45) * DAY);
    const tags = new Set(r.sample(tagIds, r.int(0, 2)));
    if (eventsTag !== undefined && r.chance(0.7)) tags.add(eventsTag);
    const slug = slugify(title);
    const event: PressEvent = {
      ...visible(),
      _private: when === 'private',
      id,
      pressroom_id: COMPANY.pressroomId,
      title,
      description: parts.join('\n'),
      starts_at: iso(start),
      ends_at: when === 'past' && r.chance(0.1) ? null : iso(start + length),
      timezone: online ? 'Amsterdam' : city.zone,
      location: online ? null : `${city.venue}, ${city.name.en}`,
      online,
      // Only what happens online is streamed: an event at a venue offers its address, not a stream.
      stream_url: online ? `https://live.northwind.example/${slug}` : null,
      permalink: `/events/${id}-${slug}`,
      language: lang,
      type: 'event',
      published_at: iso(publishedAt),
      _tagIds: [...tags].sort((a, b) => a - b),
      _featuredImageIds: r.sample(input.photoIds, r.int(0, 2)),
    };
    return event;
  });
  return { events, slots: slotsById };
}

const UPDATES: readonly string[] = [
  'Doors are open and the first guests are arriving.',
  'Our CEO is on stage now: “{product} is the most important launch in our history.”',
  'First look at {product} — photos in the media kit on this newsroom.',
  'Panel with {partner} on {service}: cities want fewer cars, not fewer people.',
  'Test rides have started outside the venue. The queue is long!',
  'Q&A with journalists: pricing starts at {price}.',
  'That’s a wrap. Thanks for following along — the recording will be posted here.',
];

export function generateLiveEvents(
  rng: Rng,
  now: number,
  people: People,
  events: readonly PressEvent[],
  eventSlots: ReadonlyMap<number, Slots>,
): LiveEvent[] {
  const ids = new IdSequence(rng.fork('ids'), ID_BASE.liveEvent, 5);
  const updateIds = new IdSequence(rng.fork('update-ids'), ID_BASE.liveUpdate, 4);
  const current = events.find((e) => !e._private && Date.parse(e.starts_at) <= now && e.ends_at !== null && Date.parse(e.ends_at) > now);
  const past = [...events].reverse().find((e) => !e._private && e.ends_at !== null && Date.parse(e.ends_at) < now - DAY);
  const out: LiveEvent[] = [];
  for (const event of [past, current]) {
    if (!event) continue;
    const id = ids.next();
    const r = rng.fork('live', id);
    const start = Date.parse(event.starts_at);
    const end = Date.parse(event.ends_at ?? event.starts_at);
    // The live blog is in English; it talks about the same product and partner as its event.
    const slots = { ...releaseSlots(r, PACKS.en, start, people), ...pick(eventSlots.get(event.id), ['product', 'partner']) };
    const title = `Live: ${event.title}`;
    const texts = event === current ? UPDATES.slice(0, -1) : UPDATES;
    const updates: LiveEvent['updates'] = [];
    let t = start + r.int(0, 10) * MINUTE;
    for (const text of texts) {
      const last = event === current ? now - MINUTE : end;
      if (t > last) break;
      updates.push({ id: updateIds.next(), posted_at: iso(t), body_html: paragraph(fill(text, slots)) });
      t += r.int(12, 30) * MINUTE;
    }
    out.push({
      ...visible(),
      id,
      pressroom_id: COMPANY.pressroomId,
      event_id: event.id,
      title,
      description: `<p>Follow ${escapeHtml(event.title)} as it happens.</p>`,
      starts_at: event.starts_at,
      ends_at: event.ends_at,
      // The event's own stream when it has one: a live blog of an event at a venue is text and pictures.
      stream_url: event.stream_url ?? null,
      permalink: `/live/${id}-${slugify(title)}`,
      language: 'en',
      type: 'live_event',
      updates,
    });
  }
  return out;
}

function pick(slots: Slots | undefined, keys: ReadonlyArray<keyof Slots>): Partial<Slots> {
  const out: Partial<Slots> = {};
  if (slots) for (const k of keys) out[k] = slots[k];
  return out;
}
