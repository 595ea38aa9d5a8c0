/**
 * Contract tests of `leakHidden` over real HTTP: the emulator answers like a
 * key with more rights than the public view, so every kind of hidden item
 * reaches every route an item can come from — and none does without it.
 */
import { describe, expect, it } from 'vitest';
import { hiddenMarkers } from '../../emulator/server.ts';
import { isPublic } from '../../emulator/model/visibility.ts';
import type { Visibility } from '../../emulator/model/types.ts';
import { useEmulator } from '../helpers/emulator.ts';

const leaky = useEmulator({ seed: 1, frozenClock: true, leakHidden: true });
const plain = useEmulator({ seed: 1, frozenClock: true });
type Emu = typeof leaky;
type Item = Record<string, any>;

const now = () => leaky().store().clock.now();
const world = () => leaky().store().world;
const hidden = <T extends Visibility>(rows: T[]) => rows.filter((r) => !isPublic(r, now()));
const startOfYear = () => `${now().getUTCFullYear()}-01-01`;

/** One place a hidden item must show up (with the flag) and must not (without). */
interface Probe {
  what: string;
  found: (emu: Emu) => Promise<boolean>;
}

const listed = (route: string, id: number, type?: string) => async (emu: Emu) => {
  const res = await emu().json(`${route}${route.includes('?') ? '&' : '?'}limit=9999`);
  return res.status === 200 && (res.body.data as Item[]).some((i) => i.id === id && (type === undefined || i.type === type));
};
const byId = (route: string) => async (emu: Emu) => (await emu().api(route)).status === 200;
const tagged = (collection: string, item: { id: number; _tagIds: number[] }) => {
  const tag = world().tags.find((t) => t.id === item._tagIds[0])!;
  return listed(`tagged/${collection}?tags=${tag.slug}`, item.id);
};

