/**
 * One owner per path, and no item left without a page: rightful owners keep
 * their paths (a release whose permalink starts with its own id; custom pages
 * under /pages/; the lower tag id), every other claimant is published at a path
 * from its id with a reported move, and paths are compared as case-insensitive
 * storage compares them (without case, after NFC). Names no file system or
 * archive can hold as a folder never become one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CollectionEntry } from 'astro:content';
import { isPortableSegment, permalinkSegments, tagHref } from '../../../src/lib/paths.ts';
import {
  claimOwnReleasePaths,
  createPathClaims,
  placePages,
  placeReleases,
  placeTags,
  type PathMove,
} from '../../../src/lib/site-paths.ts';

const release = (id: number, permalink: string, daysAgo = id) =>
  ({
    id: String(id),
    collection: 'pressReleases',
    data: {
      id,
      permalink,
      title: `Release ${id}`,
      release_date: new Date(Date.UTC(2026, 0, 1) - daysAgo * 86_400_000).toISOString(),
      body: { html: `<p>Body of ${id}</p>` },
      featured_images: [],
    },
  }) as unknown as CollectionEntry<'pressReleases'>;

const page = (id: number, permalink: string, slug: string, position = id) =>
  ({ id: String(id), collection: 'pages', data: { id, permalink, slug, position } }) as unknown as CollectionEntry<'pages'>;

const tag = (id: number, slug: string, name = slug) =>
  ({ id: slug, collection: 'tags', data: { id, slug, name } }) as unknown as CollectionEntry<'tags'>;

async function placeAll(
  releases: CollectionEntry<'pressReleases'>[],
  pages: CollectionEntry<'pages'>[] = [],
  tags: CollectionEntry<'tags'>[] = [],
) {
  const moves: PathMove[] = [];
  const claims = createPathClaims((move) => moves.push(move));
  const owned = claimOwnReleasePaths(releases, claims);
  const placedPages = placePages(pages, claims);
  const placedReleases = await placeReleases(releases, claims, owned);
  const placedTags = placeTags(tags, claims, 'en');
  const hrefOf = new Map<string, string>([
    ...placedReleases.map((r) => [`release ${r.id}`, r.href] as const),
    ...placedPages.map((p) => [`page ${p.id}`, p.href] as const),
    ...placedTags.map((t) => [`tag ${t.id}`, t.href] as const),
  ]);
  return { moves, hrefOf, placedReleases, placedPages, placedTags };
}

describe('one owner per path', () => {
  it('gives a release path to the release whose id it starts with, whichever is newer, and the claimant its id path', async () => {
    const { moves, hrefOf } = await placeAll([release(100, '/100-launch', 5), release(200, '/100-launch', 1)]);
    expect(hrefOf.get('release 100')).toBe('/100-launch/');
    expect(hrefOf.get('release 200')).toBe('/200/');
    expect(moves).toEqual([
      {
        collection: 'pressReleases',
        itemId: '200',
        field: 'permalink',
        value: '/100-launch',
        reason: 'its path /100-launch/ belongs to press release 100',
        href: '/200/',
      },
    ]);
  });

  it('keeps /pages/ for custom pages: a release there is published at its id path, the page keeps its own', async () => {
    const { moves, hrefOf } = await placeAll([release(300, '/pages/about-us')], [page(7, '/pages/about-us', 'about-us')]);
    expect(hrefOf.get('page 7')).toBe('/pages/about-us/');
    expect(hrefOf.get('release 300')).toBe('/300/');
    expect(moves.map((m) => [m.itemId, m.reason])).toEqual([['300', 'not a safe path']]);
  });

  it('gives a page whose path a release rightfully holds a path from its slug, then its id', async () => {
    const { hrefOf, moves } = await placeAll(
      [release(400, '/400-news')],
      [page(8, '/400-news', 'news-page'), page(9, '/400-news', '../x'), page(10, '/pages/news-page', 'other')],
    );
    expect(hrefOf.get('release 400')).toBe('/400-news/');
    expect(hrefOf.get('page 8')).toBe('/pages/news-page/');
    expect(hrefOf.get('page 9')).toBe('/pages/9/');
    expect(hrefOf.get('page 10')).toBe('/pages/other/');
    expect(moves.map((m) => m.itemId)).toEqual(['8', '9', '10']);
  });

  it('never drops an item: when every fallback is taken the last one is numbered', async () => {
    const { hrefOf, placedReleases } = await placeAll([release(500, '/600', 3), release(600, '/600-x', 2), release(700, '/500', 1)]);
    // 700 asks for /500/, the fallback of 500 (whose own ask, /600, is free): one of them is numbered, none is lost.
    expect(placedReleases).toHaveLength(3);
    expect(new Set(hrefOf.values()).size).toBe(3);
  });

  it('compares paths without case and after NFC, as case-insensitive storage would', async () => {
    const { hrefOf, moves } = await placeAll([release(800, '/800-X-Case', 2), release(801, '/800-x-case', 1)]);
    expect(hrefOf.get('release 800')).toBe('/800-X-Case/');
    expect(hrefOf.get('release 801')).toBe('/801/');
    expect(moves[0]?.reason).toBe('its path /800-x-case/ belongs to press release 800');

    const claims = createPathClaims(() => {});
    expect(claims.claim('/caf\u00e9/', 'one')).toBe(true);
    expect(claims.claim('/CAFE\u0301/', 'two')).toBe(false);
  });

  it('keeps a tag slug for the lower id and places its case twin at tag-<id>, which its links follow', async () => {
    const { placedTags, moves } = await placeAll([], [], [tag(2, 'Alpha'), tag(1, 'alpha'), tag(3, 'beta')]);
    const byId = new Map(placedTags.map((t) => [t.id, t]));
    expect(byId.get(1)?.href).toBe('/tags/alpha/');
    expect(byId.get(2)?.href).toBe('/tags/tag-2/');
    expect(tagHref(byId.get(2)!, 2)).toBe('/tags/tag-2/2/');
    expect(byId.get(3)?.href).toBe('/tags/beta/');
    expect(moves.map((m) => [m.collection, m.itemId, m.field, m.value])).toEqual([['tags', '2', 'slug', 'Alpha']]);
  });
});

describe('names no file system can hold', () => {
  it('are refused as path segments: device names, trailing dots, files the build writes, over-long names, language codes in any case', () => {
    for (const segment of [
      'CON',
      'con',
      'aux',
      'nul.txt',
      'COM1',
      'lpt9.md',
      'abc.',
      'index.html',
      'index.md',
      '404.html',
      'page.htm',
      'x'.repeat(201),
    ])
      expect(isPortableSegment(segment), segment).toBe(false);
    for (const segment of ['console', 'v2.0-launch', 'auxiliary', '100314-launch', 'x'.repeat(200)])
      expect(isPortableSegment(segment), segment).toBe(true);
    for (const permalink of ['/EN', '/Nl', '/Pages/x', '/RELEASES', '/100-a/index.html', '/404.html', `/${'a'.repeat(256)}`])
      expect(permalinkSegments(permalink), permalink).toBeNull();
  });

  it('send such a release to its id path, and such a tag to tag-<id>, each with a warning', async () => {
    const { hrefOf, moves } = await placeAll(
      [release(900, '/CON'), release(901, '/901-launch./'), release(902, '/900-x/index.html')],
      [],
      [tag(5, 'index.html')],
    );
    expect(hrefOf.get('release 900')).toBe('/900/');
    expect(hrefOf.get('release 901')).toBe('/901/');
    expect(hrefOf.get('release 902')).toBe('/902/');
    expect(hrefOf.get('tag 5')).toBe('/tags/tag-5/');
    expect(moves.filter((m) => m.collection === 'pressReleases')).toHaveLength(3);
    expect(moves.filter((m) => m.collection === 'tags')).toEqual([
      { collection: 'tags', itemId: '5', field: 'slug', value: 'index.html', reason: 'not a safe path', href: '/tags/tag-5/' },
    ]);
  });
});

describe("a release's body measures", () => {
  const picture = (url: string) => ({ sizes: { large: { url, width: 800, height: 600 } } });
  const withBody = (file: string, featured: ReturnType<typeof picture>[]) => {
    const entry = release(7, '/7-launch');
    return { ...entry, data: { ...entry.data, body: { file }, featured_images: featured } } as unknown as CollectionEntry<'pressReleases'>;
  };

  it('are kept by body file: a body placed before is read again only for a featured picture it was not asked about', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-body-'));
    try {
      const file = path.join(dir, 'body.html');
      await writeFile(file, '<p>Launch day.</p><img src="https://cdn.example/inline.jpg">');
      const [first] = (
        await placeAll([withBody(file, [picture('https://cdn.example/inline.jpg'), picture('https://cdn.example/hero.jpg')])])
      ).placedReleases;
      expect(first!.picturesOutsideBody.map((p) => p.sizes.large!.url)).toEqual(['https://cdn.example/hero.jpg']);
      expect(first!.wordCount).toBe(2);
      // The file is gone: a placement that needs its HTML fails, one that knows what it needs does not.
      await rm(file);
      const [again] = (
        await placeAll([withBody(file, [picture('https://cdn.example/hero.jpg'), picture('https://cdn.example/inline.jpg')])])
      ).placedReleases;
      expect(again!.picturesOutsideBody.map((p) => p.sizes.large!.url)).toEqual(['https://cdn.example/hero.jpg']);
      expect(again!.bodyLead).toBe(first!.bodyLead);
      await expect(placeAll([withBody(file, [picture('https://cdn.example/new.jpg')])])).rejects.toThrow(/body\.html cannot be read/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
