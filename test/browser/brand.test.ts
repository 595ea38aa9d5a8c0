/**
 * A press room made its own (docs/branding.md), in Chromium: built from an upstream whose design
 * is not the built-in one, with every pressroom() option set in an Astro config of the test's own
 * (the project's astro.config.mjs with pressroom({ … }) in place of pressroom()). It reads the
 * computed styles: the design's header and background colours, the option's link colour
 * (contrast-checked), the team's CSS applied last, the font from a local file served by the site;
 * the logo file's pixels in the header, the share image and the JSON-LD; the extra links per
 * language; the overridden Header and ReleaseCard.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { chosenDesign, parseHex, themeFrom } from '../../src/lib/color.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { hasChromium, launchChromium, serveStatic, watchedPage, type StaticServer } from './helpers.ts';
import { cleanBuildEnv, runBuild } from '../site/global-setup.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
/** The newsroom's own design, as the API sends it: none of it the site's built-in colours. */
const DESIGN = { link_color: '#2e7d32', background_color: '#fffaf0', header_color: '#4a148c' };
/** A link colour too faint for text: the build darkens it and says so. */
const LINK_OPTION = '#ffd54f';
/** Any TrueType font on this machine stands in for a brand font (Chromium's own dependency). */
const SYSTEM_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';
const LOGO_RGB = { r: 216, g: 27, b: 96 };

let api: RunningEmulator;
let browser: Browser;
let server: StaticServer;
let tmp: string;
let buildLog = '';
const hasFont = existsSync(SYSTEM_FONT);

function rgb(hex: string): string {
  const { r, g, b } = parseHex(hex)!;
  return `rgb(${r}, ${g}, ${b})`;
}

async function buildBrandedSite(outDir: string, configFile: string): Promise<void> {
  const built = await runBuild(
    outDir,
    {
      ...cleanBuildEnv(),
      // Copied with its /v1, as a team often does: read as the base it means.
      PRESSROOM_API_URL: `${api.url}/v1/`,
      PRESSROOM_ID: String(api.pressroom.id),
      PRESSROOM_SITE_URL: 'https://press.example.test',
      PRESSROOM_CACHE_DIR: path.join(tmp, 'cache'),
      SOURCE_DATE_EPOCH: String(Math.floor(Date.parse(DEMO_NOW) / 1000)),
    },
    configFile,
  );
  buildLog = built.output;
  if (built.code !== 0) throw new Error(`the branded site did not build (exit ${built.code}):\n${buildLog.slice(-4000)}`);
}

