/** Tags: landing pages with a name, description, layout, and (mostly) a square image and a wide hero banner. */
import type { Tag } from '../model/types.ts';
import { AssetRegistry, HERO_RENDITIONS, LIBRARY_RENDITIONS } from './assets.ts';
import { COMPANY, TAG_SEEDS } from './company.ts';
import { ID_BASE, IdSequence } from './ids.ts';
import { hash32, type Rng } from '../model/random.ts';

const LAYOUTS = [
  ['default', 6],
  ['grid', 3],
  ['list', 2],
] as const;

export function generateTags(rng: Rng, seed: number, count: number, assets: AssetRegistry): Tag[] {
  const ids = new IdSequence(rng.fork('ids'), ID_BASE.tag, 6);
  return TAG_SEEDS.slice(0, count).map((t, i) => {
    const id = ids.next();
    const r = rng.fork('tag', t.slug);
    // Every fourth tag has no pictures at all.
    const pictured = i % 4 !== 3;
    const image = pictured
      ? assets.image(
          `/media/tags/${id}/image`,
          {
            seed: hash32(seed, 'tag-image', id),
            label: t.name,
            format: 'jpeg',
            transparent: false,
            width: r.int(150, 300) * 8,
            height: r.int(150, 300) * 8,
          },
          LIBRARY_RENDITIONS,
        )
      : null;
    const hero =
      pictured && r.chance(0.8)
        ? assets.image(
            `/media/tags/${id}/hero`,
            {
              seed: hash32(seed, 'tag-hero', id),
              label: t.name,
              format: 'jpeg',
              transparent: false,
              width: 2400,
              height: r.pick([600, 800, 1000]),
            },
            HERO_RENDITIONS,
          )
        : null;
    return {
      id,
      pressroom_id: COMPANY.pressroomId,
      slug: t.slug,
      name: t.name,
      description: t.description,
      layout: r.weighted(LAYOUTS),
      image,
      hero_image: hero,
    };
  });
}
