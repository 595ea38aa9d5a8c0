/**
 * Press-release prose in the release's language: title, subtitle, summary,
 * pitch and a body built as editor blocks (`header`, `textarea`, `quote`,
 * `media`) that render both to `body_html` and to `content_as_json`, so the
 * two always tell the same story.
 */
import { AWARDS, COMPANY, FAIRS, INVESTORS, PARTNERS, PRODUCTS, CITIES } from './company.ts';
import type { LanguagePack, Slots } from './language/pack.ts';
import { escapeHtml, fill, inlineHtml, list, paragraph, plainText, wordCount } from './markup.ts';
import type { People } from './people.ts';
import { Deck, type Rng } from '../model/random.ts';
import { utcParts } from './dates.ts';

const VEHICLES = PRODUCTS.filter((p) => p.vehicle);

const APPOINTMENT_POSITIONS = [
  'Chief Operating Officer',
  'Chief Financial Officer',
  'Managing Director Benelux',
  'Chief Marketing Officer',
  'Head of Fleet Services',
  'Chief People Officer',
  'Managing Director Nordics',
];
const PARTNER_POSITIONS = ['CEO', 'Director of Operations', 'Head of Partnerships', 'Chief Sustainability Officer', 'Managing Director'];

const QUOTE_MARKS: Record<string, readonly [string, string]> = { en: ['“', '”'], nl: ['“', '”'], de: ['„', '“'] };

/** An image a body may show inline (the `large` rendition of a library image). */
export interface InlineImage {
  id: number;
  url: string;
  width: string;
  height: string;
  alt: string;
}

export type Block =
  | { type: 'header'; level: 2 | 3; text: string }
  | { type: 'textarea'; html: string }
  | { type: 'quote'; text: string; caption: string }
  | { type: 'media'; image: InlineImage; caption: string };

export interface ReleaseText {
  title: string;
  tagHint: string;
  subtitle: string;
  summary: string;
  pitch: string;
  bodyHtml: string;
  blocks: Block[];
  /** Plain-text paragraphs of the body (for the PDF version). */
  paragraphs: string[];
  words: number;
}

/** Everything one release talks about, decided once so the story hangs together. */
export function releaseSlots(rng: Rng, pack: LanguagePack, when: number, people: People): Slots {
  const { year, month } = utcParts(when);
  const lang = pack.lang;
  const product = rng.pick(VEHICLES);
  const city = rng.pick(CITIES);
  let city2 = rng.pick(CITIES);
  if (city2 === city) city2 = CITIES[(CITIES.indexOf(city) + 1) % CITIES.length] ?? city;
  const partner = rng.pick(PARTNERS);
  const slots: Slots = {
    company: COMPANY.name,
    short: COMPANY.short,
    product: product.name,
    kind: product.kind[lang],
    city: city.name[lang],
    city2: city2.name[lang],
    partner: partner.name,
    partnerUrl: partner.url,
    productUrl: `${COMPANY.siteUrl}${product.path}`,
    siteUrl: COMPANY.siteUrl,
    percent: String(rng.int(8, 64)),
    percent2: String(rng.int(12, 35)),
    number: pack.formatInt(rng.int(12, 2500) * 100),
    number2: pack.formatInt(rng.int(5, 600) * 100),
    amount: String(rng.int(5, 120)),
    year: String(year),
    prevYear: String(year - 1),
    nextYear: String(year + 1),
    count: String(rng.int(3, 40)),
    range: String(rng.int(12, 36) * 5),
    price: pack.euros(rng.int(15, 60) * 100 - 1),
    monthly: pack.euros(rng.int(29, 119)),
    service: rng.pick(pack.services),
    region: rng.pick(pack.regions),
    metric: rng.pick(pack.metrics),
    goal: rng.pick(pack.goals),
    facility: rng.pick(pack.facilities),
    award: rng.pick(AWARDS),
    fair: rng.pick(FAIRS),
    month: pack.months[(month + rng.int(1, 4)) % 12] ?? '',
    period: '',
    person: rng.pick(people.pool).name,
    position: rng.pick(APPOINTMENT_POSITIONS),
    investor: rng.pick(INVESTORS),
  };
  slots.period = fill(rng.pick(pack.periods), slots);
  return slots;
}

