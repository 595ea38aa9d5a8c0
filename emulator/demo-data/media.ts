/**
 * The media library: images (photos, portraits, transparent PNG cut-outs),
 * documents (real PDFs), movies (mp4/webm), sounds (wav) and embedded platform
 * videos. Items share one id space; every rendition and file is registered as
 * an asset under `/media/<kind>/<id>/…`.
 */
import type { IsoDate, MediaItem, MediaType, Sizes } from '../model/types.ts';
import { AssetRegistry, DOCUMENT_THUMB_RENDITIONS, LIBRARY_RENDITIONS, POSTER_RENDITIONS, type Picture } from './assets.ts';
import { CITIES, COMPANY, FAIRS, PRODUCTS } from './company.ts';
import { DAY, YEAR, iso, sortedInstants } from './dates.ts';
import type { IdSequence } from './ids.ts';
import { PACKS } from './language/index.ts';
import type { Lang } from './language/pack.ts';
import { fill } from './markup.ts';
import type { People } from './people.ts';
import { wavByteLength } from '../media/audio.ts';
import { hash32, type Rng } from '../model/random.ts';
import type { Plan } from './scale.ts';
import { slugify } from './slug.ts';
import { plainParagraphs, releaseSlots, type InlineImage } from './text.ts';
import { visible } from './visibility.ts';

export interface MediaContext {
  seed: number;
  rng: Rng;
  assets: AssetRegistry;
  ids: IdSequence;
  people: People;
  tagIds: readonly number[];
  now: number;
}

export interface MediaLibrary {
  images: MediaItem[];
  documents: MediaItem[];
  movies: MediaItem[];
  sounds: MediaItem[];
  videos: MediaItem[];
  /** Public images for featured and inline use, with alt text. */
  photos: InlineImage[];
}

type ImageKind = 'photo' | 'portrait' | 'cutout';

const PHOTO_SUBJECTS = [
  '{product} on a canal bridge in Amsterdam',
  '{product} at a Northwind Hub in {city}',
  'Rider on {product} in {city}',
  'Family with {product} on a bike path near {city}',
  'Assembly line at the Eindhoven plant',
  'Northwind Hub at dusk, {city}',
  'Battery pack close-up',
  'Delivery rider with {product} in {city}',
  'Team photo, Northwind office {city}',
  'Aerial view of a Northwind Hub in {city}',
  'Technician servicing {product}',
  'Row of {product} vehicles at sunrise',
  'Commuters on {product} in the rain, {city}',
  'Northwind stand at {fair}',
];
const CUTOUT_SUBJECTS = [
  '{product}, side view, cut-out',
  '{product}, front three-quarter view, cut-out',
  'Northwind logo, white',
  'Northwind logo, dark',
  'Northwind app icon',
  'Battery pack, cut-out',
];
/** Who took the pictures: agency and freelance photographers, and the in-house team. */
const PHOTOGRAPHERS = [
  'Sanne Visser for Northwind Mobility',
  'Jonas Weber for Northwind Mobility',
  'Lotte de Groot / Northwind Mobility',
  'Mathieu Laurent / ANP for Northwind Mobility',
  'Northwind Mobility',
];
const USAGE_LINES = ['Free for editorial use.', 'Free for editorial use with credit; no commercial use.', 'Editorial use only.'];
const CUTOUT_CREDITS = [
  'Image: Northwind Mobility. Free for editorial use; do not alter.',
  'Image: Northwind Mobility. Free for editorial and commercial use with credit.',
];

const PHOTO_RATIOS: ReadonlyArray<readonly [readonly [number, number], number]> = [
  [[3, 2], 30],
  [[4, 3], 15],
  [[16, 9], 20],
  [[2, 3], 10],
  [[3, 4], 8],
  [[4, 5], 5],
  [[1, 1], 8],
  [[21, 9], 4],
];
const PORTRAIT_RATIOS: ReadonlyArray<readonly [readonly [number, number], number]> = [
  [[2, 3], 5],
  [[4, 5], 3],
  [[3, 4], 2],
];
const CUTOUT_RATIOS: ReadonlyArray<readonly [readonly [number, number], number]> = [
  [[1, 1], 4],
  [[4, 3], 3],
  [[3, 2], 3],
];

