/**
 * Media kits in a two-level category tree. Besides the ordinary kits: an
 * unpublished kit, an embargoed kit, a locked kit and a password-protected kit
 * (the last two published under ordinary titles, with media of their own that
 * nothing else uses, named LOCKED-KIT / PROTECTED-KIT so a leak is found), and
 * an unpublished and an embargoed category. A kit's description says what its
 * title promises: real usage rights, what is inside, or about the kit.
 */
import type { MediaItem, MediaKit, MediaKitCategory, MediaType, Tag } from '../model/types.ts';
import { COMPANY } from './company.ts';
import { DAY, HOUR, YEAR, between, iso } from './dates.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import { PACKS } from './language/index.ts';
import { fill, paragraph } from './markup.ts';
import { makeDocument, makeImage, type MediaContext, type MediaLibrary } from './media.ts';
import type { Rng } from '../model/random.ts';
import type { Plan } from './scale.ts';
import { slugify } from './slug.ts';
import { htmlParagraphs, releaseSlots } from './text.ts';
import { hidden, visible } from './visibility.ts';

const TREE: ReadonlyArray<readonly [string, string | null, readonly string[]]> = [
  ['Brand', 'Logos, colours and brand photography.', ['Logos & identity', 'Photography']],
  ['Products', 'Everything about our vehicles and services.', ['E-bikes', 'Cargo & logistics', 'Charging']],
  ['Corporate', null, ['Leadership', 'Reports']],
  ['Events', 'Trade fairs and launch events.', ['Trade fairs', 'Launch events']],
  ['Sustainability', null, ['Reports & data', 'Recycling']],
  ['Regional', 'Material for local press.', ['Netherlands', 'Germany']],
  ['Partners', null, ['Cities', 'Energy']],
  ['Archive', 'Older material, kept for reference.', ['Before 2022', 'Retired products']],
];

const THEMES: ReadonlyArray<{ title: string; prefer: readonly MediaType[] }> = [
  { title: 'Brand assets & logos', prefer: ['image', 'document'] },
  { title: '{product} product photos', prefer: ['image'] },
  { title: 'Leadership portraits', prefer: ['image'] },
  { title: 'Annual report {prevYear}', prefer: ['document', 'image'] },
  { title: '{product} launch kit', prefer: ['image', 'movie', 'document'] },
  { title: 'Factory & production', prefer: ['image', 'movie'] },
  { title: 'Northwind Hubs', prefer: ['image', 'video'] },
  { title: 'Sustainability report {prevYear}', prefer: ['document'] },
  { title: 'B-roll footage', prefer: ['movie', 'video'] },
  { title: 'Audio & podcast clips', prefer: ['sound', 'movie'] },
  { title: '{fair} {year}', prefer: ['image', 'video'] },
  { title: '{city} launch', prefer: ['image', 'document'] },
];

const DESCRIPTION_TITLES = ['About this media kit', 'What’s inside', 'Usage rights', null] as const;

/** What a press office writes under "Usage rights". */
const USAGE_RIGHTS: readonly string[] = [
  paragraph(
    'All photos, films and documents in this media kit may be used free of charge for editorial coverage of Northwind Mobility, its products and services. Please credit “Photo: Northwind Mobility” unless a file names its photographer.',
  ) +
    '\n' +
    paragraph(
      'Not for advertising or other commercial use, and not to be altered beyond cropping and resizing. For other uses, contact the press office.',
    ),
  paragraph(
    'Free for editorial use in print, online and broadcast, with the credit given in each file’s caption. Logos may be used only to refer to Northwind Mobility and only as supplied.',
  ) +
    '\n' +
    paragraph('Commercial use, including in advertising, requires written permission from the Northwind press office.'),
  paragraph(
    'These images are released for editorial use only, free of charge, until further notice. The photographer’s credit is part of each caption and must be shown with the image.',
  ),
];

const TYPE_NAMES: Readonly<Record<MediaType, readonly [string, string]>> = {
  image: ['photo', 'photos'],
  document: ['document', 'documents'],
  movie: ['film', 'films'],
  sound: ['audio clip', 'audio clips'],
  video: ['video', 'videos'],
};