/** `count` plain-text paragraphs of 2–4 sentences (PDFs, descriptions). */
export function plainParagraphs(rng: Rng, pack: LanguagePack, slots: Slots, count: number): string[] {
  const deck = new Deck(rng, pack.sentences);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(plainText(sentences(rng, deck, slots, rng.int(2, 4))));
  return out;
}

/** Short HTML: `count` paragraphs, the last one sometimes a bullet list. */
export function htmlParagraphs(rng: Rng, pack: LanguagePack, slots: Slots, count: number, withList = false): string {
  const deck = new Deck(rng, pack.sentences);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(paragraph(sentences(rng, deck, slots, rng.int(2, 3))));
  if (withList) parts.push(list(rng.sample(pack.listItems, rng.int(3, 4)).map((item) => fill(item, slots))));
  return parts.join('\n');
}

function sentences(rng: Rng, deck: Deck<string>, slots: Slots, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(fill(deck.draw(), slots));
  return out.join(' ');
}

export function writeRelease(
  rng: Rng,
  pack: LanguagePack,
  slots: Slots,
  opts: { when: number; location: string | null; images: readonly InlineImage[]; people: People },
): ReleaseText {
  const story = rng.pick(pack.stories);
  const deck = new Deck(rng, pack.sentences);
  const blocks: Block[] = [];
  const paragraphs: string[] = [];
  const text = (markup: string): void => {
    paragraphs.push(plainText(markup));
    blocks.push({ type: 'textarea', html: paragraph(markup) });
  };
  const header = (level: 2 | 3, template: string): void => {
    const t = fill(template, slots);
    paragraphs.push(t);
    blocks.push({ type: 'header', level, text: t });
  };
  const quote = (fromPartner: boolean): void => {
    const exec = rng.pick(opts.people.executives);
    const speaker = fromPartner
      ? { name: rng.pick(opts.people.pool).name, position: rng.pick(PARTNER_POSITIONS), org: slots.partner }
      : { name: exec.name, position: exec.position, org: COMPANY.name };
    const q = fill(rng.pick(pack.quotes), slots);
    const caption = fill(pack.attribution, { ...slots, person: speaker.name, position: speaker.position, partner: speaker.org });
    paragraphs.push(`${q} — ${caption}`);
    blocks.push({ type: 'quote', text: q, caption });
  };
  const image = (): void => {
    if (opts.images.length === 0) return;
    const img = rng.pick(opts.images);
    blocks.push({ type: 'media', image: img, caption: fill(pack.imageCaption, { title: img.alt }) });
  };

  // Lead with dateline.
  const { year, month, day } = utcParts(opts.when);
  const dateline = opts.location ? `**${opts.location.toUpperCase()}, ${pack.formatDate(day, month, year)}** – ` : '';
  text(`${dateline}${fill(rng.pick(story.leads), slots)} ${sentences(rng, deck, slots, rng.int(1, 2))}`);
  const details = story.details ? fill(rng.pick(story.details), slots) + ' ' : '';
  text(details + sentences(rng, deck, slots, rng.int(details ? 1 : 2, 3)));
  if (rng.chance(0.6)) image();

  header(2, rng.pick(pack.headings));
  text(sentences(rng, deck, slots, rng.int(3, 4)));
  if (rng.chance(0.5)) {
    const items = rng.sample(pack.listItems, rng.int(3, 5)).map((i) => fill(i, slots));
    const intro = fill(rng.pick(pack.listIntros), slots);
    paragraphs.push(intro, ...items.map((i) => `• ${plainText(i)}`));
    blocks.push({ type: 'textarea', html: `${paragraph(intro)}${list(items)}` });
  } else if (rng.chance(0.3)) {
    paragraphs.push(pack.steps.intro, ...pack.steps.items.map((s, i) => `${i + 1}. ${s}`));
    blocks.push({ type: 'textarea', html: `${paragraph(pack.steps.intro)}${list(pack.steps.items, true)}` });
  }
  if (rng.chance(0.85)) quote(false);

  header(2, rng.pick(pack.headings.filter((h) => !blocks.some((b) => b.type === 'header' && b.text === fill(h, slots)))));
  text(sentences(rng, deck, slots, rng.int(2, 4)));
  if (rng.chance(0.25)) {
    header(3, pack.table.heading);
    blocks.push({ type: 'textarea', html: table(rng, pack, slots) });
    paragraphs.push(pack.table.rows.map(([label]) => label).join(', '));
  }
  if (rng.chance(0.3)) quote(true);
  if (rng.chance(0.25)) image();

  header(3, rng.pick(pack.subheadings));
  text(`${sentences(rng, deck, slots, rng.int(1, 2))} ${fill(rng.pick(pack.linkSentences), slots)}`);
  text(fill(rng.pick(pack.closings), slots));

  const words = wordCount(paragraphs.join(' '));
  return {
    title: fill(rng.pick(story.titles), slots),
    tagHint: story.tag,
    subtitle: fill(rng.pick(story.subtitles), slots),
    summary: fill(rng.pick(story.summaries), slots),
    pitch: fill(rng.pick(pack.pitches), slots),
    bodyHtml: renderBlocks(blocks, pack.lang),
    blocks,
    paragraphs,
    words,
  };
}

