import { describe, expect, it } from 'vitest';
import { generateWorld } from '../../emulator/demo-data/generate.ts';
import type { ImageAssetSpec, MediaItem, Rendition, Sizes, World } from '../../emulator/model/types.ts';

const NOW = new Date('2025-06-15T10:30:00.000Z');
const now = NOW.getTime();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const world = generateWorld({ seed: 1, scale: 60, now: NOW });

/** The world as one string, assets in insertion order: equal strings = identical worlds. */
function fingerprint(w: World): string {
  return JSON.stringify({ ...w, assets: [...w.assets.entries()] });
}

/** Every string anywhere in the model (the asset registry excluded). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object' && !(value instanceof Map)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

function modelStrings(w: World): string[] {
  const { assets: _assets, ...model } = w;
  return strings(model);
}

const MEDIA_PATH = /\/media\/[^\s"'<>)\\]+/g;

function isPublic(item: { _state: string; _private: boolean; _visibleFrom: string | null }): boolean {
  return item._state === 'published' && !item._private && (item._visibleFrom === null || Date.parse(item._visibleFrom) <= now);
}

function allMedia(w: World): MediaItem[] {
  return [...w.images, ...w.documents, ...w.movies, ...w.sounds, ...w.videos];
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('demo data: determinism', () => {
  it('gives an identical world for the same seed, scale and now (assets included, in order)', () => {
    const again = generateWorld({ seed: 1, scale: 60, now: new Date(NOW.getTime()) });
    expect(again).toStrictEqual(world);
    expect([...again.assets.keys()]).toEqual([...world.assets.keys()]);
    expect(fingerprint(again)).toBe(fingerprint(world));
  });

  it('gives a different world for a different seed', () => {
    const other = generateWorld({ seed: 2, scale: 60, now: NOW });
    expect(fingerprint(other)).not.toBe(fingerprint(world));
    expect(other.pressReleases.map((r) => r.title)).not.toEqual(world.pressReleases.map((r) => r.title));
  });

  it('arranges dates around `now`, not the system clock', () => {
    const later = generateWorld({ seed: 1, scale: 60, now: new Date(now + 30 * DAY) });
    const newest = (w: World) => Math.max(...w.pressReleases.filter(isPublic).map((r) => Date.parse(r.release_date ?? '')));
    expect(newest(later) - newest(world)).toBeGreaterThan(29 * DAY);
  });
});

describe('demo data: counts at scale 60', () => {
  it('has the expected amount of everything', () => {
    expect(world.pressReleases).toHaveLength(60);
    expect(world.tags.length).toBeGreaterThanOrEqual(12);
    expect(world.tags.length).toBeLessThanOrEqual(18);
    expect(world.mediaKits.length).toBeGreaterThanOrEqual(10);
    expect(world.mediaKits.length).toBeLessThanOrEqual(16);
    expect(world.clippings.length).toBeGreaterThanOrEqual(25);
    expect(world.clippings.length).toBeLessThanOrEqual(35);
    expect(world.pages.filter(isPublic).length).toBeGreaterThanOrEqual(4);
    expect(world.prContacts).toHaveLength(4);
    expect(world.liveEvents.length).toBeGreaterThanOrEqual(1);
    expect(world.liveEvents.length).toBeLessThanOrEqual(2);
    expect(world.images.length).toBeGreaterThanOrEqual(40);
    for (const kind of [world.documents, world.movies, world.sounds, world.videos]) expect(kind.length).toBeGreaterThanOrEqual(2);
  });

  it('has past, current and upcoming events', () => {
    const events = world.events.filter(isPublic);
    const past = events.filter((e) => Date.parse(e.ends_at ?? e.starts_at) < now);
    const upcoming = events.filter((e) => Date.parse(e.starts_at) > now);
    const current = events.filter((e) => Date.parse(e.starts_at) <= now && e.ends_at !== null && Date.parse(e.ends_at) > now);
    expect(past.length).toBeGreaterThanOrEqual(6);
    expect(past.length).toBeLessThanOrEqual(10);
    expect(upcoming.length).toBeGreaterThanOrEqual(3);
    expect(upcoming.length).toBeLessThanOrEqual(6);
    expect(current).toHaveLength(1);
    expect(world.events.some((e) => e.online && e.stream_url?.startsWith('https://'))).toBe(true);
    const live = world.liveEvents.find((l) => l.event_id === current[0]?.id);
    expect(live).toBeDefined();
    expect(live?.updates.length).toBeGreaterThanOrEqual(2);
    for (const u of live?.updates ?? []) expect(Date.parse(u.posted_at)).toBeLessThanOrEqual(now);
  });

  it('has a two-level category tree with positions', () => {
    const cats = world.mediaKitCategories.filter(isPublic);
    const tops = cats.filter((c) => c.parent_id === null);
    expect(tops.length).toBeGreaterThanOrEqual(3);
    for (const top of tops) {
      const kids = cats.filter((c) => c.parent_id === top.id);
      expect(kids.length).toBeGreaterThanOrEqual(1);
      expect(kids.map((k) => k.position).sort()).toEqual(kids.map((_, i) => i + 1));
    }
    expect(tops.map((t) => t.position).sort()).toEqual(tops.map((_, i) => i + 1));
    for (const kit of world.mediaKits) {
      expect(kit._mediaIds.length).toBeGreaterThanOrEqual(2);
      expect(kit._mediaIds.length).toBeLessThanOrEqual(8);
    }
  });
});

describe('demo data: referential integrity', () => {
  const tagIds = new Set(world.tags.map((t) => t.id));
  const imageIds = new Set(world.images.map((m) => m.id));
  const mediaIds = new Set(allMedia(world).map((m) => m.id));
  const categoryIds = new Set(world.mediaKitCategories.map((c) => c.id));
  const releaseIds = new Set(world.pressReleases.map((r) => r.id));
  const eventIds = new Set(world.events.map((e) => e.id));

  it('has unique ids per collection, one id space for all media, and realistic (not tiny) ids', () => {
    const collections = [
      world.pressReleases,
      world.clippings,
      world.events,
      world.liveEvents,
      world.pages,
      world.prContacts,
      world.mediaKits,
      world.mediaKitCategories,
      world.tags,
      allMedia(world),
    ];
    for (const list of collections) {
      const ids = list.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toBeGreaterThan(1000);
    }
    expect(Math.min(...world.pressReleases.map((r) => r.id))).toBeGreaterThanOrEqual(100_000);
  });

  it('points only at records that exist', () => {
    const tagged = [...world.pressReleases, ...world.clippings, ...world.events, ...world.pages, ...world.mediaKits, ...allMedia(world)];
    for (const item of tagged) for (const id of item._tagIds) expect(tagIds).toContain(id);
    for (const item of [...world.pressReleases, ...world.events]) for (const id of item._featuredImageIds) expect(imageIds).toContain(id);
    for (const kit of world.mediaKits) {
      for (const id of kit._mediaIds) expect(mediaIds).toContain(id);
      if (kit.category_id !== null) expect(categoryIds).toContain(kit.category_id);
    }
    for (const cat of world.mediaKitCategories) {
      if (cat.parent_id !== null) {
        expect(categoryIds).toContain(cat.parent_id);
        const parent = world.mediaKitCategories.find((c) => c.id === cat.parent_id);
        expect(parent?.parent_id).toBeNull(); // two levels only
      }
      if (cat.image_id !== null) expect(imageIds).toContain(cat.image_id);
    }
    for (const c of world.clippings) if (c.press_release_id !== null) expect(releaseIds).toContain(c.press_release_id);
    for (const l of world.liveEvents) if (l.event_id !== null) expect(eventIds).toContain(l.event_id);
    for (const r of world.pressReleases) {
      if (!r.content_as_json) continue;
      const doc = JSON.parse(r.content_as_json) as { blocks: Array<{ type: string; data: { media_id?: number } }> };
      for (const b of doc.blocks) if (b.type === 'media') expect(imageIds).toContain(b.data.media_id);
    }
  });

  it('links about half the clippings to public releases', () => {
    const linked = world.clippings.filter((c) => c.press_release_id !== null);
    expect(linked.length).toBeGreaterThanOrEqual(world.clippings.length * 0.4);
    expect(linked.length).toBeLessThanOrEqual(world.clippings.length * 0.6);
    for (const c of linked) expect(isPublic(world.pressReleases.find((r) => r.id === c.press_release_id)!)).toBe(true);
  });
});

describe('demo data: media assets', () => {
  it('registers every /media/ path used anywhere in the model, and nothing unused', () => {
    const used = new Set<string>();
    for (const s of modelStrings(world)) {
      if (s.startsWith('/media/')) used.add(s);
      for (const m of s.matchAll(MEDIA_PATH)) used.add(m[0]);
    }
    expect(used.size).toBeGreaterThan(100);
    for (const path of used) expect(world.assets.has(path), path).toBe(true);
    for (const path of world.assets.keys()) expect(used.has(path), `unused asset ${path}`).toBe(true);
  });

  it('keeps emulator-served URLs as /media/ paths and everything else absolute https', () => {
    for (const s of modelStrings(world)) {
      if (/^(https?:)?\/\//.test(s)) expect(s.startsWith('https://')).toBe(true);
      expect(s).not.toMatch(/localhost|127\.0\.0\.1/);
    }
  });

  it('has renditions that never exceed the original, square squares, and exact asset specs', () => {
    const check = (sizes: Sizes | Record<string, Rendition>, label: string) => {
      const entries = Object.entries(sizes) as Array<[string, Rendition]>;
      for (const [name, r] of entries) {
        expect(r.width, label).toMatch(/^\d+$/);
        expect(r.height, label).toMatch(/^\d+$/);
        const spec = world.assets.get(r.url) as ImageAssetSpec | undefined;
        expect(spec?.kind, `${label} ${name}`).toBe('image');
        if (!spec) continue;
        expect(String(spec.width)).toBe(r.width);
        expect(String(spec.height)).toBe(r.height);
        expect(spec.width).toBeLessThanOrEqual(spec.originalWidth);
        expect(spec.height).toBeLessThanOrEqual(spec.originalHeight);
        expect(r.url.endsWith(spec.format === 'png' ? '.png' : '.jpg')).toBe(true);
        if (name.includes('square')) {
          expect(r.width).toBe(r.height);
          expect(spec.fit).toBe('cover');
          expect(spec.width).toBeLessThanOrEqual(Math.min(spec.originalWidth, spec.originalHeight));
        }
        if (name === 'original') {
          expect(spec.width).toBe(spec.originalWidth);
          expect(spec.height).toBe(spec.originalHeight);
        }
      }
    };
    for (const m of allMedia(world)) check(m.sizes, `media ${m.id}`);
    for (const t of world.tags) {
      if (t.image) check(t.image, `tag ${t.id}`);
      if (t.hero_image) check(t.hero_image, `tag hero ${t.id}`);
    }
    for (const c of world.clippings) check(c.sizes, `clipping ${c.id}`);
    for (const p of world.prContacts) if (p.avatar) check(p.avatar, `contact ${p.id}`);

    for (const img of world.images) {
      expect(Object.keys(img.sizes).sort()).toEqual(['large', 'medium', 'original', 'square']);
      const w = Number(img.sizes.original?.width);
      const h = Number(img.sizes.original?.height);
      expect(Math.max(w, h)).toBeGreaterThanOrEqual(1200);
      expect(Math.max(w, h)).toBeLessThanOrEqual(4000);
      expect(img.sizes.square?.width).toBe('300');
      expect(Number(img.sizes.large?.width)).toBeLessThanOrEqual(1200);
      expect(Number(img.sizes.medium?.height)).toBeLessThanOrEqual(600);
    }
  });

  it('has landscape, portrait, square and transparent PNG images', () => {
    const shapes = new Set(
      world.images.map((i) => {
        const w = Number(i.sizes.original?.width);
        const h = Number(i.sizes.original?.height);
        return w === h ? 'square' : w > h ? 'landscape' : 'portrait';
      }),
    );
    expect([...shapes].sort()).toEqual(['landscape', 'portrait', 'square']);
    const pngs = world.images.filter((i) => i.content_type === 'png');
    expect(pngs.length).toBeGreaterThanOrEqual(2);
    for (const png of pngs) {
      expect(png.transparent).toBe(true);
      const spec = world.assets.get(png.sizes.original?.url ?? '') as ImageAssetSpec;
      expect(spec.format).toBe('png');
      expect(spec.transparent).toBe(true);
    }
    for (const jpg of world.images.filter((i) => i.content_type === 'jpeg')) expect(jpg.transparent).toBe(false);
  });

  it('gives documents, movies, sounds and videos their files and thumbnails', () => {
    for (const d of world.documents) {
      expect(d.content_type).toBe('pdf');
      expect(d.url).toBe(`/media/documents/${d.id}/original.pdf`);
      expect(world.assets.get(d.url!)?.kind).toBe('pdf');
      expect(d.has_thumb).toBe(true);
      expect(d.sizes.thumbnail).toBeDefined();
      expect(d.sizes.medium).toBeDefined();
    }
    for (const m of world.movies) {
      expect(m.content_type).toBe('mp4');
      expect(m.url).toBe(`/media/movies/${m.id}/original.mp4`);
      expect(m.mp4_url).toBe(m.url);
      expect(world.assets.get(m.mp4_url!)).toEqual({ kind: 'video', format: 'mp4' });
      expect(world.assets.get(m.webm_url!)).toEqual({ kind: 'video', format: 'webm' });
      expect(m.thumbnail_url).toBe(m.sizes.thumbnail?.url);
      expect(m.duration).toBeGreaterThan(0);
    }
    for (const s of world.sounds) {
      expect(s.content_type).toBe('wav');
      const spec = world.assets.get(s.url!);
      expect(spec?.kind).toBe('audio');
      expect(spec && spec.kind === 'audio' ? spec.seconds : 0).toBe(s.duration);
    }
    for (const v of world.videos) {
      expect(['youtube', 'vimeo']).toContain(v.provider);
      expect(v.content_type).toBe(v.provider);
      expect(v.embed_url).toMatch(/^https:\/\/(www\.youtube-nocookie\.com\/embed\/|player\.vimeo\.com\/video\/)/);
      expect(v.sizes.thumbnail).toBeDefined();
    }
    expect(world.videos.some((v) => v.provider === 'youtube')).toBe(true);
    const p = world.pressroom.logo;
    for (const url of [p.small_url, p.square_url, p.original_url]) expect(world.assets.has(url)).toBe(true);
  });
});

describe('demo data: press releases', () => {
  const published = world.pressReleases.filter(isPublic);

  it('spreads releases over about three years, newest about a day before now', () => {
    const dates = published.map((r) => Date.parse(r.release_date ?? ''));
    const newest = Math.max(...dates);
    expect(newest).toBeLessThan(now - 20 * HOUR);
    expect(newest).toBeGreaterThan(now - 2 * DAY);
    expect(Math.min(...dates)).toBeGreaterThan(now - 3 * 366 * DAY);
    expect(Math.min(...dates)).toBeLessThan(now - 2 * 365 * DAY);
  });

  it('uses ISO-8601 UTC timestamps with milliseconds everywhere', () => {
    const stamps = modelStrings(world).filter((s) => /^\d{4}-\d\d-\d\dT/.test(s));
    expect(stamps.length).toBeGreaterThan(200);
    for (const s of stamps) expect(s).toMatch(ISO);
  });

  it('writes in English, Dutch and German, with bodies in the right language', () => {
    const langs = new Set(published.map((r) => r.language));
    expect([...langs].sort()).toEqual(['de', 'en', 'nl']);
    expect(published.filter((r) => r.language === 'en').length).toBeGreaterThan(published.length / 2);
    const marker: Record<string, RegExp> = { en: /\b(the|and)\b/, nl: /\b(het|van|een)\b/, de: /\b(und|der|die|das)\b/ };
    for (const r of world.pressReleases) {
      const text = r.body_html.replace(/<[^>]+>/g, ' ');
      expect(text, `${r.id} ${r.language}`).toMatch(marker[r.language]!);
    }
    expect(world.pressReleases.filter((r) => r.language === 'de').some((r) => /Prozent|für|über/.test(r.body_html))).toBe(true);
  });

  it('has realistic HTML bodies', () => {
    const all = world.pressReleases.map((r) => r.body_html).join('\n');
    for (const needle of [
      '<h2>',
      '<h3>',
      '<ul>',
      '<ol>',
      '<a href="https://',
      '<blockquote>',
      '<cite>',
      '<table>',
      '<strong>',
      '<em>',
      '<img src="/media/images/',
    ]) {
      expect(all, needle).toContain(needle);
    }
    expect(all).not.toContain('{');
    expect(all).not.toContain('**');
    for (const r of world.pressReleases) expect(r.body_html.length).toBeGreaterThan(800);
  });

  it('fills permalinks, links, editor JSON and reading time as the live API does', () => {
    for (const r of world.pressReleases) {
      expect(r.permalink).toMatch(new RegExp(`^/${r.id}-[a-z0-9]+(-[a-z0-9]+)*$`));
      expect(r.full_url).toBe(`${world.pressroom.permalink}${r.permalink}`);
      expect(r.short_link).toMatch(/^https:\/\/nwnd\.example\/[0-9a-z]+$/);
      expect(String(r.reading_time)).toMatch(/^\d+$/);
      expect(r.type).toBe('press_release');
      expect(r.state).toBe('published');
      expect(r._tagIds.length).toBeGreaterThanOrEqual(1);
      expect(r._tagIds.length).toBeLessThanOrEqual(4);
      expect(r._featuredImageIds.length).toBeLessThanOrEqual(3);
      if (r.content_as_json !== null) {
        const doc = JSON.parse(r.content_as_json) as { blocks: Array<{ type: string }> };
        for (const b of doc.blocks) expect(['header', 'textarea', 'quote', 'media']).toContain(b.type);
      }
      expect(r.body_html).not.toContain('DRAFT EDIT');
      if (r.pdf !== null) {
        expect(r.pdf).toMatch(/^\/media\/documents\/\d+\/original\.pdf$/);
        expect(world.assets.get(r.pdf)?.kind).toBe('pdf');
      }
    }
    expect(new Set(world.pressReleases.map((r) => r.short_link)).size).toBe(world.pressReleases.length);
    expect(world.pressReleases.some((r) => typeof r.reading_time === 'string')).toBe(true);
    expect(world.pressReleases.some((r) => typeof r.reading_time === 'number')).toBe(true);
    expect(world.pressReleases.some((r) => r.pdf !== null)).toBe(true);
    const drafts = published.filter((r) => r.draft_content_as_json !== null);
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    for (const r of drafts) expect(r.draft_content_as_json).toContain('DRAFT EDIT');
    expect(new Set(published.map((r) => r.show_boilerplate_text)).size).toBe(2);
    expect(published.filter((r) => r.show_in_timeline).length).toBeGreaterThan(published.length * 0.7);
    expect(published.some((r) => r._featuredImageIds.length === 0)).toBe(true);
    expect(published.some((r) => r._featuredImageIds.length >= 2)).toBe(true);
  });
});

describe('demo data: hidden items', () => {
  it('has embargoed, private, draft and unpublished releases with recognisable titles', () => {
    const r = world.pressReleases;
    const embargoed = r.filter((x) => x._visibleFrom !== null && Date.parse(x._visibleFrom) > now);
    expect(embargoed.length).toBeGreaterThanOrEqual(2);
    for (const x of embargoed) {
      expect(x.title).toContain('EMBARGOED');
      expect(x.release_date).toBe(x._visibleFrom);
    }
    const offsets = embargoed.map((x) => Date.parse(x._visibleFrom!) - now).sort((a, b) => a - b);
    expect(offsets[0]).toBeLessThanOrEqual(3 * HOUR);
    expect(offsets.at(-1)).toBeGreaterThanOrEqual(2 * DAY);
    const priv = r.filter((x) => x._private);
    expect(priv).toHaveLength(1);
    expect(priv[0]?.title).toContain('PRIVATE');
    const drafts = r.filter((x) => x._state === 'draft');
    expect(drafts).toHaveLength(2);
    for (const x of drafts) expect(x.title).toContain('DRAFT');
    const unpublished = r.filter((x) => x._state === 'unpublished');
    expect(unpublished).toHaveLength(1);
    expect(unpublished[0]?.title).toContain('UNPUBLISHED');
    // Marker words never appear on a public release.
    for (const x of r.filter(isPublic)) expect(x.title).not.toMatch(/EMBARGOED|PRIVATE|DRAFT|UNPUBLISHED/);
  });

  it('never puts a marker word in anything public', () => {
    const marker = /EMBARGOED|PRIVATE|\bDRAFT\b(?! EDIT)|UNPUBLISHED|LOCKED-KIT|PROTECTED-KIT/;
    const collections = [
      world.pressReleases,
      world.clippings,
      world.events,
      world.liveEvents,
      world.pages,
      world.mediaKits,
      world.mediaKitCategories,
      allMedia(world),
    ];
    let checked = 0;
    for (const list of collections) {
      for (const item of list as Array<Parameters<typeof isPublic>[0]>) {
        if (!isPublic(item)) continue;
        const { draft_content_as_json: _draft, ...rest } = item as { draft_content_as_json?: unknown };
        for (const s of strings(rest)) expect(s).not.toMatch(marker);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
    for (const s of strings([world.pressroom, world.tags, world.prContacts])) expect(s).not.toMatch(marker);
  });

  it('hides a clipping, a page, kits, categories and an event', () => {
    const privClip = world.clippings.filter((c) => c._private);
    expect(privClip).toHaveLength(1);
    expect(privClip[0]?.title).toContain('PRIVATE');
    expect(world.clippings.every((c) => c.private === false)).toBe(true);

    const draftPage = world.pages.filter((p) => p._state === 'draft');
    expect(draftPage).toHaveLength(1);
    expect(draftPage[0]?.title).toContain('DRAFT');

    const kits = world.mediaKits;
    expect(kits.filter((k) => k._state === 'unpublished').map((k) => k.title)).toEqual([expect.stringContaining('UNPUBLISHED')]);
    const embargoedKits = kits.filter((k) => k._visibleFrom !== null && Date.parse(k._visibleFrom) > now);
    expect(embargoedKits.map((k) => k.title)).toEqual([expect.stringContaining('EMBARGOED')]);
    const locked = kits.filter((k) => k.is_locked);
    const protectedKits = kits.filter((k) => k.is_password_protected);
    expect(locked).toHaveLength(1);
    expect(protectedKits).toHaveLength(1);
    for (const k of [...locked, ...protectedKits]) {
      expect(isPublic(k)).toBe(true);
      // Their media belong to them alone, and are private in the library.
      for (const id of k._mediaIds) {
        expect(allMedia(world).find((m) => m.id === id)?._private).toBe(true);
        expect(kits.filter((other) => other._mediaIds.includes(id))).toHaveLength(1);
      }
    }
    const privateMedia = new Set(
      allMedia(world)
        .filter((m) => m._private)
        .map((m) => m.id),
    );
    // Exactly one link to private media, planted for clients that see more than the public view: one
    // confidential image among the newest public release's featured images (the public view filters it).
    const featuredPrivate = world.pressReleases.flatMap((r) =>
      r._featuredImageIds.filter((id) => privateMedia.has(id)).map((id) => ({ r, id })),
    );
    expect(featuredPrivate).toHaveLength(1);
    const newestPublic = world.pressReleases
      .filter((r) => isPublic(r) && r.release_date !== null)
      .sort((a, b) => b.release_date!.localeCompare(a.release_date!))[0]!;
    expect(featuredPrivate[0]!.r.id).toBe(newestPublic.id);
    for (const r of world.pressReleases) for (const id of privateMedia) expect(r.body_html).not.toContain(`/media/images/${id}/`);

    const cats = world.mediaKitCategories;
    expect(cats.filter((c) => c._state === 'unpublished').map((c) => c.name)).toEqual([expect.stringContaining('UNPUBLISHED')]);
    const embargoedCats = cats.filter((c) => c._visibleFrom !== null && Date.parse(c._visibleFrom) > now);
    expect(embargoedCats.map((c) => c.name)).toEqual([expect.stringContaining('EMBARGOED')]);

    const privEvents = world.events.filter((e) => e._private);
    expect(privEvents).toHaveLength(1);
    expect(privEvents[0]?.title).toContain('PRIVATE');
  });
});

describe('demo data: worth showing', () => {
  const FILE_NAME = /\.(jpe?g|png)$|^(dsc|img)_?\d+/i;

  it('titles captioned pictures like pictures, and credits each with a usage line', () => {
    const captioned = world.images.filter((m) => !m._private && m.description);
    expect(captioned.length).toBeGreaterThan(20);
    for (const m of captioned) {
      expect(m.title, `image ${m.id}`).not.toMatch(FILE_NAME);
      expect(m.description, `image ${m.id}`).toMatch(/\. (Photo|Image): .+\. .*(editorial|commercial)/i);
    }
    // Photographers vary; uncaptioned uploads still keep file names now and then, as real ones do.
    expect(new Set(captioned.map((m) => /(Photo|Image): ([^.]+)/.exec(m.description!)![2])).size).toBeGreaterThan(3);
    expect(world.images.some((m) => !m.description && FILE_NAME.test(m.title))).toBe(true);
  });

  it('titles kits without markers, keeps the closed ones closed, and writes real usage rights', () => {
    for (const kit of world.mediaKits.filter(isPublic)) expect(kit.title).not.toMatch(/LOCKED|PROTECTED|:/);
    const closed = world.mediaKits.filter((k) => k.is_locked || k.is_password_protected);
    expect(closed.map((k) => k.title).sort()).toEqual([
      expect.stringMatching(/^Dealer price lists \d{4}$/),
      expect.stringMatching(/^Investor relations \d{4}$/),
    ]);
    // Leaks stay detectable: the closed kits' own media carry the markers, and are private.
    for (const k of closed)
      for (const id of k._mediaIds) expect(allMedia(world).find((m) => m.id === id)?.title).toMatch(/LOCKED-KIT|PROTECTED-KIT/);

    const kitsWith = (heading: string) => world.mediaKits.filter((k) => k.description_title === heading && k.description);
    for (const generated of [generateWorld({ seed: 2, scale: 60, now: NOW }), generateWorld({ seed: 3, scale: 60, now: NOW })])
      for (const kit of generated.mediaKits.filter((k) => k.description_title === 'Usage rights' && k.description))
        expect(kit.description).toMatch(/editorial (use|coverage)/);
    for (const kit of kitsWith('Usage rights')) expect(kit.description).toMatch(/editorial (use|coverage)/);
    for (const kit of kitsWith('What’s inside')) {
      const photos = kit._mediaIds.filter((id) => world.images.some((m) => m.id === id)).length;
      if (photos > 0) expect(kit.description).toContain(`${photos} photo`);
      expect(kit.description).toMatch(/^<p>This kit holds /);
    }
  });

  it('streams only what happens online', () => {
    const inPerson = world.events.filter((e) => !e.online);
    expect(inPerson.length).toBeGreaterThan(3);
    for (const e of inPerson) expect(e.stream_url, e.title).toBeNull();
    for (const live of world.liveEvents) {
      const event = world.events.find((e) => e.id === live.event_id)!;
      expect(live.stream_url).toBe(event.stream_url);
    }
  });

  it('draws the logo as a wordmark', () => {
    const spec = world.assets.get(world.pressroom.logo.original_url) as ImageAssetSpec | undefined;
    expect(spec?.design).toBe('logo');
    expect(spec?.label).toBe(world.pressroom.name);
  });
});

describe('demo data: invariants across seeds', () => {
  it('keeps locked/protected kit media private and unshared, and every media path registered, for many seeds', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const w = generateWorld({ seed, scale: 60, now: NOW });
      const media = new Map(allMedia(w).map((m) => [m.id, m]));
      for (const kit of w.mediaKits) {
        const own = kit.is_locked || kit.is_password_protected;
        for (const id of kit._mediaIds) {
          expect(media.get(id)?._private, `seed ${seed} kit ${kit.id} media ${id}`).toBe(own);
          if (own) expect(w.mediaKits.filter((k) => k._mediaIds.includes(id))).toHaveLength(1);
        }
      }
      for (const s of modelStrings(w))
        for (const m of s.matchAll(MEDIA_PATH)) expect(w.assets.has(m[0]), `seed ${seed} ${m[0]}`).toBe(true);
    }
  });
});

describe('demo data: the rest of the press room', () => {
  it('describes a believable company', () => {
    const p = world.pressroom;
    expect(p.languages).toEqual(['en', 'nl', 'de']);
    expect(p.language).toBe('en');
    expect(p.timezone).toBe('Amsterdam');
    expect(p.contact_info).toContain('\n');
    expect(p.description).toMatch(/^<p>/);
    expect(p.boilerplate_html).toMatch(/^<p>/);
    expect(p.design.link_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(p.noindex).toBe(false);
    expect(p.nofollow).toBe(false);
    expect(world.assets.get(p.logo.original_url)).toMatchObject({ format: 'png', transparent: true });
  });

  it('has tags with and without images', () => {
    expect(world.tags.some((t) => t.image === null)).toBe(true);
    expect(world.tags.some((t) => t.image !== null && t.hero_image !== null)).toBe(true);
    expect(new Set(world.tags.map((t) => t.slug)).size).toBe(world.tags.length);
  });

  it('has PR contacts with contact lines and avatars', () => {
    for (const c of world.prContacts) {
      expect(c.contact_info.split('\n').length).toBeGreaterThanOrEqual(3);
      expect(c.contact_info).toContain(c.email!);
      if (c.avatar) {
        expect(c.avatar.medium_square).toMatchObject({ width: '100', height: '100' });
        expect(c.avatar.large_square).toMatchObject({ width: '500', height: '500' });
        expect(c.urls.avatar).toBe(c.avatar.original.url);
      }
    }
    expect(world.prContacts.filter((c) => c.avatar !== null).length).toBeGreaterThanOrEqual(3);
  });

  it('uses the documented permalink shapes', () => {
    for (const c of world.clippings) expect(c.permalink).toMatch(new RegExp(`^/clippings/${c.id}-[a-z0-9-]+$`));
    for (const e of world.events) expect(e.permalink).toMatch(new RegExp(`^/events/${e.id}-[a-z0-9-]+$`));
    for (const k of world.mediaKits) expect(k.permalink).toMatch(new RegExp(`^/media_kits/${k.id}-[a-z0-9-]+$`));
    for (const l of world.liveEvents) expect(l.permalink).toMatch(new RegExp(`^/live/${l.id}-[a-z0-9-]+$`));
    for (const p of world.pages) expect(p.permalink).toBe(`/pages/${p.slug}`);
    for (const m of world.images) expect(m.permalink).toBe(`/images/${m.id}`);
    for (const c of world.clippings) expect(c.url).toMatch(/^https:\/\//);
  });
});

describe('demo data: scale', () => {
  it('generates 10 000 releases quickly, with the rest growing sub-linearly', () => {
    const started = performance.now();
    const big = generateWorld({ seed: 1, scale: 10_000, now: NOW });
    const ms = performance.now() - started;
    console.log(`generateWorld scale 10000: ${ms.toFixed(0)} ms, ${big.assets.size} assets`);
    expect(ms).toBeLessThan(15_000);
    expect(big.pressReleases).toHaveLength(10_000);
    expect(big.clippings).toHaveLength(5_000);
    expect(big.tags.length).toBeGreaterThanOrEqual(35);
    expect(big.tags.length).toBeLessThanOrEqual(45);
    expect(big.images.length).toBeLessThan(2_000);
    expect(new Set(big.pressReleases.map((r) => r.id)).size).toBe(10_000);
  });

  it('still produces a coherent world at tiny scales', () => {
    for (const scale of [1, 5, 12]) {
      const small = generateWorld({ seed: 3, scale, now: NOW });
      expect(small.pressReleases).toHaveLength(scale);
      expect(small.pressReleases.filter(isPublic).length).toBeGreaterThanOrEqual(1);
      for (const s of modelStrings(small)) for (const m of s.matchAll(MEDIA_PATH)) expect(small.assets.has(m[0])).toBe(true);
    }
  });
});
