/**
 * Press releases: spread over three years before `now` (newest about a day
 * old), mostly English with Dutch and German, plus the hidden ones tests look
 * for (embargoed, private, draft, unpublished), recognisable by their titles.
 */
import type { PressRelease, Tag } from '../model/types.ts';
import type { AssetRegistry } from './assets.ts';
import { COMPANY, PRODUCTS, RELEASE_CITY_WEIGHTS } from './company.ts';
import { DAY, HOUR, MINUTE, YEAR, between, floorTo, iso, officeTime } from './dates.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import { PACKS } from './language/index.ts';
import type { Lang, Slots } from './language/pack.ts';
import type { People } from './people.ts';
import { hash32, type Rng } from '../model/random.ts';
import type { Plan } from './scale.ts';
import { slugify } from './slug.ts';
import { blocksJson, draftBlocksJson, releaseSlots, writeRelease, type InlineImage } from './text.ts';
import { hidden, visible } from './visibility.ts';

export interface ReleaseInputs {
  rng: Rng;
  seed: number;
  plan: Plan;
  now: number;
  people: People;
  tags: readonly Tag[];
  photos: readonly InlineImage[];
  assets: AssetRegistry;
  /** The media id space: release PDFs take their ids from it. */
  mediaIds: IdSequence;
}

export interface Story {
  release: PressRelease;
  slots: Slots;
  lang: Lang;
}

type HiddenKind = 'embargo-hours' | 'embargo-days' | 'private' | 'draft-undated' | 'draft-dated' | 'unpublished';

const HIDDEN_ORDER: readonly HiddenKind[] = ['embargo-hours', 'embargo-days', 'private', 'draft-undated', 'draft-dated', 'unpublished'];

const HIDDEN_PREFIX: Record<HiddenKind, string> = {
  'embargo-hours': 'EMBARGOED',
  'embargo-days': 'EMBARGOED',
  private: 'PRIVATE',
  'draft-undated': 'DRAFT',
  'draft-dated': 'DRAFT',
  unpublished: 'UNPUBLISHED',
};

const LANG_WEIGHTS = [
  ['en', 70],
  ['nl', 18],
  ['de', 12],
] as const;

interface Slot {
  hiddenKind: HiddenKind | null;
  date: number | null;
  lang: Lang;
}

