/**
 * Contract tests of `flaws` over real HTTP: every entry of `FLAWS` is served
 * with its broken value, as a public item on every route a public item would
 * be, with the same bytes every run, and only when asked for.
 */
import { describe, expect, it } from 'vitest';
import { FLAWS, type Flaw } from '../../emulator/server.ts';
import { useEmulator } from '../helpers/emulator.ts';

const flawed = useEmulator({ seed: 1, frozenClock: true, flaws: true });
const plain = useEmulator({ seed: 1, frozenClock: true });
type Emu = typeof flawed;
type Item = Record<string, any>;

const ROUTE: Record<Flaw['collection'], string> = {
  pressReleases: 'press_releases',
  clippings: 'clippings',
  events: 'events',
  pages: 'pages',
  prContacts: 'pr_contacts',
  images: 'images',
};
const valueAt = (item: Item, field: string): unknown => field.split('.').reduce<any>((o, key) => o?.[key], item);
const listIds = async (emu: Emu, route: string) =>
  ((await emu().json(`${route}${route.includes('?') ? '&' : '?'}limit=9999`)).body.data as Item[]).map((i) => i.id);

describe('flaws', () => {
  it('lists each expectation at least once, with distinct ids', () => {
    expect(new Set(FLAWS.map((f) => f.expect))).toEqual(new Set(['field-dropped', 'item-skipped', 'safe-path', 'moved-path']));
    expect(new Set(FLAWS.map((f) => `${f.collection}:${f.id}`)).size).toBe(FLAWS.length);
    const fields = FLAWS.map((f) => `${f.collection}.${f.field}=${JSON.stringify(f.value)}`);
    for (const wanted of [
      'clippings.url="javascript:alert(1)"',
      'clippings.url="www dot example"',
      'pressReleases.permalink="/../../../etc/passwd"',
      'pressReleases.permalink=""',
      'pressReleases.title=""',
      'events.ends_at="soon"',
      'pages.slug="../../x"',
      'pressReleases.permalink="/pages/about-us"',
      'pressReleases.permalink="/CON"',
    ]) {
      expect(fields).toContain(wanted);
    }
    expect(FLAWS.find((f) => f.collection === 'images' && f.field === 'file_size')!.value).toBeLessThan(0);
    expect(FLAWS.find((f) => f.collection === 'prContacts' && f.field.startsWith('urls.'))!.value).toMatch(/^javascript:/);
  });

  it('serves every flawed item with its broken value, by id and in its list', async () => {
    for (const flaw of FLAWS) {
      const route = ROUTE[flaw.collection];
      const one = await flawed().json(`${route}/${flaw.id}`);
      expect(one.status, `${route}/${flaw.id}`).toBe(200);
      expect(valueAt(one.body.data, flaw.field), `${route}/${flaw.id} ${flaw.field}`).toEqual(flaw.value);
      const listed = (await flawed().json(`${route}?limit=9999`)).body.data as Item[];
      expect(
        valueAt(
          listed.find((i) => i.id === flaw.id)!,
          flaw.field,
        ),
        `${route} ${flaw.id}`,
      ).toEqual(flaw.value);
    }
    const release = (await flawed().json(`press_releases/${FLAWS.find((f) => f.expect === 'item-skipped')!.id}`)).body.data;
    expect([release.title, release.body_html]).toEqual(['', '']);
  });

  it('puts flawed items among the good ones, public, on every route a public item would be', async () => {
    const w = flawed().store().world;
    const tag = w.tags[0]!.slug;
    for (const flaw of FLAWS.filter((f) => f.collection === 'pressReleases')) {
      for (const route of ['timeline', 'search/all', 'search/press_releases', `tagged/press_releases?tags=${tag}`]) {
        expect(await listIds(flawed, route), `${route} ${flaw.id}`).toContain(flaw.id);
      }
    }
    for (const flaw of FLAWS.filter((f) => f.collection === 'clippings')) {
      for (const route of ['timeline', 'search/all', `tagged/clippings?tags=${tag}`])
        expect(await listIds(flawed, route), `${route} ${flaw.id}`).toContain(flaw.id);
      const about = w.clippings.find((c) => c.id === flaw.id)!.press_release_id!;
      const release = (await flawed().json(`press_releases/${about}?includes=clippings`)).body.data;
      expect(release.clippings.map((c: Item) => c.id)).toContain(flaw.id);
    }
    const event = FLAWS.find((f) => f.collection === 'events')!;
    expect(await listIds(flawed, 'timeline')).toContain(event.id);
    expect(await listIds(flawed, `tagged/events?tags=${tag}`)).toContain(event.id);
    const page = FLAWS.find((f) => f.collection === 'pages')!;
    expect(await listIds(flawed, `tagged/pages?tags=${tag}`)).toContain(page.id);
    const contact = FLAWS.find((f) => f.collection === 'prContacts')!;
    expect((await flawed().json('')).body.data.pr_contacts.map((c: Item) => c.id)).toContain(contact.id);
    // The good ones are all still there.
    for (const route of ['press_releases', 'clippings', 'events', 'pages', 'pr_contacts', 'images']) {
      const good = await listIds(plain, route);
      const all = await listIds(flawed, route);
      expect(
        all.filter((id) => !FLAWS.some((f) => f.id === id)),
        route,
      ).toEqual(good);
      expect(all.length - good.length, route).toBe(FLAWS.filter((f) => ROUTE[f.collection] === route).length);
    }
  });

  it("serves bytes behind the flawed items' media", async () => {
    const image = (await flawed().json(`images/${FLAWS.find((f) => f.collection === 'images')!.id}`)).body.data;
    const clipping = (await flawed().json(`clippings/${FLAWS.find((f) => f.collection === 'clippings')!.id}`)).body.data;
    for (const r of [...Object.values(image.sizes), ...Object.values(clipping.sizes)] as Item[]) {
      const res = await fetch(r.url);
      expect(res.status, r.url).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('is absent without the flag, and switched on through the admin settings gives the same bytes as at start', async () => {
    for (const flaw of FLAWS) expect((await plain().api(`${ROUTE[flaw.collection]}/${flaw.id}`)).status).toBe(404);
    const answers = async (emu: Emu) =>
      Promise.all(
        FLAWS.map(async (f) => (await (await emu().api(`${ROUTE[f.collection]}/${f.id}`)).text()).replaceAll(emu().url, 'ORIGIN')),
      );
    const expected = await answers(flawed);
    expect((await plain().admin('POST', '/settings', { flaws: true })).body.data.flaws).toBe(true);
    try {
      expect(await answers(plain)).toEqual(expected);
    } finally {
      await plain().admin('POST', '/settings', { flaws: false });
    }
    for (const flaw of FLAWS) expect((await plain().api(`${ROUTE[flaw.collection]}/${flaw.id}`)).status).toBe(404);
  });

  it('keeps every broken value in legacy shapes too', async () => {
    await flawed().admin('POST', '/settings', { shapes: 'legacy' });
    try {
      for (const flaw of FLAWS) {
        const one = await flawed().json(`${ROUTE[flaw.collection]}/${flaw.id}`);
        expect(valueAt(one.body.data, flaw.field), `${flaw.collection} ${flaw.id} ${flaw.field}`).toEqual(flaw.value);
      }
    } finally {
      await flawed().admin('POST', '/settings', { shapes: 'current' });
    }
  });
});
