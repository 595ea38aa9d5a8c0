/**
 * What one language contributes to the demo prose: templates with `{slot}`
 * placeholders and the inline markup of `../markup.ts`. Every slot a template
 * may use is listed in `SLOT_NAMES`; `../text.ts` fills them per release so a
 * release stays about one product, one city, one partner.
 */

export type Lang = 'en' | 'nl' | 'de';

export const SLOT_NAMES = [
  'company',
  'short',
  'product',
  'kind',
  'city',
  'city2',
  'partner',
  'partnerUrl',
  'productUrl',
  'siteUrl',
  'percent',
  'percent2',
  'number',
  'number2',
  'amount',
  'year',
  'prevYear',
  'nextYear',
  'count',
  'range',
  'price',
  'monthly',
  'service',
  'region',
  'metric',
  'goal',
  'facility',
  'award',
  'fair',
  'month',
  'period',
  'person',
  'position',
  'investor',
] as const;

export type Slot = (typeof SLOT_NAMES)[number];
export type Slots = Record<Slot, string>;

/** One kind of news (a launch, a partnership, results…): its headline, subtitle, opening and summary agree. */
export interface StoryTemplate {
  /** Tag slug the story is about (used if the world has that tag). */
  tag: string;
  titles: readonly string[];
  subtitles: readonly string[];
  /** Opening sentence after the dateline. */
  leads: readonly string[];
  summaries: readonly string[];
  /** Sentences that only make sense in this kind of story. */
  details?: readonly string[];
}

export interface LanguagePack {
  lang: Lang;
  months: readonly string[];
  /** Dateline date: "12 March 2024", "12 maart 2024", "12. März 2024". */
  formatDate(day: number, month: number, year: number): string;
  formatInt(n: number): string;
  euros(n: number): string;

  /** Period phrases, with {year}/{prevYear} filled by the caller. */
  periods: readonly string[];
  services: readonly string[];
  regions: readonly string[];
  metrics: readonly string[];
  goals: readonly string[];
  facilities: readonly string[];

  stories: readonly StoryTemplate[];
  pitches: readonly string[];
  sentences: readonly string[];
  headings: readonly string[];
  subheadings: readonly string[];
  quotes: readonly string[];
  /** Quote attribution, with {person}, {position} and the organisation in {partner} or {company}. */
  attribution: string;
  listIntros: readonly string[];
  listItems: readonly string[];
  steps: { intro: string; items: readonly string[] };
  /** Key-figures table: headers (the middle one gets {year}) and rows of [label, min, max]. */
  table: { heading: string; headers: readonly [string, string, string]; rows: ReadonlyArray<readonly [string, number, number]> };
  /** Sentences with a `[text](url)` link. */
  linkSentences: readonly string[];
  closings: readonly string[];
  /** Unpublished edits: recognisable by "DRAFT EDIT". */
  draftEdit: { heading: string; paragraph: string };
  /** Caption under an inline image; {title} is the image title. */
  imageCaption: string;

  /** Press coverage headlines written by outlets. */
  headlines: readonly string[];
  /** Event titles, each with where it can happen: at a venue, online, or either. */
  eventTitles: ReadonlyArray<readonly [string, 'venue' | 'online' | 'either']>;
  eventSentences: readonly string[];
}

export function groupDigits(n: number, separator: string): string {
  const s = String(Math.round(Math.abs(n)));
  const grouped = s.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return n < 0 ? `-${grouped}` : grouped;
}
