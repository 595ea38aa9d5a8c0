/** Paths and grouping of the media kit, media library, coverage, event and contact sections. */
import { describe, expect, it } from 'vitest';
import { groupKitsByCategory } from '../../../src/lib/kit-tree.ts';
import {
  clippingHref,
  contactSegment,
  eventHref,
  eventIcsHref,
  itemSegment,
  mediaHref,
  mediaKitHref,
  permalinkSegments,
  slugify,
} from '../../../src/lib/paths.ts';

describe('item paths', () => {
  it('keeps the <id>-<slug> of a safe permalink and falls back to the id', () => {
    expect(mediaKitHref({ id: 840057, permalink: '/media_kits/840057-northwind-cargo-one-product-photos' })).toBe(
      '/media-kits/840057-northwind-cargo-one-product-photos/',
    );
    expect(mediaKitHref({ id: 840057, permalink: null })).toBe('/media-kits/840057/');
    expect(eventHref({ id: 700053, permalink: '/events/700053-cycle-logistics/' })).toBe('/events/700053-cycle-logistics/');
    expect(eventIcsHref({ id: 700053, permalink: '/events/700053-cycle-logistics' })).toBe('/events/700053-cycle-logistics.ics');
    for (const permalink of [
      '/events/../../etc',
      '/events/999-someone-else',
      '/events/700053-a b',
      '/events/700053-%2e%2e',
      '/events/.hidden',
      '/events/700053-x.ics',
      `/events/700053-${'a'.repeat(300)}`,
      '',
    ]) {
      expect(itemSegment({ id: 700053, permalink }), permalink).toBe('700053');
    }
  });

  it('names contact files from the name, transliterated to ASCII', () => {
    expect(contactSegment({ id: 820034, name: 'Juda de Koning' })).toBe('820034-juda-de-koning');
    expect(contactSegment({ id: 1, name: 'Zoë Ødegård-Müller' })).toBe('1-zoe-odegard-muller');
    expect(contactSegment({ id: 2, name: '../../' })).toBe('2');
    expect(slugify('東京')).toBe('dong-jing');
  });

  it('reserves the new sections so no release permalink can shadow them', () => {
    for (const first of ['media', 'media-kits', 'coverage', 'events', 'contacts']) expect(permalinkSegments(`/${first}/x`)).toBeNull();
  });

  it('puts each clipping on its coverage page with its anchor', () => {
    expect(clippingHref({ id: 5 }, null)).toBe('/coverage/#clipping-5');
    expect(clippingHref({ id: 6 }, 2)).toBe('/coverage/2/#clipping-6');
    expect(mediaHref()).toBe('/media/');
    expect(mediaHref('images', 2)).toBe('/media/images/2/');
  });
});

describe('groupKitsByCategory', () => {
  const cat = (id: number, position: number, depth: number, child_ids: number[] = [], ancestor_ids: number[] = []) => ({
    id,
    position,
    depth,
    child_ids,
    ancestor_ids,
    name: `c${id}`,
  });
  const kit = (id: number, category_id: number | null, position = 1) => ({ id, category_id, position });

  it('follows the tree in its positions, files kits by position, skips empty branches, puts the rest last', () => {
    const categories = [
      cat(2, 2, 0, [21, 22]),
      cat(1, 1, 0, [11]),
      cat(11, 1, 1, [], [1]),
      cat(22, 2, 1, [], [2]),
      cat(21, 1, 1, [], [2]),
      cat(3, 3, 0, []),
    ];
    const kits = [kit(100, 22, 2), kit(101, 22, 1), kit(102, 2), kit(103, null), kit(104, 999), kit(105, 21)];
    const groups = groupKitsByCategory(categories, kits);
    expect(groups.map((g) => [g.category?.id ?? null, g.depth, g.kits.map((k) => k.id)])).toEqual([
      [2, 0, [102]],
      [21, 1, [105]],
      [22, 1, [101, 100]],
      [null, 0, [103, 104]],
    ]);
  });

  it('shows a parent without kits of its own when a child has some, and survives a cycle', () => {
    const groups = groupKitsByCategory([cat(1, 1, 0, [2]), cat(2, 1, 1, [1], [1])], [kit(7, 2)]);
    expect(groups.map((g) => [g.category?.id, g.kits.map((k) => k.id)])).toEqual([
      [1, []],
      [2, [7]],
    ]);
  });
});
