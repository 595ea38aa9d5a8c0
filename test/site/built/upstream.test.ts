/**
 * The site built from the live API at its worst (test/site/global-setup.ts):
 * older, sparser shapes, broken items among the good ones, and every hidden
 * item leaked into every route. It publishes completely, warns once about
 * each broken item (naming it), shows what the older shapes carry, and
 * nothing that is not public reaches any file: pages, feeds, sitemaps,
 * calendars, vCards, the search index or a media-kit zip.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DataReport } from '../../../content-loaders/data-policy/issues.ts';
import { FLAWS, hiddenMarkers, startEmulator, type RunningEmulator } from '../../../emulator/server.ts';
import { isPublic } from '../../../emulator/model/visibility.ts';
import { TEST_MEDIA_CACHE } from '../../helpers/emulator.ts';
import { UPSTREAM_OPTIONS } from '../global-setup.ts';
import { elements, jsonLd, listFiles, loadPages, meta, type BuiltPage } from '../helpers.ts';
import { lineProblems, parseCalendar } from '../content-lines.ts';

const site = inject('upstreamSite');
let api: RunningEmulator;
let pages: Map<string, BuiltPage>;
let report: DataReport;

beforeAll(async () => {
  api = await startEmulator({ ...UPSTREAM_OPTIONS, cacheDir: TEST_MEDIA_CACHE });
  pages = new Map((await loadPages(site.dir)).map((p) => [p.path, p]));
  report = JSON.parse(await readFile(site.report, 'utf8')) as DataReport;
});
afterAll(() => api?.close());

const kindOf = {
  'field-dropped': 'field-dropped',
  'safe-path': 'field-replaced',
  'item-skipped': 'item-skipped',
  'moved-path': 'field-replaced',
} as const;
const legacy = async (p: string) =>
  ((await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/${p}`)).json()) as { data: any }).data;

describe('broken items among the good ones', () => {
  it('are each named in the build log and the data report, with what was done; nothing else is warned about', () => {
    for (const flaw of FLAWS) {
      const warnings = report.warnings.filter((w) => w.collection === flaw.collection && w.itemId === String(flaw.id));
      expect(
        warnings.map((w) => [w.kind, w.field]),
        `${flaw.collection} ${flaw.id}`,
      ).toContainEqual([kindOf[flaw.expect], flaw.field]);
      expect(site.log).toContain(`${flaw.collection}: item ${flaw.id} from `);
    }
    const flawed = new Set(FLAWS.map((f) => `${f.collection} ${f.id}`));
    expect(
      report.warnings
        .filter((w) => !flawed.has(`${w.collection} ${w.itemId}`))
        .map((w) => `${w.collection} ${w.itemId} ${w.kind} ${w.field} ${w.value} ${w.reason}`),
    ).toEqual([]);
  });

  it('do not stop the rest: every public release has its page, the skipped one none, unusable permalinks at /<id>-<slug>/, moved ones at /<id>/', () => {
    const now = api.store().clock.now();
    const skipped = new Set(FLAWS.filter((f) => f.expect === 'item-skipped').map((f) => f.id));
    const unusable = new Set(FLAWS.filter((f) => f.collection === 'pressReleases' && f.expect === 'safe-path').map((f) => f.id));
    const moved = new Set(FLAWS.filter((f) => f.collection === 'pressReleases' && f.expect === 'moved-path').map((f) => f.id));
    const releases = api.store().world.pressReleases.filter((r) => isPublic(r, now));
    expect(releases.length).toBeGreaterThan(40);
    for (const release of releases) {
      if (skipped.has(release.id)) {
        expect(
          [...pages.keys()].some((p) => p.startsWith(`/${release.id}`)),
          `${release.id}`,
        ).toBe(false);
      } else if (moved.has(release.id)) {
        expect(pages.get(`/${release.id}/`)?.html, `${release.id}`).toContain(release.title.replace(/&/g, '&amp;'));
        expect(pages.get(`${release.permalink}/`)?.html ?? '', release.permalink).not.toContain(release.title);
      } else if (unusable.has(release.id)) {
        const at = [...pages.keys()].filter((p) => new RegExp(`^/${release.id}-[a-z0-9-]+/$`).test(p));
        expect(at, `${release.id}`).toHaveLength(1);
        expect(pages.get(at[0]!)!.html).toContain(release.title.replace(/&/g, '&amp;'));
      } else {
        expect(pages.has(`${release.permalink}/`), release.permalink).toBe(true);
      }
    }
  });

  it('write nothing outside the site, nor where an unusable permalink points', async () => {
    // `/../../../etc/passwd` lands on `/etc/passwd`, whose first segment could be a language: no redirect page either.
    expect(existsSync(path.join(site.dir, '..', 'etc'))).toBe(false);
    expect([...pages.keys()].filter((p) => p.startsWith('/etc/'))).toEqual([]);
    const sitemap = await readFile(path.join(site.dir, 'sitemap-0.xml'), 'utf8');
    expect(sitemap).not.toMatch(/passwd|%2e%2e|\.\.\//i);
  });

  it('write calendars a strict client reads: an end past the year 9999 dropped, every date RFC 5545', async () => {
    const flaw = FLAWS.find((f) => f.collection === 'events' && String(f.value).startsWith('+275760'))!;
    const files = (await listFiles(site.dir)).filter((f) => f.endsWith('.ics'));
    const own = files.find((f) => path.basename(f).startsWith(`${flaw.id}-`));
    expect(own, 'the event keeps its own calendar file').toBeDefined();
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      expect(lineProblems(text), file).toEqual([]);
      // ical.js reads each date; a year of more than four digits is no RFC 5545 DATE-TIME at all.
      const parsed = parseCalendar(text);
      for (const [, name, value] of text.matchAll(/^(DTSTART|DTEND|DTSTAMP)[^:\r\n]*:([^\r\n]*)/gm))
        expect(value, `${path.basename(file)} ${name}`).toMatch(/^\d{8}(T\d{6}Z?)?$/);
      const event = parsed.events.find((e) => e.uid.startsWith(`event-${flaw.id}@`));
      if (file === own || path.basename(file) === 'calendar.ics') {
        expect(event, path.basename(file)).toBeDefined();
        expect(new Date(event!.start).getUTCFullYear()).toBeLessThan(10_000);
        expect(event!.end === null || new Date(event!.end).getUTCFullYear() < 10_000).toBe(true);
      }
    }
  });
});

describe('what older answers carry', () => {
  it("shows contacts' e-mail addresses and phones found in their free-text contact_info, on the page and in the vCard", async () => {
    const contacts = pages.get('/contacts/')!;
    const listed = (await legacy('pr_contacts')) as Array<{ id: number; email?: string; contact_info: string }>;
    expect(listed.every((c) => c.email === undefined)).toBe(true);
    const modelled = api.store().world.prContacts;
    expect(modelled.length).toBeGreaterThan(2);
    for (const contact of modelled) {
      expect(contacts.html, contact.name).toContain(`href="mailto:${contact.email}"`);
      const vcf = (await listFiles(path.join(site.dir, 'contacts'))).find((f) => path.basename(f).startsWith(`${contact.id}-`));
      expect(await readFile(vcf!, 'utf8')).toContain(`EMAIL;TYPE=INTERNET,WORK,PREF:${contact.email}`);
    }
    expect(contacts.html).toMatch(/href="tel:\+\d+"/);
    const people = jsonLd(contacts.doc) as Array<{ '@type'?: string; email?: string; telephone?: string }>;
    for (const contact of modelled)
      expect(
        people.find((p) => p['@type'] === 'Person' && p.email === contact.email),
        contact.name,
      ).toBeDefined();
    expect(people.filter((p) => p['@type'] === 'Person').every((p) => typeof p.telephone === 'string')).toBe(true);
  });

  it('shows the logo it sends without dimensions, measured, in the header, og:image and the Organization JSON-LD', async () => {
    const room = await legacy('');
    expect(room.logo.width ?? null).toBeNull();
    const home = pages.get('/')!;
    const logo = elements(home.doc, 'header').flatMap((h) => elements(h, 'img'))[0];
    expect(Number(logo?.attribs.width)).toBeGreaterThan(0);
    expect(Number(logo?.attribs.height)).toBeGreaterThan(0);
    // The site is served under a path (global-setup.ts): its URLs carry it, its files do not.
    expect(logo!.attribs.src!.startsWith(`${site.base}_media/`)).toBe(true);
    expect(existsSync(path.join(site.dir, logo!.attribs.src!.slice(site.base.length)))).toBe(true);
    expect(meta(home.doc, 'og:image')).toMatch(new RegExp(`^${site.siteUrl}_media/`));
    const logos = [...pages.values()].flatMap((p) => JSON.stringify(jsonLd(p.doc)).match(/"logo":(\{[^}]*\}|"[^"]*")/g) ?? []);
    expect(logos.length).toBeGreaterThan(0);
    for (const logoLd of logos) expect(logoLd).toMatch(/\/_media\/[0-9a-f]+-\d+x\d+\.(png|jpg)/);
  });

  it('lists clippings the API sends without a date', async () => {
    const listed = (await legacy('clippings?limit=100')) as Array<{
      title: string;
      release_date: string | null;
      private?: unknown;
      state?: string;
    }>;
    // The leaky legacy answers spell these as other upstreams do (" PUBLISHED ", "yes", 1).
    const saysTrue = (v: unknown) => /^\s*(true|t|yes|y|on|1)\s*$/i.test(String(v));
    const undated = listed.filter((c) => c.release_date === null && !saysTrue(c.private) && c.state?.trim().toLowerCase() === 'published');
    expect(undated.length).toBeGreaterThan(0);
    const coverage = [...pages.values()]
      .filter((p) => p.path.startsWith('/coverage/'))
      .map((p) => p.html)
      .join('\n');
    for (const clipping of undated) expect(coverage).toContain(clipping.title.replace(/&/g, '&amp;'));
  });
});

/** Every entry name and text inside a zip. */
function zipText(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const parts: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        parts.push(entry.fileName);
        if (!/\.(json|txt|md)$/i.test(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            parts.push(Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(parts.join('\n')));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('what the API leaks', () => {
  it('reaches no file: pages, feeds, sitemaps, calendars, vCards, JSON-LD, the search index, media-kit zips', async () => {
    const files = await listFiles(site.dir);
    const hits: string[] = [];
    let zips = 0;
    let searchFiles = 0;
    for (const file of files) {
      const rel = path.relative(site.dir, file);
      let content: string;
      if (file.endsWith('.zip')) {
        zips++;
        content = await zipText(file);
      } else if (rel.startsWith(`pagefind${path.sep}`) && /\.pf_(fragment|index|meta)$/.test(file)) {
        searchFiles++;
        content = gunzipSync(await readFile(file)).toString('utf8');
      } else if (/\.(html|xml|json|txt|md|ics|vcf|js|css)$/i.test(file)) {
        content = await readFile(file, 'utf8');
      } else continue;
      for (const marker of hiddenMarkers()) if (content.includes(marker)) hits.push(`${rel}: ${marker}`);
    }
    expect(zips).toBeGreaterThan(0);
    expect(searchFiles).toBeGreaterThan(0);
    expect(hits).toEqual([]);
  });

  it('is kept out and counted by kind, never printed', () => {
    const hidden = Object.values(report.collections).reduce((n, t) => n + Object.values(t.hidden).reduce((a, b) => a + (b ?? 0), 0), 0);
    expect(hidden).toBeGreaterThan(10);
    expect(report.collections.pressReleases?.hidden).toMatchObject({
      draft: expect.any(Number),
      private: expect.any(Number),
      embargoed: expect.any(Number),
    });
    expect(report.nextEmbargoLift).not.toBeNull();
    for (const marker of hiddenMarkers()) expect(site.log).not.toContain(marker);
  });
});

describe('the data store', () => {
  it('is read from its file when the pages render, not bundled into them', () => {
    expect(site.log).toMatch(/\[pressroom-static\] data store: .* read at render time from .*data-store\.json, not bundled/);
  });

  it("is not kept twice: Astro's synced copy is let go when the build starts", () => {
    expect(site.log).toContain("[pressroom-static] data store: Astro's synced copy let go, the pages read its file");
  });
});
