/**
 * Press coverage: articles by outlets (newspapers, magazines, blogs) in three
 * languages, about half of them about a specific release, each with a page
 * screenshot. One private clipping, titled "PRIVATE: …".
 */
import type { Clipping, Tag } from '../model/types.ts';
import { SCREENSHOT_RENDITIONS, type AssetRegistry } from './assets.ts';
import { COMPANY } from './company.ts';
import { DAY, HOUR, MINUTE, YEAR, between, iso, officeTime, utcParts } from './dates.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import { PACKS } from './language/index.ts';
import type { Lang } from './language/pack.ts';
import { fill, plainText } from './markup.ts';
import type { People } from './people.ts';
import { hash32, type Rng } from '../model/random.ts';
import type { Story } from './releases.ts';
import { slugify } from './slug.ts';
import { releaseSlots } from './text.ts';
import { visible } from './visibility.ts';

interface Outlet {
  name: string;
  lang: Lang;
  url: string;
  /** Relative reach, drives share counts. */
  reach: number;
}

const OUTLETS: ReadonlyArray<readonly [string, Lang, number]> = [
  ['Mobility Today', 'en', 3],
  ['The Urban Cyclist', 'en', 2],
  ['Transit Weekly', 'en', 2],
  ['Green Fleet Review', 'en', 1],
  ['Euro Business Daily', 'en', 5],
  ['The Commuter', 'en', 1],
  ['Two Wheels Magazine', 'en', 2],
  ['City Lab Notes', 'en', 1],
  ['Tech & Transport', 'en', 3],
  ['1843', 'en', 2],
  ['De Dagelijkse Fiets', 'nl', 2],
  ['Het Stadsblad', 'nl', 2],
  ['Mobiliteit Vandaag', 'nl', 1],
  ['Het Financieel Journaal', 'nl', 4],
  ['Amsterdams Avondnieuws', 'nl', 3],
  ['Duurzaam Bedrijf', 'nl', 1],
  ['020', 'nl', 2],
  ['Radwelt', 'de', 2],
  ['Berliner Verkehrsblatt', 'de', 2],
  ['Mobilität Heute', 'de', 1],
  ['Wirtschaftskurier', 'de', 4],
  ['Elbe Rundschau', 'de', 2],
  ['Pedelec Praxis', 'de', 1],
  ['Stadt & Rad', 'de', 1],
];

const outlets: readonly Outlet[] = OUTLETS.map(([name, lang, reach]) => ({
  name,
  lang,
  reach,
  url: `https://www.${slugify(name).replace(/-/g, '')}.example`,
}));

export interface ClippingInputs {
  rng: Rng;
  seed: number;
  count: number;
  now: number;
  people: People;
  tags: readonly Tag[];
  stories: readonly Story[];
  assets: AssetRegistry;
}

export function generateClippings(input: ClippingInputs): Clipping[] {
  const { rng, now } = input;
  const linkable = input.stories.filter(
    (s) => s.release._state === 'published' && !s.release._private && s.release._visibleFrom === null && s.release.release_date !== null,
  );
  const tagIds = input.tags.map((t) => t.id);

  interface Draft {
    story: Story | null;
    date: number;
    isPrivate: boolean;
  }
  const drafts: Draft[] = [];
  for (let i = 0; i < input.count; i++) {
    const story = i % 2 === 0 && linkable.length > 0 ? rng.pick(linkable) : null;
    const date = story
      ? Math.min(now - HOUR, Date.parse(story.release.release_date ?? '') + rng.int(2, 240) * HOUR)
      : officeTime(rng, between(rng, now - 3 * YEAR, now - DAY));
    drafts.push({ story, date, isPrivate: i === 1 });
  }
  drafts.sort((a, b) => a.date - b.date);
  const ids = new IdSequence(rng.fork('ids'), ID_BASE.clipping, 5);

  return drafts.map(({ story, date, isPrivate }) => {
    const id = ids.next();
    const r = rng.fork('clipping', id);
    const lang: Lang =
      story && r.chance(0.7)
        ? story.lang
        : r.weighted([
            ['en', 6],
            ['nl', 2],
            ['de', 2],
          ]);
    const outlet = r.pick(outlets.filter((o) => o.lang === lang));
    const pack = PACKS[lang];
    const slots = story && story.lang === lang ? story.slots : releaseSlots(r, pack, date, input.people);
    const headline = fill(r.pick(pack.headlines), slots);
    const title = isPrivate ? `PRIVATE: ${headline}` : headline;
    const slug = slugify(title);
    const { year, month } = utcParts(date);
    const published = Math.min(now - MINUTE, date + r.int(0, 72) * HOUR);
    const share = (max: number): number => Math.floor(r.float() ** 3 * max * outlet.reach);
    const sizes = input.assets.image(
      `/media/clippings/${id}`,
      {
        seed: hash32(input.seed, 'screenshot', id),
        label: `${outlet.name}: ${headline}`,
        format: 'jpeg',
        transparent: false,
        width: 1280,
        height: r.int(20, 30) * 80,
      },
      SCREENSHOT_RENDITIONS,
    );
    const clipping: Clipping = {
      ...visible(),
      _private: isPrivate,
      id,
      pressroom_id: COMPANY.pressroomId,
      press_release_id: story ? story.release.id : null,
      title,
      description: r.chance(0.6) ? plainText(fill(r.pick(r.pick(pack.stories).summaries), slots)) : null,
      source: outlet.name,
      url: `${outlet.url}/${year}/${String(month + 1).padStart(2, '0')}/${slugify(headline, 60)}`,
      release_date: iso(date),
      published_at: iso(Math.max(date, published)),
      language: lang,
      state: 'published',
      private: false,
      show_iframe: r.chance(0.15),
      permalink: `/clippings/${id}-${slug}`,
      type: 'clipping',
      shares: { facebook: share(400), linkedin: share(250), twitter: share(150) },
      sizes,
      _tagIds: r
        .sample(
          tagIds,
          r.weighted([
            [0, 4],
            [1, 4],
            [2, 2],
          ]),
        )
        .sort((a, b) => a - b),
    };
    return clipping;
  });
}