export function generateReleases(input: ReleaseInputs): { releases: PressRelease[]; stories: Story[] } {
  const { rng, now, plan } = input;
  const visibleCount = plan.releases - plan.hiddenReleases;
  const newest = floorTo(now - DAY - rng.int(0, 180) * MINUTE, 5 * MINUTE);
  const oldest = now - 3 * YEAR;

  const slots: Slot[] = [];
  for (let i = 0; i < visibleCount; i++) {
    const date = i === 0 ? newest : Math.min(newest - 5 * MINUTE, officeTime(rng, between(rng, oldest, newest)));
    slots.push({ hiddenKind: null, date, lang: rng.weighted(LANG_WEIGHTS) });
  }
  // Every language shows up, even in a small world.
  for (const lang of ['nl', 'de'] as const) {
    if (visibleCount >= 6 && !slots.some((s) => s.lang === lang)) {
      const s = slots[rng.int(1, visibleCount - 1)];
      if (s) s.lang = lang;
    }
  }
  for (const kind of HIDDEN_ORDER.slice(0, plan.hiddenReleases)) {
    const date =
      kind === 'embargo-hours'
        ? now + 2 * HOUR
        : kind === 'embargo-days'
          ? now + 3 * DAY
          : kind === 'draft-undated'
            ? null
            : kind === 'draft-dated'
              ? officeTime(rng, now - 5 * DAY)
              : officeTime(rng, between(rng, oldest, now - 7 * DAY));
    slots.push({ hiddenKind: kind, date, lang: 'en' });
  }
  // Ids grow with the moment a release was written (undated drafts: recently).
  const creation = (s: Slot): number => (s.date === null ? now - 2 * DAY : s.hiddenKind?.startsWith('embargo') ? now - 6 * HOUR : s.date);
  const ordered = slots.map((s, i) => ({ s, i })).sort((a, b) => creation(a.s) - creation(b.s) || a.i - b.i);
  const ids = new IdSequence(rng.fork('ids'), ID_BASE.pressRelease, 9);

  const publicCount = ordered.filter((o) => o.s.hiddenKind === null).length;
  const withDraftEdits = new Set(rng.sample([...Array(publicCount).keys()], Math.max(2, Math.round(publicCount * 0.05))));
  const tagBySlug = new Map(input.tags.map((t) => [t.slug, t.id]));
  const allTagIds = input.tags.map((t) => t.id);
  const photoIds = input.photos.map((p) => p.id);

  const releases: PressRelease[] = [];
  const stories: Story[] = [];
  let publicIndex = 0;
  for (const { s } of ordered) {
    const id = ids.next();
    const r = rng.fork('release', id);
    const pack = PACKS[s.lang];
    const when = s.date ?? now - 2 * DAY;
    const storySlots = releaseSlots(r, pack, when, input.people);
    const location = r.chance(0.9) ? r.weighted(RELEASE_CITY_WEIGHTS[s.lang]) : null;
    const text = writeRelease(r, pack, storySlots, { when, location, images: input.photos, people: input.people });
    const title = s.hiddenKind ? `${HIDDEN_PREFIX[s.hiddenKind]}: ${text.title}` : text.title;
    const isPublic = s.hiddenKind === null;

    const tagIds = new Set<number>();
    const hint = tagBySlug.get(text.tagHint);
    if (hint !== undefined) tagIds.add(hint);
    const productTag = tagBySlug.get(PRODUCTS.find((p) => p.name === storySlots.product)?.tag ?? '');
    if (productTag !== undefined && r.chance(0.6)) tagIds.add(productTag);
    const wanted = r.int(1, 4);
    for (let guard = 0; tagIds.size < wanted && guard < 20 && allTagIds.length > 0; guard++) tagIds.add(r.pick(allTagIds));

    const featured = r.sample(
      photoIds,
      r.weighted([
        [0, 15],
        [1, 55],
        [2, 20],
        [3, 10],
      ]),
    );
    const slug = slugify(title);

    let pdf: string | null = null;
    if (isPublic && r.chance(0.25)) {
      const pdfId = input.mediaIds.next();
      pdf = input.assets.add(`/media/documents/${pdfId}/original.pdf`, {
        kind: 'pdf',
        seed: hash32(input.seed, 'release-pdf', id),
        title,
        paragraphs: text.paragraphs,
      });
    }

    const minutes = Math.max(1, Math.round(text.words / 200));
    const updated =
      s.date === null
        ? now - 2 * DAY
        : s.date > now
          ? now - r.int(1, 5) * HOUR
          : Math.min(now - HOUR, s.date + (r.chance(0.6) ? r.int(0, 48 * 20) * 30 * MINUTE : r.int(1, 59) * MINUTE));
    const editorEra = s.date === null || s.date > now - 2.5 * YEAR;
    const draftEdits = isPublic && withDraftEdits.has(publicIndex++);

    const visibility =
      s.hiddenKind === null
        ? visible()
        : s.hiddenKind.startsWith('embargo')
          ? { ...visible(), _visibleFrom: iso(when) }
          : s.hiddenKind === 'private'
            ? hidden('published', { private: true })
            : s.hiddenKind === 'unpublished'
              ? hidden('unpublished')
              : hidden('draft');

    const release: PressRelease = {
      ...visibility,
      id,
      pressroom_id: COMPANY.pressroomId,
      title,
      subtitle: r.chance(0.65) ? text.subtitle : null,
      release_date: s.date === null ? null : iso(s.date),
      release_location: location,
      language: s.lang,
      social_media_pitch: r.chance(0.4) ? text.pitch : null,
      summary: r.chance(0.85) ? text.summary : null,
      body_html: text.bodyHtml,
      permalink: `/${id}-${slug}`,
      full_url: `${COMPANY.newsroomUrl}/${id}-${slug}`,
      short_link: `${COMPANY.shortLinkBase}/${(Math.imul(id, 0x9e3779b1) >>> 0).toString(36)}`,
      type: 'press_release',
      state: 'published',
      pdf,
      show_in_timeline: r.chance(0.9),
      show_boilerplate_text: r.chance(0.6),
      content_as_json: editorEra ? blocksJson(r, text.blocks) : null,
      draft_content_as_json: draftEdits ? draftBlocksJson(r, pack, text.title, text.blocks) : null,
      freeform_two: r.chance(0.1),
      reading_time: r.chance(0.3) ? String(minutes) : minutes,
      updated_at: iso(Math.max(updated, s.date !== null && s.date <= now ? s.date : 0)),
      _tagIds: [...tagIds].sort((a, b) => a - b),
      _featuredImageIds: featured,
    };
    releases.push(release);
    stories.push({ release, slots: storySlots, lang: s.lang });
  }
  return { releases, stories };
}
