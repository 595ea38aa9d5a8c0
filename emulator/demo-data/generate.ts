/**
 * Entry point: `generateWorld({seed, scale, now})` builds the whole demo press
 * room. Pure and deterministic — the same options give a deep-equal world —
 * because every random choice comes from an `Rng` forked off the seed, and
 * every instant is computed from `options.now`.
 */
import type { GenerateOptions, World } from '../model/types.ts';
import { AssetRegistry } from './assets.ts';
import { generateClippings } from './clippings.ts';
import { generateContacts } from './contacts.ts';
import { generateEvents, generateLiveEvents } from './events.ts';
import { linkHiddenItems } from './hidden-links.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import { generateKits } from './kits.ts';
import { generateMedia, type MediaContext } from './media.ts';
import { generatePages } from './pages.ts';
import { makePeople } from './people.ts';
import { generatePressroom } from './pressroom.ts';
import { Rng, hash32 } from '../model/random.ts';
import { generateReleases } from './releases.ts';
import { MIN_IMAGES, MIN_KITS } from '../defaults.ts';
import { planFor } from './scale.ts';
import { generateTags } from './tags.ts';

export { DEMO_SCALE, DEMO_SEED } from '../defaults.ts';

export function generateWorld(options: GenerateOptions): World {
  const now = options.now.getTime();
  if (!Number.isFinite(now)) throw new Error('generateWorld: options.now is not a valid date');
  if (!Number.isFinite(options.scale) || options.scale < 1) throw new Error('generateWorld: options.scale must be ≥ 1');
  for (const [knob, min] of [
    ['images', MIN_IMAGES],
    ['kits', MIN_KITS],
  ] as const) {
    const n = options[knob];
    if (n !== undefined && !(Number.isSafeInteger(n) && n >= min))
      throw new Error(`generateWorld: options.${knob} must be an integer ≥ ${min}`);
  }
  const seed = hash32('northwind-demo', options.seed);
  const root = new Rng(seed);
  const plan = planFor(options.scale, { images: options.images, kits: options.kits });
  const assets = new AssetRegistry();

  const people = makePeople(seed, root.fork('people'));
  const pressroom = generatePressroom(root.fork('pressroom'), seed, now, assets);
  const tags = generateTags(root.fork('tags'), seed, plan.tags, assets);

  const mediaContext: MediaContext = {
    seed,
    rng: root.fork('media'),
    assets,
    ids: new IdSequence(root.fork('media-ids'), ID_BASE.media, 4),
    people,
    tagIds: tags.map((t) => t.id),
    now,
  };
  const library = generateMedia(mediaContext, plan);

  const { releases, stories } = generateReleases({
    rng: root.fork('releases'),
    seed,
    plan,
    now,
    people,
    tags,
    photos: library.photos,
    assets,
    mediaIds: mediaContext.ids,
  });
  const clippings = generateClippings({
    rng: root.fork('clippings'),
    seed,
    count: plan.clippings,
    now,
    people,
    tags,
    stories,
    assets,
  });
  const { events, slots: eventSlots } = generateEvents({
    rng: root.fork('events'),
    plan,
    now,
    people,
    tags,
    photoIds: library.photos.map((p) => p.id),
  });
  const liveEvents = generateLiveEvents(root.fork('live-events'), now, people, events, eventSlots);
  const pages = generatePages(root.fork('pages'), now, tags);
  const prContacts = generateContacts(root.fork('contacts'), seed, people, assets);
  const { mediaKits, mediaKitCategories } = generateKits({ rng: root.fork('kits'), plan, now, tags, library, mediaContext });

  const world: World = {
    seed: options.seed,
    scale: options.scale,
    pressroom,
    pressReleases: releases,
    clippings,
    events,
    liveEvents,
    pages,
    prContacts,
    mediaKits,
    mediaKitCategories,
    tags,
    images: library.images,
    movies: library.movies,
    videos: library.videos,
    sounds: library.sounds,
    documents: library.documents,
    assets: assets.assets,
  };
  linkHiddenItems(world, options.now);
  return world;
}