/** "This kit holds 4 photos, 1 document and 1 film, each as its original file." */
function insideText(types: readonly MediaType[]): string {
  const counts = (Object.keys(TYPE_NAMES) as MediaType[])
    .map((type) => [type, types.filter((t) => t === type).length] as const)
    .filter(([, n]) => n > 0)
    .map(([type, n]) => `${n} ${TYPE_NAMES[type][n === 1 ? 0 : 1]}`);
  if (counts.length === 0) return paragraph('This kit is being prepared; its files follow shortly.');
  const listed = counts.length === 1 ? counts[0]! : `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)!}`;
  return paragraph(
    `This kit holds ${listed}, each as its original file in full resolution. Download them one by one or all at once as a zip.`,
  );
}

export interface KitInputs {
  rng: Rng;
  plan: Plan;
  now: number;
  tags: readonly Tag[];
  library: MediaLibrary;
  /** For the locked and protected kits' own (private) media. */
  mediaContext: MediaContext;
}

type Special = 'unpublished' | 'embargoed' | 'locked' | 'protected';

export function generateKits(input: KitInputs): { mediaKits: MediaKit[]; mediaKitCategories: MediaKitCategory[] } {
  const { rng, now, plan, library } = input;
  const catIds = new IdSequence(rng.fork('category-ids'), ID_BASE.mediaKitCategory, 4);
  const categories: MediaKitCategory[] = [];
  const children: MediaKitCategory[] = [];
  const tops: MediaKitCategory[] = [];
  const category = (
    name: string,
    description: string | null,
    parent: number | null,
    position: number,
    vis = visible(),
  ): MediaKitCategory => ({
    ...vis,
    id: catIds.next(),
    pressroom_id: COMPANY.pressroomId,
    name,
    description,
    parent_id: parent,
    position,
    image_id: rng.chance(0.5) && library.photos.length > 0 ? rng.pick(library.photos).id : null,
    created_by: ID_BASE.user + rng.int(1, 12),
  });

  TREE.slice(0, plan.topCategories).forEach(([name, description, kids], i) => {
    const top = category(name, description, null, i + 1);
    categories.push(top);
    tops.push(top);
    rng.sample(kids, rng.int(1, 2)).forEach((kid, j) => {
      const child = category(kid, null, top.id, j + 1);
      categories.push(child);
      children.push(child);
    });
  });
  const productsTop = tops[1] ?? tops[0];
  if (productsTop) {
    const siblings = categories.filter((c) => c.parent_id === productsTop.id).length;
    categories.push(
      category('EMBARGOED: Next launch', 'Material for an announcement that is still under embargo.', productsTop.id, siblings + 1, {
        ...visible(),
        _visibleFrom: iso(now + 2 * DAY),
      }),
    );
  }
  categories.push(category('UNPUBLISHED: Old campaigns', null, null, tops.length + 1, hidden('unpublished')));

  // Kits: ordinary ones, then the four special ones.
  const kitIds = new IdSequence(rng.fork('kit-ids'), ID_BASE.mediaKit, 6);
  const specials: Special[] = ['unpublished', 'embargoed', 'locked', 'protected'];
  const slots: Array<{ special: Special | null; created: number }> = [];
  for (let i = 0; i < plan.kits; i++) slots.push({ special: null, created: between(rng, now - 3 * YEAR, now - 3 * DAY) });
  for (const special of specials) slots.push({ special, created: between(rng, now - 60 * DAY, now - DAY) });
  slots.sort((a, b) => a.created - b.created);

  // Snapshots: the locked kits add private media to the library as we go, and those must stay theirs alone.
  const shareable = (items: readonly MediaItem[]): MediaItem[] => items.filter((m) => !m._private);
  const pools: Record<MediaType, readonly MediaItem[]> = {
    image: shareable(library.images),
    document: shareable(library.documents),
    movie: shareable(library.movies),
    sound: shareable(library.sounds),
    video: shareable(library.videos),
  };
  const everything = [...pools.image, ...pools.document, ...pools.movie, ...pools.sound, ...pools.video];
  const tagIds = input.tags.map((t) => t.id);
  const positions = new Map<number | null, number>();
  const usedTitles = new Set<string>();
  const typeOf = new Map<number, MediaType>();
  const typeOfAll = () => {
    for (const list of [library.images, library.documents, library.movies, library.sounds, library.videos])
      for (const m of list) typeOf.set(m.id, m.type);
  };
  typeOfAll();

  const kits = slots.map(({ special, created }) => {
    const id = kitIds.next();
    const r = rng.fork('kit', id);
    const slots = releaseSlots(r, PACKS.en, created, input.mediaContext.people);
    // Re-draw a few times rather than repeat a title.
    let theme = r.pick(THEMES);
    let base = fill(theme.title, slots);
    for (let tries = 0; usedTitles.has(base) && tries < 8; tries++) {
      theme = r.pick(THEMES);
      base = fill(theme.title, { ...slots, ...releaseSlots(r, PACKS.en, created, input.mediaContext.people) });
    }
    usedTitles.add(base);
    const title =
      special === 'unpublished'
        ? `UNPUBLISHED: ${base}`
        : special === 'embargoed'
          ? `EMBARGOED: ${base}`
          : special === 'locked'
            ? `Investor relations ${slots.prevYear}`
            : special === 'protected'
              ? `Dealer price lists ${slots.year}`
              : base;

    let mediaIds: number[];
    if (special === 'locked' || special === 'protected') {
      mediaIds = ownMedia(input, r, special, created);
      typeOfAll();
    } else {
      const wanted = r.int(2, 8);
      const picked = new Set<number>();
      for (let guard = 0; picked.size < wanted && guard < 50; guard++) {
        const pool = r.chance(0.75) ? pools[r.pick(theme.prefer)] : everything;
        if (pool.length > 0) picked.add(r.pick(pool).id);
      }
      mediaIds = [...picked];
    }

    const categoryId = r.weighted([
      [children, 65],
      [tops, 25],
      [[] as MediaKitCategory[], 10],
    ] as const);
    const cat = categoryId.length > 0 ? r.pick(categoryId).id : null;
    const position = (positions.get(cat) ?? 0) + 1;
    positions.set(cat, position);
    const descriptionTitle = r.pick(DESCRIPTION_TITLES);
    const describe = (heading: (typeof DESCRIPTION_TITLES)[number]): string =>
      heading === 'Usage rights'
        ? r.pick(USAGE_RIGHTS)
        : heading === 'What’s inside'
          ? insideText(mediaIds.map((mediaId) => typeOf.get(mediaId)!).filter(Boolean))
          : htmlParagraphs(r, PACKS.en, slots, r.int(1, 2), r.chance(0.3));
    const vis =
      special === 'unpublished'
        ? hidden('unpublished')
        : special === 'embargoed'
          ? { ...visible(), _visibleFrom: iso(now + 5 * DAY) }
          : visible();
    const kit: MediaKit = {
      ...vis,
      id,
      pressroom_id: COMPANY.pressroomId,
      title,
      description_title: descriptionTitle,
      description: r.chance(0.8) ? describe(descriptionTitle) : null,
      category_id: cat,
      position,
      is_locked: special === 'locked',
      is_password_protected: special === 'protected',
      permalink: `/media_kits/${id}-${slugify(title)}`,
      created_at: iso(created),
      updated_at: iso(Math.min(now - HOUR, created + r.int(0, 30) * DAY)),
      _mediaIds: mediaIds,
      _tagIds: r.sample(tagIds, r.int(0, 2)).sort((a, b) => a - b),
    };
    return kit;
  });
  return { mediaKits: kits, mediaKitCategories: categories };
}

/** Media only a locked / protected kit holds: private in the library, so nothing public ever shows them. */
function ownMedia(input: KitInputs, rng: Rng, special: 'locked' | 'protected', created: number): number[] {
  const label = special === 'locked' ? 'LOCKED-KIT' : 'PROTECTED-KIT';
  const ctx = input.mediaContext;
  const lib = input.library;
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) {
    const doc = makeDocument(ctx, created, { title: `${label} confidential document ${i + 1}`, private: true });
    lib.documents.push(doc);
    ids.push(doc.id);
  }
  const count = rng.int(1, 2);
  for (let i = 0; i < count; i++) {
    const { item } = makeImage(ctx, 'photo', created, { title: `${label} confidential image ${i + 1}`, private: true });
    lib.images.push(item);
    ids.push(item.id);
  }
  return ids;
}