function base(ctx: MediaContext, id: number, type: MediaType, created: number, rng: Rng) {
  const updated = Math.min(ctx.now - DAY / 2, created + rng.int(0, 10) * DAY);
  return {
    ...visible(),
    id,
    pressroom_id: COMPANY.pressroomId,
    type,
    created_at: iso(created),
    updated_at: iso(Math.max(created, updated)) as IsoDate,
    _tagIds: rng
      .sample(
        ctx.tagIds,
        rng.weighted([
          [0, 3],
          [1, 5],
          [2, 2],
        ]),
      )
      .sort((a, b) => a - b),
  };
}

function dims(rng: Rng, ratios: typeof PHOTO_RATIOS, minLong: number, maxLong: number): { width: number; height: number } {
  const [a, b] = rng.weighted(ratios);
  const long = rng.int(minLong / 8, maxLong / 8) * 8;
  const short = Math.round((long * Math.min(a, b)) / Math.max(a, b));
  return a >= b ? { width: long, height: short } : { width: short, height: long };
}

function subjectSlots(rng: Rng, people: People): Record<string, string> {
  const exec = rng.pick(people.executives);
  return {
    product: rng.pick(PRODUCTS).name,
    city: rng.pick(CITIES).name.en,
    fair: rng.pick(FAIRS),
    person: exec.name,
    position: exec.position,
  };
}

export function makeImage(
  ctx: MediaContext,
  kind: ImageKind,
  created: number,
  opts: { title?: string; private?: boolean } = {},
): { item: MediaItem; alt: string } {
  const id = ctx.ids.next();
  const rng = ctx.rng.fork('image', id);
  const slots = subjectSlots(rng, ctx.people);
  const subject =
    opts.title ??
    fill(kind === 'portrait' ? 'Portrait of {person}, {position}' : rng.pick(kind === 'cutout' ? CUTOUT_SUBJECTS : PHOTO_SUBJECTS), slots);
  const png = kind === 'cutout';
  const { width, height } = png
    ? dims(rng, CUTOUT_RATIOS, 1200, 2400)
    : dims(rng, kind === 'portrait' ? PORTRAIT_RATIOS : PHOTO_RATIOS, 1400, 4000);
  const ext = png ? 'png' : 'jpg';
  // A captioned picture is titled like one; an uncaptioned one often keeps its file's name, as uploads do.
  const captioned = rng.chance(0.7);
  const titleStyle = captioned
    ? 'subject'
    : rng.weighted([
        ['subject', 5],
        ['file', 4],
        ['camera', 1],
      ] as const);
  const title =
    opts.title ??
    (titleStyle === 'subject' ? subject : titleStyle === 'file' ? `${slugify(subject, 60)}.${ext}` : `DSC_${rng.int(1000, 9999)}.${ext}`);
  const credit = kind === 'cutout' ? rng.pick(CUTOUT_CREDITS) : `Photo: ${rng.pick(PHOTOGRAPHERS)}. ${rng.pick(USAGE_LINES)}`;
  const picture: Picture = {
    seed: hash32(ctx.seed, 'picture', id),
    label: subject,
    format: png ? 'png' : 'jpeg',
    transparent: png,
    width,
    height,
  };
  const sizes = ctx.assets.image(`/media/images/${id}`, picture, LIBRARY_RENDITIONS);
  const item: MediaItem = {
    ...base(ctx, id, 'image', created, rng),
    ...(opts.private ? { _private: true } : {}),
    title,
    description: captioned ? `${subject}. ${credit}` : null,
    content_type: png ? 'png' : 'jpeg',
    permalink: `/images/${id}`,
    transparent: png,
    file_size: Math.round(width * height * (png ? rng.range(0.8, 1.6) : rng.range(0.25, 0.5))),
    sizes,
  };
  return { item, alt: subject };
}

const DOCUMENT_TITLES: ReadonlyArray<readonly [string, Lang]> = [
  ['Northwind Annual Report {prevYear}', 'en'],
  ['Sustainability Report {prevYear}', 'en'],
  ['Fact sheet {product}', 'en'],
  ['Technical specifications {product}', 'en'],
  ['Brand guidelines v{count}', 'en'],
  ['Company profile Northwind Mobility', 'en'],
  ['Persmap {product}', 'nl'],
  ['Pressemappe {product}', 'de'],
  ['Safety notice {product} battery', 'en'],
  ['Press kit {fair} {year}', 'en'],
];