beforeAll(async () => {
  if (!hasChromium) return;
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pressroom-brand-'));
  api = await startEmulator({ frozenClock: true, scale: 12, images: 12, kits: 4, design: DESIGN, cacheDir: TEST_MEDIA_CACHE });
  if (hasFont) await copyFile(SYSTEM_FONT, path.join(tmp, 'brand.ttf'));
  const options = {
    theme: {
      logo: 'test/fixtures/brand/logo.png',
      colors: { link: LINK_OPTION },
      customCss: ['test/fixtures/brand/brand.css'],
      fonts: hasFont
        ? { body: "'Brand Sans', system-ui, sans-serif", files: [{ family: 'Brand Sans', src: path.join(tmp, 'brand.ttf'), weight: 400 }] }
        : {},
    },
    nav: [{ label: { en: 'Careers', nl: 'Vacatures', de: 'Karriere' }, href: 'https://northwind.example/careers' }],
    footer: [{ label: 'Privacy', href: '/privacy/' }],
    components: { Header: 'test/fixtures/brand/Header.astro', ReleaseCard: 'test/fixtures/brand/ReleaseCard.astro' },
  };
  const configFile = path.join(tmp, 'astro.config.mjs');
  await writeFile(
    configFile,
    [
      `import site from ${JSON.stringify(pathToFileURL(path.join(root, 'astro.config.mjs')).href)};`,
      `import pressroom from ${JSON.stringify(pathToFileURL(path.join(root, 'src', 'integrations', 'pressroom.ts')).href)};`,
      `const options = ${JSON.stringify(options)};`,
      `export default { ...site, integrations: site.integrations.map((i) => (i.name === 'pressroom-static' ? pressroom(options) : i)) };`,
    ].join('\n'),
  );
  const outDir = path.join(tmp, 'dist');
  await buildBrandedSite(outDir, configFile);
  [browser, server] = await Promise.all([launchChromium(), serveStatic(outDir)]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('a press room in its own brand', () => {
  it("shows the API's design where no option is set, the option where one is (contrast-checked), said once in the build", async () => {
    const expected = themeFrom(chosenDesign({ link: LINK_OPTION }, DESIGN));
    expect(expected.link).not.toBe(LINK_OPTION);
    const w = await watchedPage(browser, server.origin);
    try {
      await w.page.goto(`${server.origin}/releases/`, { waitUntil: 'load' });
      const styles = await w.page.evaluate(() => {
        // A plain link in the page's content, as a release body has them.
        const link = document.querySelector('main')!.appendChild(document.createElement('a'));
        link.href = '/';
        return {
          header: getComputedStyle(document.querySelector('header.site-header')!).backgroundColor,
          page: getComputedStyle(document.body).backgroundColor,
          link: getComputedStyle(link).color,
        };
      });
      expect(styles).toEqual({ header: rgb(DESIGN.header_color), page: rgb(DESIGN.background_color), link: rgb(expected.link) });
      expect(buildLog.match(/theme: the link colour #ffd54f is too faint/g)).toHaveLength(1);
      expect(w.failed).toEqual([]);
      expect(w.foreign).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it("applies the team's CSS after the site's own, and the brand font from a file the site serves", async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      await w.page.goto(`${server.origin}/`, { waitUntil: 'load' });
      const seen = await w.page.evaluate(async () => {
        await document.fonts.ready;
        const footer = getComputedStyle(document.querySelector('footer.site-footer')!);
        const sheets = [...document.styleSheets].map((s) => s.href ?? 'inline');
        return {
          border: `${footer.borderTopWidth} ${footer.borderTopColor}`,
          lastSheet: sheets.at(-1),
          font: getComputedStyle(document.body).fontFamily,
          fontLoaded: document.fonts.check("16px 'Brand Sans'") && [...document.fonts].some((f) => f.status === 'loaded'),
        };
      });
      // site.css gives the footer a 1px border in the theme's colour; the team's file wins.
      expect(seen.border).toBe(`6px ${rgb('#d81b60')}`);
      expect(seen.lastSheet).toMatch(/\/_astro\/brand\.[\w-]+\.css$/);
      if (hasFont) {
        expect(seen.font).toMatch(/^"?Brand Sans"?, system-ui/);
        expect(seen.fontLoaded).toBe(true);
        const font = w.requests.filter((u) => /\.ttf$/.test(u));
        expect(font).toHaveLength(1);
        expect(new URL(font[0]!).origin).toBe(server.origin);
      }
      expect(w.foreign).toEqual([]);
      expect(w.failed).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('shows the logo file in the header, and uses it for share images, JSON-LD and the icons', async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      await w.page.goto(`${server.origin}/`, { waitUntil: 'load' });
      const logo = w.page.locator('header.site-header a.brand img');
      const src = await logo.evaluate((img) => (img as HTMLImageElement).currentSrc);
      expect(new URL(src).pathname).toMatch(/^\/_media\//);
      const bytes = Buffer.from(await (await w.page.request.get(src)).body());
      // The fixture is one magenta field with a white disc: the header shows its pixels, not the API's logo.
      const { dominant } = await sharp(bytes).stats();
      expect(dominant).toEqual(expect.objectContaining({ r: expect.closeTo(LOGO_RGB.r, -1.5), g: expect.closeTo(LOGO_RGB.g, -1.5) }));
      const meta = await w.page.evaluate(() => ({
        og: document.querySelector('meta[property="og:image"]')?.getAttribute('content') ?? '',
        jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent).join(''),
      }));
      const shared = new URL(meta.og).pathname;
      expect(meta.jsonLd).toContain(`"logo":"https://press.example.test${shared}"`);
      const share = await sharp(await readFile(path.join(tmp, 'dist', shared))).stats();
      expect(share.dominant.r).toBeCloseTo(LOGO_RGB.r, -1.5);
      const icon = await sharp(await readFile(path.join(tmp, 'dist', 'icon-192.png'))).stats();
      expect(icon.dominant.r).toBeCloseTo(LOGO_RGB.r, -1.5);
    } finally {
      await w.context.close();
    }
  });

  it("adds the extra links after the built-in ones, labelled in each page's language", async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      const last = async (selector: string) =>
        w.page
          .locator(selector)
          .last()
          .evaluate((a) => ({ text: a.textContent?.trim(), href: a.getAttribute('href') }));
      for (const [page, label] of [
        ['/', 'Careers'],
        ['/nl/', 'Vacatures'],
        ['/de/', 'Karriere'],
      ] as const) {
        await w.page.goto(`${server.origin}${page}`, { waitUntil: 'load' });
        expect(await last('nav.site-nav a'), page).toEqual({ text: label, href: 'https://northwind.example/careers' });
      }
      await w.page.goto(`${server.origin}/`, { waitUntil: 'load' });
      expect(await last('footer [aria-labelledby="footer-nav"] a')).toEqual({ text: 'Privacy', href: '/privacy/' });
      const builtIn = await w.page.locator('nav.site-nav a').allTextContents();
      expect(builtIn.slice(0, 2).map((t) => t.trim())).toEqual(['Press releases', 'Topics']);
    } finally {
      await w.context.close();
    }
  });

  it("renders the team's own Header and ReleaseCard in place of the site's", async () => {
    const w = await watchedPage(browser, server.origin);
    try {
      await w.page.goto(`${server.origin}/releases/`, { waitUntil: 'load' });
      expect(await w.page.locator('[data-team-header]').textContent()).toBe('Northwind press office');
      // The team's header renders the site's inside it: still one banner with the search box.
      expect(await w.page.locator('header.site-header form[role="search"]').count()).toBe(1);
      const cards = w.page.locator('[data-team-card]');
      expect(await cards.count()).toBeGreaterThan(0);
      expect(await w.page.locator('main article:not([data-team-card]) h3 a[href*="-northwind"]').count()).toBe(0);
    } finally {
      await w.context.close();
    }
  });
});
