/**
 * The site's icons, linked from every page (Base.astro) at fixed addresses,
 * as browsers and iOS also ask for them unprompted:
 *
 *   /favicon.ico            16, 32 and 48 px PNGs in one ICO
 *   /icon-192.png           192 px
 *   /apple-touch-icon.png   180 px, opaque (iOS shows transparency as black)
 *
 * Derived from the press room's logo: a square centre crop of the largest
 * rendition the image pipeline made of it (so the logo is downloaded, checked
 * and cached the same way), kept in `<PRESSROOM_CACHE_DIR or .cache>/site-icons/<rendition>/`, named
 * after that content-addressed rendition: a warm build reuses them and runs no
 * sharp at all. Without a logo the neutral icons in `public/` stay
 * (`deriveIcons` made them from `src/lib/fallback-icon.svg`).
 * src/integrations/site-icons.ts copies the derived ones into the build.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import icoEndec from 'ico-endec';
import { sessionState } from '../config/session.ts';
import { getImagePipeline, picture } from './image-pipeline.ts';
import type { PictureSource } from './images.ts';

export const ICON_FILES = ['favicon.ico', 'icon-192.png', 'apple-touch-icon.png'] as const;
export type IconFile = (typeof ICON_FILES)[number];

/** What every page's head links (site paths: the base path is prefixed by the caller). */
export const ICON_LINKS: ReadonlyArray<{ rel: string; file: IconFile; sizes: string; type?: string }> = [
  { rel: 'icon', file: 'favicon.ico', sizes: '16x16 32x32 48x48' },
  { rel: 'icon', file: 'icon-192.png', sizes: '192x192', type: 'image/png' },
  { rel: 'apple-touch-icon', file: 'apple-touch-icon.png', sizes: '180x180' },
];

const ICO_SIZES = [16, 32, 48];
/** Part of the cache key: change it when the icons are made differently. */
const ICONS_VERSION = 1;

/** The three icon files from one image (any format sharp reads): square centre crops; `background` fills the apple-touch icon. */
export async function deriveIcons(input: Buffer | string, background: string): Promise<Record<IconFile, Buffer>> {
  const square = (size: number) => sharp(input).resize(size, size, { fit: 'cover', position: 'centre' });
  const png = (image: ReturnType<typeof sharp>) => image.png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
  const ico = icoEndec.encode(await Promise.all(ICO_SIZES.map((size) => png(square(size)))));
  return {
    'favicon.ico': ico,
    'icon-192.png': await png(square(192)),
    'apple-touch-icon.png': await png(square(180).flatten({ background })),
  };
}

export interface BuiltIcons {
  /** The folder holding the three files. */
  dir: string;
  /** Whether this build derived them (false: reused from the cache). */
  derived: boolean;
}

interface Holder {
  cacheDir?: string;
  /** This build's icons, once a page asked for them (null: no usable logo). */
  icons?: Promise<BuiltIcons | null>;
}
declare module '../config/session.ts' {
  interface SessionState {
    siteIcons: Holder;
  }
}

// In the build session: Astro loads the integration and the pages in separate module graphs.
const holder = (): Holder => sessionState('siteIcons', () => ({}));

/** Where derived icons are kept (the integration sets `<PRESSROOM_CACHE_DIR or .cache>/site-icons`), and a fresh start for a build. */
export function configureSiteIcons(cacheDir: string): void {
  Object.assign(holder(), { cacheDir, icons: undefined });
}

/** Forgets the icons a page asked for: a warm renderer's next change asks again, for the logo and colour of its data. */
export function forgetSiteIcons(): void {
  holder().icons = undefined;
}

/** The folder holding this build's icons, if a page asked for them (src/integrations/site-icons.ts copies them). */
export function builtSiteIcons(): Promise<BuiltIcons | null> | undefined {
  return holder().icons;
}

/** Makes sure the logo's icons exist (once per build, whichever page asks first). */
export function siteIcons(logo: PictureSource | null, background: string): Promise<BuiltIcons | null> {
  const h = holder();
  h.icons ??= logo ? iconsFor(logo, background, h.cacheDir ?? path.resolve('.cache', 'site-icons')) : Promise.resolve(null);
  return h.icons;
}

async function iconsFor(logo: PictureSource, background: string, cacheDir: string): Promise<BuiltIcons | null> {
  const logoPicture = await picture(logo, { page: '/', shape: 'natural' });
  if (!logoPicture.ok) return null;
  const largest = [...logoPicture.all].sort((a, b) => b.width * b.height - a.width * a.height)[0];
  const url = largest && (largest.files.png ?? largest.files.jpeg ?? largest.files.webp);
  const name = url?.slice(url.lastIndexOf('/') + 1);
  const source = name ? (await getImagePipeline()).published().get(name) : undefined;
  if (!name || !source) return null;
  const dir = path.join(cacheDir, `${name.replace(/\.[a-z0-9]+$/, '')}-${background.replace(/[^0-9a-z]/gi, '')}-v${ICONS_VERSION}`);
  if (ICON_FILES.every((file) => existsSync(path.join(dir, file)))) return { dir, derived: false };
  const icons = await deriveIcons(await readFile(source), background);
  // Written beside and renamed into place: a killed build never leaves half a set under the final name.
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  for (const file of ICON_FILES) await writeFile(path.join(tmp, file), icons[file]);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  return { dir, derived: true };
}