export function makeDocument(ctx: MediaContext, created: number, opts: { title?: string; private?: boolean } = {}): MediaItem {
  const id = ctx.ids.next();
  const rng = ctx.rng.fork('document', id);
  const [template, lang] = rng.pick(DOCUMENT_TITLES);
  const pack = PACKS[lang];
  const slots = releaseSlots(rng, pack, created, ctx.people);
  const name = opts.title ?? fill(template, slots);
  const url = ctx.assets.add(`/media/documents/${id}/original.pdf`, {
    kind: 'pdf',
    seed: hash32(ctx.seed, 'pdf', id),
    title: name,
    paragraphs: plainParagraphs(rng, pack, slots, rng.int(3, 5)),
  });
  const thumb: Picture = {
    seed: hash32(ctx.seed, 'doc-thumb', id),
    label: name,
    format: 'jpeg',
    transparent: false,
    width: 1240,
    height: 1754,
  };
  const sizes: Sizes = ctx.assets.image(`/media/documents/${id}`, thumb, DOCUMENT_THUMB_RENDITIONS);
  return {
    ...base(ctx, id, 'document', created, rng),
    ...(opts.private ? { _private: true } : {}),
    title: `${name}.pdf`,
    description: rng.chance(0.5) ? name : null,
    content_type: 'pdf',
    permalink: `/documents/${id}`,
    transparent: false,
    file_size: rng.int(80_000, 4_500_000),
    sizes,
    url,
    has_thumb: true,
  };
}

const MOVIE_TITLES = [
  '{product} launch film',
  'B-roll: {product} in {city}',
  'Interview with {person}',
  'Northwind Hub opening, timelapse',
  'Social cut 9x16, {product}',
  'Factory tour Eindhoven',
  'How to fold the {product}',
];

function makeMovie(ctx: MediaContext, created: number): MediaItem {
  const id = ctx.ids.next();
  const rng = ctx.rng.fork('movie', id);
  const template = rng.pick(MOVIE_TITLES);
  const name = fill(template, subjectSlots(rng, ctx.people));
  const vertical = template.includes('9x16');
  const poster: Picture = {
    seed: hash32(ctx.seed, 'poster', id),
    label: name,
    format: 'jpeg',
    transparent: false,
    width: vertical ? 1080 : 1920,
    height: vertical ? 1920 : 1080,
  };
  const dir = `/media/movies/${id}`;
  const sizes = ctx.assets.image(dir, poster, POSTER_RENDITIONS);
  const mp4 = ctx.assets.add(`${dir}/original.mp4`, { kind: 'video', format: 'mp4' });
  const webm = ctx.assets.add(`${dir}/original.webm`, { kind: 'video', format: 'webm' });
  const duration = rng.int(15, 240);
  return {
    ...base(ctx, id, 'movie', created, rng),
    title: name,
    description: rng.chance(0.6)
      ? `${vertical ? 'Vertical (9:16)' : 'Landscape (16:9)'} video, ${duration} seconds. Free to use in reporting on Northwind Mobility.`
      : null,
    content_type: 'mp4',
    permalink: `/movies/${id}`,
    transparent: false,
    file_size: duration * rng.int(400_000, 900_000),
    sizes,
    url: mp4,
    mp4_url: mp4,
    webm_url: webm,
    thumbnail_url: sizes.thumbnail.url,
    duration,
  };
}

const SOUND_TITLES = [
  'Radio spot {product}',
  'Podcast teaser',
  'Soundbite {person}',
  'City ambience {city}',
  'Motor sound {product}',
  'Northwind jingle',
];

function makeSound(ctx: MediaContext, created: number): MediaItem {
  const id = ctx.ids.next();
  const rng = ctx.rng.fork('sound', id);
  const name = fill(rng.pick(SOUND_TITLES), subjectSlots(rng, ctx.people));
  const seconds = rng.int(3, 12);
  const url = ctx.assets.add(`/media/sounds/${id}/original.wav`, { kind: 'audio', seed: hash32(ctx.seed, 'audio', id), seconds });
  return {
    ...base(ctx, id, 'sound', created, rng),
    title: name,
    description: rng.chance(0.5) ? `Audio, ${seconds} seconds. Free to use in reporting on Northwind Mobility.` : null,
    content_type: 'wav',
    permalink: `/sounds/${id}`,
    transparent: false,
    // The size of the WAV the emulator serves for it.
    file_size: wavByteLength(seconds),
    sizes: {},
    url,
    duration: seconds,
  };
}

