/**
 * How many of everything a world holds for a given scale (= number of press
 * releases). Only clippings grow linearly; the rest grows sub-linearly, as in
 * real newsrooms where a big archive still has one logo and a few dozen tags.
 */
import { MIN_IMAGES, MIN_KITS } from '../defaults.ts';
import { TAG_SEEDS } from './company.ts';

export interface Plan {
  releases: number;
  /** Embargoed, private, draft and unpublished releases (part of `releases`). */
  hiddenReleases: number;
  tags: number;
  images: number;
  documents: number;
  movies: number;
  sounds: number;
  videos: number;
  clippings: number;
  pastEvents: number;
  upcomingEvents: number;
  /** Published, visible media kits (the special hidden/locked kits come on top). */
  kits: number;
  topCategories: number;
}

/** Counts set on their own instead of grown from the scale (the emulator's `--images` and `--kits`). */
export interface PlanOverrides {
  /** Images of the library (photos, portraits and cut-outs; the locked kits' private media come on top). */
  images?: number;
  /** Published, visible media kits (the four special kits come on top). */
  kits?: number;
}

export function planFor(scale: number, overrides: PlanOverrides = {}): Plan {
  const releases = Math.max(1, Math.floor(scale));
  const r = releases / 60;
  const grow = (atDemo: number, exponent: number, min: number): number => Math.max(min, Math.round(atDemo * r ** exponent));
  return {
    releases,
    hiddenReleases: Math.min(6, Math.floor(releases / 3)),
    tags: Math.min(TAG_SEEDS.length, grow(15, 0.19, 5)),
    images: overrides.images ?? grow(50, 0.45, MIN_IMAGES),
    documents: grow(8, 0.35, 3),
    movies: grow(4, 0.3, 2),
    sounds: grow(3, 0.3, 2),
    videos: grow(4, 0.3, 2),
    clippings: Math.max(4, Math.round(releases / 2)),
    pastEvents: grow(8, 0.5, 2),
    upcomingEvents: grow(4, 0.4, 2),
    kits: overrides.kits ?? grow(8, 0.35, MIN_KITS),
    topCategories: Math.min(8, 3 + Math.max(0, Math.floor(Math.log2(Math.max(1, r)) / 2))),
  };
}
