/**
 * Links from the hosted newsroom keep working: every media kit, clipping, media item and live
 * event of the API has a redirect page at its permalink that sends the reader, at once, to where
 * the item is on this site (a page, or an anchor on a listing that exists there); redirect pages
 * are never indexed, in the sitemap or in the search index.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator.ts';
import { allElements, elements, loadPages, meta, text, type BuiltPage } from '../helpers.ts';

interface ApiItem {
  id: number;
  title: string;
  permalink: string | null;
  type?: string;
}

const emulator = useEmulator({ frozenClock: true });
const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');

let items: Record<'media_kits' | 'clippings' | 'images' | 'movies' | 'videos' | 'sounds' | 'documents' | 'live_events', ApiItem[]>;
let pages: Map<string, BuiltPage>;

beforeAll(async () => {
  const api = emulator();
  const get = async (p: string) => (await api.json<{ data: ApiItem[] }>(`${p}?limit=10000`)).body.data;
  const names = ['media_kits', 'clippings', 'images', 'movies', 'videos', 'sounds', 'documents'] as const;
  const lists = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await get(n)] as const)));
  // Live events have no list route: they are named by their events.
  const events = (await api.json<{ data: Array<{ live_event_id: number | null }> }>('events?limit=10000')).body.data;
  const liveIds = [...new Set(events.flatMap((e) => (e.live_event_id ? [e.live_event_id] : [])))];
  const live = await Promise.all(liveIds.map(async (id) => (await api.json<ApiItem | { data: ApiItem }>(`live_events/${id}`)).body));
  items = { ...lists, live_events: live.map((l) => ('data' in l ? l.data : l)) } as typeof items;
  pages = new Map((await loadPages(siteDir)).map((p) => [p.path, p]));
});

const at = (permalink: string) => pages.get(`${permalink.replace(/\/$/, '')}/`);

describe("redirects from the hosted newsroom's addresses", () => {
  it('has a redirect page at the permalink of every kit, clipping, media item and live event', () => {
    for (const [name, list] of Object.entries(items)) {
      expect(list.length, name).toBeGreaterThan(0);
      for (const item of list) {
        expect(item.permalink, `${name} ${item.id}`).toMatch(/^\/[a-z_]+\/\d+/);
        const page = at(item.permalink!);
        expect(page, `${name} ${item.id}: no page at ${item.permalink}/`).toBeDefined();
        expect(page!.redirectTo, item.permalink!).toBeDefined();
        expect(elements(page!.doc, 'h1').map(text)).toEqual([item.title]);
      }
    }
  });

  it('sends each to the item on this site: its page, or its anchor on the listing that shows it', () => {
    const kitPaths = new Set(items.media_kits.map((k) => `/media-kits/${k.permalink!.split('/').pop()}/`));
    for (const [name, list] of Object.entries(items)) {
      for (const item of list) {
        const page = at(item.permalink!)!;
        const to = page.redirectTo!;
        const [targetPath, anchor] = to.split('#') as [string, string | undefined];
        const target = pages.get(targetPath);
        expect(target, `${item.permalink} → ${to}`).toBeDefined();
        expect(target!.redirectTo, `${to} is itself a redirect`).toBeUndefined();
        if (name === 'media_kits') expect(kitPaths.has(targetPath)).toBe(true);
        if (name === 'live_events') expect(targetPath).toMatch(/^\/events\/\d+-[^/]+\/$/);
        if (name === 'clippings') expect(anchor).toBe(`clipping-${item.id}`);
        if (['images', 'movies', 'videos', 'sounds', 'documents'].includes(name)) {
          expect(targetPath, to).toMatch(/^\/media\/(images|videos|audio|documents)\/(\d+\/)?$/);
          expect(anchor).toBe(`${item.type}-${item.id}`);
        }
        if (anchor !== undefined) {
          const ids = allElements(target!.doc).map((el) => el.attribs.id);
          expect(ids, `${to}: no element #${anchor}`).toContain(anchor);
        }
        const canonical = elements(page.doc, 'link').find((l) => l.attribs.rel === 'canonical')?.attribs.href;
        expect(canonical).toBe(`${siteUrl}${to}`);
        expect(meta(page.doc, 'robots')).toBe('noindex');
        expect(elements(page.doc, 'a').map((a) => a.attribs.href)).toContain(to);
        expect(elements(page.doc, 'html')[0]?.attribs.lang).toBe('en');
      }
    }
  });

  it('keeps redirect pages out of the sitemap and the search index', async () => {
    const redirects = [...pages.values()].filter((p) => p.redirectTo !== undefined);
    expect(redirects.length).toBeGreaterThan(20);
    const sitemap = await readFile(path.join(siteDir, 'sitemap-0.xml'), 'utf8');
    for (const page of redirects) {
      expect(sitemap).not.toContain(`<loc>${siteUrl}${page.path}</loc>`);
      expect(page.html).not.toContain('data-pagefind-body');
    }
    expect(sitemap).toContain(`<loc>${siteUrl}/media-kits/</loc>`);
  });
});