function table(rng: Rng, pack: LanguagePack, slots: Slots): string {
  const head = pack.table.headers.map((h) => `<th>${escapeHtml(fill(h, slots))}</th>`).join('');
  const rows = rng.sample(pack.table.rows, rng.int(3, 5)).map(([label, min, max]) => {
    const value = pack.formatInt(rng.int(min, max));
    const change = `+${rng.int(2, 80)}%`;
    return `<tr><td>${escapeHtml(label)}</td><td>${value}</td><td>${change}</td></tr>`;
  });
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function renderBlocks(blocks: readonly Block[], lang: string): string {
  const [open, close] = QUOTE_MARKS[lang] ?? ['"', '"'];
  return blocks
    .map((b) => {
      switch (b.type) {
        case 'header':
          return `<h${b.level}>${escapeHtml(b.text)}</h${b.level}>`;
        case 'textarea':
          return b.html;
        case 'quote':
          return `<blockquote><p>${open}${escapeHtml(b.text)}${close}</p><p><cite>${escapeHtml(b.caption)}</cite></p></blockquote>`;
        case 'media':
          return (
            `<figure><img src="${b.image.url}" alt="${escapeHtml(b.image.alt)}" width="${b.image.width}" height="${b.image.height}">` +
            `<figcaption>${inlineHtml(b.caption)}</figcaption></figure>`
          );
      }
    })
    .join('\n');
}

/** Editor blocks as the API's `content_as_json` string. */
export function blocksJson(rng: Rng, blocks: readonly Block[], extra: Record<string, unknown> = {}): string {
  const json = blocks.map((b) => {
    const id = rng.uint32().toString(36);
    switch (b.type) {
      case 'header':
        return { id, type: 'header', data: { text: b.text, level: b.level } };
      case 'textarea':
        return { id, type: 'textarea', data: { text: b.html } };
      case 'quote':
        return { id, type: 'quote', data: { text: b.text, caption: b.caption } };
      case 'media':
        return { id, type: 'media', data: { media_id: b.image.id, media_type: 'image', caption: b.caption } };
    }
  });
  return JSON.stringify({ version: 2, ...extra, blocks: json });
}

/** Unpublished edits of a release: recognisable ("DRAFT EDIT") and never to be rendered. */
export function draftBlocksJson(rng: Rng, pack: LanguagePack, title: string, blocks: readonly Block[]): string {
  const draft: Block[] = [
    { type: 'header', level: 2, text: pack.draftEdit.heading },
    { type: 'textarea', html: paragraph(pack.draftEdit.paragraph) },
    ...blocks,
  ];
  return blocksJson(rng, draft, { title: `DRAFT EDIT: ${title}` });
}