const VIDEO_TITLES = [
  '{product}: official trailer',
  'Northwind at {fair}',
  'Ride along: {product} in {city}',
  'Meet the team: {person}',
  'How Northwind Hubs work',
  'Customer story: {city}',
];
const YT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function makeVideo(ctx: MediaContext, created: number): MediaItem {
  const id = ctx.ids.next();
  const rng = ctx.rng.fork('video', id);
  const name = fill(rng.pick(VIDEO_TITLES), subjectSlots(rng, ctx.people));
  const provider = rng.weighted([
    ['youtube', 7],
    ['vimeo', 3],
  ] as const);
  let embed: string;
  let url: string;
  if (provider === 'youtube') {
    let key = '';
    for (let i = 0; i < 11; i++) key += YT_ALPHABET[rng.int(0, 63)];
    embed = `https://www.youtube-nocookie.com/embed/${key}`;
    url = `https://www.youtube.com/watch?v=${key}`;
  } else {
    const key = String(rng.int(100_000_000, 999_999_999));
    embed = `https://player.vimeo.com/video/${key}`;
    url = `https://vimeo.com/${key}`;
  }
  const poster: Picture = {
    seed: hash32(ctx.seed, 'video-thumb', id),
    label: name,
    format: 'jpeg',
    transparent: false,
    width: 1280,
    height: 720,
  };
  const sizes = ctx.assets.image(`/media/videos/${id}`, poster, POSTER_RENDITIONS);
  return {
    ...base(ctx, id, 'video', created, rng),
    title: name,
    description: rng.chance(0.5) ? `${name}. Watch on ${provider === 'youtube' ? 'YouTube' : 'Vimeo'}.` : null,
    content_type: provider,
    permalink: `/videos/${id}`,
    transparent: false,
    file_size: 0,
    sizes,
    url,
    thumbnail_url: sizes.thumbnail.url,
    provider,
    embed_url: embed,
    duration: rng.int(30, 600),
  };
}

export function generateMedia(ctx: MediaContext, plan: Plan): MediaLibrary {
  const rng = ctx.rng.fork('library');
  const cutouts = Math.max(2, Math.round(plan.images * 0.1));
  const portraits = Math.max(2, Math.round(plan.images * 0.1));
  const kinds: Array<MediaType | ImageKind> = [
    ...Array<ImageKind>(cutouts).fill('cutout'),
    ...Array<ImageKind>(portraits).fill('portrait'),
    ...Array<ImageKind>(Math.max(0, plan.images - cutouts - portraits)).fill('photo'),
    ...Array<MediaType>(plan.documents).fill('document'),
    ...Array<MediaType>(plan.movies).fill('movie'),
    ...Array<MediaType>(plan.sounds).fill('sound'),
    ...Array<MediaType>(plan.videos).fill('video'),
  ];
  const order = rng.shuffle(kinds);
  // Uploaded over the three years before now; ids grow with upload time.
  const times = sortedInstants(rng, order.length, ctx.now - 3 * YEAR - 60 * DAY, ctx.now - 2 * DAY);
  const lib: MediaLibrary = { images: [], documents: [], movies: [], sounds: [], videos: [], photos: [] };
  order.forEach((kind, i) => {
    const created = times[i] ?? ctx.now - 2 * DAY;
    switch (kind) {
      case 'photo':
      case 'portrait':
      case 'cutout': {
        const { item, alt } = makeImage(ctx, kind, created);
        lib.images.push(item);
        const large = item.sizes.large;
        if (large) lib.photos.push({ id: item.id, url: large.url, width: large.width, height: large.height, alt });
        break;
      }
      case 'document':
        lib.documents.push(makeDocument(ctx, created));
        break;
      case 'movie':
        lib.movies.push(makeMovie(ctx, created));
        break;
      case 'sound':
        lib.sounds.push(makeSound(ctx, created));
        break;
      case 'video':
        lib.videos.push(makeVideo(ctx, created));
        break;
      case 'image':
        break;
    }
  });
  return lib;
}