function probes(): Probe[] {
  const w = world();
  const out: Probe[] = [];
  const add = (what: string, found: Probe['found']) => out.push({ what, found });

  for (const r of hidden(w.pressReleases)) {
    const name = `release ${r.id} (${r.title.split(':')[0]})`;
    add(`${name} in press_releases`, listed('press_releases', r.id));
    add(`${name} by id`, byId(`press_releases/${r.id}`));
    add(`${name} in search`, listed('search', r.id));
    add(`${name} in search_releases`, listed('search_releases', r.id));
    add(`${name} in search/press_releases`, listed('search/press_releases', r.id));
    add(`${name} in search/all`, listed('search/all', r.id, 'press_release'));
    add(`${name} in tagged/press_releases`, tagged('press_releases', r));
    if (r.show_in_timeline) add(`${name} in timeline`, listed('timeline', r.id, 'press_release'));
    if (r.release_date !== null && r.release_date < startOfYear()) add(`${name} in archive`, listed('archive/press_releases', r.id));
  }
  for (const c of hidden(w.clippings)) {
    const name = `private clipping ${c.id}`;
    add(`${name} in clippings`, listed('clippings', c.id));
    add(`${name} by id`, byId(`clippings/${c.id}`));
    add(`${name} in timeline`, listed('timeline', c.id, 'clipping'));
    add(`${name} in search/all`, listed('search/all', c.id, 'clipping'));
    add(`${name} in search/clippings`, listed('search/clippings', c.id));
    add(`${name} in tagged/clippings`, tagged('clippings', c));
    if (c.release_date < startOfYear()) add(`${name} in archive`, listed('archive/clippings', c.id));
    add(`${name} in includes=clippings of release ${c.press_release_id}`, async (emu) => {
      const release = (await emu().json(`press_releases/${c.press_release_id}?includes=clippings`)).body.data as Item;
      return (release.clippings as Item[]).some((x) => x.id === c.id);
    });
  }
  for (const e of hidden(w.events)) {
    const name = `private event ${e.id}`;
    add(`${name} in events`, listed('events', e.id));
    add(`${name} by id`, byId(`events/${e.id}`));
    add(`${name} in timeline`, listed('timeline', e.id, 'event'));
    add(`${name} in tagged/events`, tagged('events', e));
  }
  for (const p of hidden(w.pages)) {
    const name = `draft page ${p.id}`;
    add(`${name} in pages`, listed('pages', p.id));
    add(`${name} by id`, byId(`pages/${p.id}`));
    add(`${name} in tagged/pages`, tagged('pages', p));
  }
  for (const k of hidden(w.mediaKits)) {
    const name = `hidden kit ${k.id}`;
    add(`${name} in media_kits`, listed('media_kits', k.id));
    add(`${name} in presskits`, listed('presskits', k.id));
    add(`${name} by id`, byId(`media_kits/${k.id}`));
    add(`${name} in search/all`, listed('search/all', k.id, 'media_kit'));
    add(`${name} in search/media_kits`, listed('search/media_kits', k.id));
    add(`${name} in tagged/media_kits`, tagged('media_kits', k));
    add(`${name} in its hidden category ${k.category_id}`, listed(`media_kit_categories/${k.category_id}/media_kits`, k.id));
    add(`${name} with its category_id`, async (emu) => (await emu().json(`media_kits/${k.id}`)).body.data?.category_id === k.category_id);
  }
  for (const k of w.mediaKits.filter((k) => k.is_locked || k.is_password_protected)) {
    const name = `closed kit ${k.id}`;
    const hasMedia = (item: Item | undefined) => Array.isArray(item?.media) && item.media.length === k._mediaIds.length;
    add(`${name} media in media_kits`, async (emu) =>
      hasMedia((await emu().json('media_kits?limit=9999')).body.data.find((x: Item) => x.id === k.id)),
    );
    add(`${name} media by id`, async (emu) => hasMedia((await emu().json(`media_kits/${k.id}`)).body.data));
    add(`${name} media in its category`, async (emu) =>
      hasMedia(
        (await emu().json(`media_kit_categories/${k.category_id}/media_kits?limit=9999`)).body.data.find((x: Item) => x.id === k.id),
      ),
    );
    if (k._tagIds.length > 0) {
      const tag = w.tags.find((t) => t.id === k._tagIds[0])!;
      add(`${name} media in tagged/media_kits`, async (emu) =>
        hasMedia((await emu().json(`tagged/media_kits?limit=9999&tags=${tag.slug}`)).body.data.find((x: Item) => x.id === k.id)),
      );
    }
  }
  for (const c of w.mediaKitCategories.filter((c) => !leaky().store().isCategoryVisible(c, now()))) {
    const name = `hidden category ${c.id}`;
    add(`${name} in media_kit_categories`, listed('media_kit_categories', c.id));
    add(`${name} by id`, byId(`media_kit_categories/${c.id}`));
    add(`${name} in the tree`, async (emu) => {
      const flat = (nodes: Item[]): Item[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
      return flat((await emu().json('media_kit_categories/tree')).body.data).some((n) => n.id === c.id);
    });
    add(`${name} kits route`, byId(`media_kit_categories/${c.id}/media_kits`));
  }
  for (const m of hidden([...w.images, ...w.documents])) {
    const route = m.type === 'image' ? 'images' : 'documents';
    add(`private ${m.type} ${m.id} in ${route}`, listed(route, m.id));
    add(`private ${m.type} ${m.id} by id`, byId(`${route}/${m.id}`));
  }
  const featuring = w.pressReleases.find(
    (r) => isPublic(r, now()) && r._featuredImageIds.some((id) => hidden(w.images).some((m) => m.id === id)),
  )!;
  const privateFeatured = featuring._featuredImageIds.find((id) => hidden(w.images).some((m) => m.id === id))!;
  add(`private image ${privateFeatured} in includes=featured_images of release ${featuring.id}`, async (emu) => {
    const release = (await emu().json(`press_releases/${featuring.id}?includes=featured_images`)).body.data as Item;
    return (release.featured_images as Item[]).some((m) => m.id === privateFeatured);
  });
  return out;
}

describe('leakHidden', () => {
  it('has every kind of hidden item in the demo press room to leak', () => {
    const w = world();
    const releases = hidden(w.pressReleases);
    expect(releases.some((r) => r._state === 'draft')).toBe(true);
    expect(releases.some((r) => r._state === 'unpublished')).toBe(true);
    expect(releases.some((r) => r._private)).toBe(true);
    expect(releases.some((r) => r._visibleFrom !== null && r._visibleFrom > now().toISOString())).toBe(true);
    expect(hidden(w.clippings)).toHaveLength(1);
    expect(hidden(w.events)).toHaveLength(1);
    expect(hidden(w.pages)).toHaveLength(1);
    expect(
      hidden(w.mediaKits)
        .map((k) => k._state)
        .sort(),
    ).toEqual(['published', 'unpublished']);
    for (const k of hidden(w.mediaKits))
      expect(leaky().store().isCategoryVisible(leaky().store().categoryById(k.category_id!)!, now())).toBe(false);
    expect(probes().length).toBeGreaterThan(80);
  });

  it('shows each hidden item on each route with the flag, and on none without it', async () => {
    const missingWithFlag: string[] = [];
    const leakedWithout: string[] = [];
    for (const probe of probes()) {
      if (!(await probe.found(leaky))) missingWithFlag.push(probe.what);
      if (await probe.found(plain)) leakedWithout.push(probe.what);
    }
    expect(missingWithFlag).toEqual([]);
    expect(leakedWithout).toEqual([]);
  });

  it('keeps the fields that say why an item is hidden', async () => {
    const releases = (await leaky().json('press_releases?limit=9999')).body.data as Item[];
    const state = (id: number) => releases.find((r) => r.id === id)!;
    for (const r of hidden(world().pressReleases)) {
      const sent = state(r.id);
      expect(sent.state, `${r.id}`).toBe(r._state);
      expect(sent.private, `${r.id}`).toBe(r._private);
      if (r._visibleFrom) {
        expect(sent.release_date > now().toISOString()).toBe(true);
        expect(sent.publish_date).toBe(r._visibleFrom);
      }
    }
    expect(
      releases
        .filter((r) =>
          isPublic(
            world().pressReleases.find((x) => x.id === r.id)!,
            now(),
          ),
        )
        .every((r) => r.state === 'published' && r.private === false),
    ).toBe(true);
    const clipping = (await leaky().json(`clippings/${hidden(world().clippings)[0]!.id}`)).body.data;
    expect(clipping.private).toBe(true);
    const event = (await leaky().json(`events/${hidden(world().events)[0]!.id}`)).body.data;
    expect(event.private).toBe(true);
    const page = (await leaky().json(`pages/${hidden(world().pages)[0]!.id}`)).body.data;
    expect(page.state).toBe('draft');
    const kits = (await leaky().json('media_kits?limit=9999')).body.data as Item[];
    expect(kits.some((k) => k.is_locked === true && k.media.length > 0)).toBe(true);
    expect(kits.some((k) => k.is_password_protected === true && k.media.length > 0)).toBe(true);
    expect(kits.some((k) => k.state === 'unpublished')).toBe(true);
    expect(kits.some((k) => k.state === 'published' && k.publish_date > now().toISOString())).toBe(true);
    const tree = (await leaky().json('media_kit_categories')).body.data as Item[];
    expect(tree.some((c) => c.state === 'unpublished')).toBe(true);
    expect(tree.some((c) => c.publish_date > now().toISOString())).toBe(true);
    const drafts = releases.filter((r) => typeof r.draft_content_as_json === 'string');
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.every((r) => r.draft_content_as_json.includes('DRAFT EDIT'))).toBe(true);
  });

  it('lets a test grep for hidden markers: each is in the leaked answers, none in the public ones outside draft_content_as_json', async () => {
    const routes = [
      '',
      'press_releases?includes=tags,featured_images,clippings',
      'clippings',
      'events',
      'pages',
      'media_kits',
      'media_kit_categories',
      'images',
      'documents',
      'timeline',
      'search/all',
    ];
    const text = async (emu: Emu) => {
      const bodies = await Promise.all(routes.map(async (r) => (await emu().json(`${r}${r.includes('?') ? '&' : '?'}limit=9999`)).body));
      return JSON.stringify(bodies, (key, value) => (key === 'draft_content_as_json' && emu === plain ? undefined : value));
    };
    const leaked = await text(leaky);
    const open = await text(plain);
    expect(hiddenMarkers().length).toBeGreaterThanOrEqual(6);
    for (const marker of hiddenMarkers()) {
      expect(leaked.includes(marker), `${marker} leaked`).toBe(true);
      expect(open.includes(marker), `${marker} in public answers`).toBe(false);
    }
  });

  it('can be switched on and off through the admin settings', async () => {
    const id = hidden(world().pressReleases)[0]!.id;
    expect((await plain().api(`press_releases/${id}`)).status).toBe(404);
    expect((await plain().admin('POST', '/settings', { leakHidden: true })).body.data.leakHidden).toBe(true);
    try {
      expect((await plain().api(`press_releases/${id}`)).status).toBe(200);
    } finally {
      await plain().admin('POST', '/settings', { leakHidden: false });
    }
    expect((await plain().api(`press_releases/${id}`)).status).toBe(404);
    expect((await plain().admin('POST', '/settings', { leakHidden: 'yes' })).status).toBe(422);
  });
});
