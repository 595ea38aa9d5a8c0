/**
 * The build's image pipeline (@pressroom-static/image-pipeline) for pages and
 * components: every picture, download and media-kit zip of the site is served
 * from the site itself, under `<outDir>/_media/`.
 *
 * API for pages and components (all async, all safe to call from many pages at once):
 *
 *   picture(media, { page, shape })  → Picture
 *       media: anything with `sizes` (media items, `{ sizes: tag.image }`, `{ sizes: contact.avatar }`,
 *       `logoMedia(pressroom.logo)` from src/lib/images.ts). `{ ok: true, src, width, height, sources, fallback, renditions }`
 *       for `<picture>`, or `{ ok: false, status: 'missing' | 'refused', reason, width?, height? }` for a
 *       placeholder. `shape: 'square'` picks the centre crops (`square`, `*_square`). Use the
 *       MediaPicture component rather than calling this directly.
 *   download(item, { page, name? })  → Download | null
 *       The original file of an image (its `original`, else its largest declared rendition), document, sound
 *       or movie, published under `_media/`: `{ href, filename, type: 'JPEG image', mime, bytes, size: '2.4 MB',
 *       sha256, width?, height? }`, labelled from the real bytes. null for videos (embeds), items without a
 *       file, refused files. With `name` (`Northwind Hub, Berlin`) the file is `_media/<hash>/northwind-hub-berlin.jpg`:
 *       named for people in its path, which survives file:// and other origins where `download` does not.
 *   poster(movie, { page })          → { src, width, height, picture } | null
 *       A movie's poster frame (its own `sizes` renditions) for `<video poster>`.
 *   mediaKitZip(kit, { page })       → { href, bytes, files, filename, size } | null
 *       One deterministic zip per media kit: every original plus MANIFEST.json (name, type, dimensions,
 *       bytes, SHA-256 per file). null for locked or password-protected kits and kits without files.
 *   mediaZip({ about, name, files: [{ item, name }] }, { page }) → { href, bytes, files, filename, size } | null
 *       The same zip and manifest for any public items (a release's pictures), `about` heading the manifest,
 *       published as `_media/<hash>/<name>.zip` and every file under its `name` for people.
 *   downloadUrl(url, { title, page })→ Download | null
 *       Any recorded original by URL, e.g. a release's `pdf`.
 *   shareImage(media, { page })      → { src, width, height, mime } | null
 *       Site path of a JPEG (PNG with alpha) up to 1200 px wide, for Open Graph / JSON-LD (prefix the site URL).
 *   inlineImages(html, [mediaItems, …], { page }) → (src) => { src, srcset, width, height } | null
 *       For upstream HTML: prepares site-local copies of every `<img src>` in `html` that is a rendition URL
 *       of an item of the lists (looked in in order), and returns a synchronous lookup for the sanitizer
 *       (null = drop the image). Long lists are indexed once per array: pass the same one every time.
 *   stats()                          → counters of this build (downloads, 304s, sharp operations, ...)
 *
 * Pass `page: Astro.url.pathname`: a refused image is a warning naming its URL and that page.
 *
 * The build's pipeline is created on first use from the loaders' runtime (its fetch, which replays a
 * snapshot offline; its shared limiter; the API host), with the settings the integration
 * (src/integrations/images.ts) stored from the build's configuration (cache folder, PRESSROOM_IMAGE_HOSTS).
 * It is kept in the build session (src/config/session.ts): the integration and the pages are loaded by
 * separate module graphs. Live builds download through the pinned fetch (every connection goes to an
 * address the host policy checked as it opened). Tests build their own with `createImagePipeline`.
 */
import path from 'node:path';
import {
  createImagePipeline,
  type CallOptions,
  type Download,
  type DownloadOptions,
  type ImagePipeline,
  type InlineImage,
  type MediaInput,
  type MediaItemInput,
  type MediaKitInput,
  type MediaKitZip,
  type MediaLists,
  type MediaZipInput,
  type Picture,
  type PictureOptions,
  type PipelineLog,
  type PipelineStats,
  type Poster,
  type ShareImage,
  type SharedRenditionStore,
} from '@pressroom-static/image-pipeline';
import { buildRuntime } from '../config/build-runtime.ts';
import { sessionState } from '../config/session.ts';
import { noteMediaIn } from './route-record.ts';

export type { Download, MediaInput, MediaKitZip, MediaLists } from '@pressroom-static/image-pipeline';

export interface PipelineSettings {
  /** Cache folder (default `.cache/images` under the working directory). */
  cacheDir?: string;
  /** Public URL prefix of `_media/` (the site's base path + `_media/`). */
  publicPath?: string;
  avif?: boolean;
  log?: PipelineLog;
  /** Hosts images may come from besides the API's (PRESSROOM_IMAGE_HOSTS). */
  imageHosts?: readonly string[];
  /** `file:` URLs of the site's own pictures (the pressroom() integration's `theme.logo`). */
  localOriginals?: readonly string[];
  /** The renditions' shared store (PRESSROOM_STORE_URL): outputs it holds are taken from it, not encoded. */
  sharedStore?: SharedRenditionStore | undefined;
  /** While workers make renditions: resolves once an original's jobs are done (ImagePipelineOptions.awaitShared). */
  awaitShared?: ((url: string) => Promise<void>) | undefined;
  /** Originals taken as an earlier build recorded them, without a request (a warm change: ImagePipelineOptions.trustedOriginals). */
  trustedOriginals?: ReadonlyMap<string, string> | undefined;
}

interface Holder {
  settings: PipelineSettings;
  pipeline?: Promise<ImagePipeline> | undefined;
}

declare module '../config/session.ts' {
  interface SessionState {
    imagePipeline: Holder;
  }
}

// In the build session: Astro loads the integration and the pages in separate module graphs.
const holder = (): Holder => sessionState('imagePipeline', () => ({ settings: {} }));

/** Settings for the next pipeline (the integrations call this). */
export function configureImagePipeline(settings: PipelineSettings): void {
  Object.assign(holder().settings, settings);
}

/** Forgets this build's pipeline (the next call creates a fresh one with fresh counters). */
export function resetImagePipeline(): void {
  holder().pipeline = undefined;
}

/** The pipeline of this build if one was created (the integration reads its results). */
export function currentImagePipeline(): Promise<ImagePipeline> | undefined {
  return holder().pipeline;
}

/** This build's pipeline, created on first use. */
export function getImagePipeline(): Promise<ImagePipeline> {
  const h = holder();
  h.pipeline ??= (async () => {
    const runtime = await buildRuntime();
    const { settings } = h;
    return createImagePipeline({
      fetch: runtime.fetch,
      limit: (fn) => runtime.client.limit(fn),
      apiUrl: runtime.client.baseUrl,
      imageHosts: settings.imageHosts ?? [],
      localOriginals: settings.localOriginals,
      checkAddresses: runtime.mode === 'live',
      cacheDir: settings.cacheDir ?? path.resolve('.cache', 'images'),
      publicPath: settings.publicPath,
      avif: settings.avif,
      log: settings.log,
      sharedStore: settings.sharedStore,
      awaitShared: settings.awaitShared,
      trustedOriginals: settings.trustedOriginals,
    });
  })().catch((error: unknown) => {
    h.pipeline = undefined;
    throw error;
  });
  return h.pipeline;
}
/** Every `_media/` file a result names is noted for the route rendering (route-record.ts). */
function noted<T>(result: T): T {
  noteMediaIn(result);
  return result;
}

export async function picture(media: MediaInput | null | undefined, options?: PictureOptions): Promise<Picture> {
  return noted(await (await getImagePipeline()).picture(media, options));
}

export async function download(item: MediaItemInput | null | undefined, options?: DownloadOptions): Promise<Download | null> {
  return noted(await (await getImagePipeline()).download(item, options));
}

export async function poster(movie: MediaInput | null | undefined, options?: CallOptions): Promise<Poster | null> {
  return noted(await (await getImagePipeline()).poster(movie, options));
}

export async function mediaKitZip(kit: MediaKitInput | null | undefined, options?: CallOptions): Promise<MediaKitZip | null> {
  return noted(await (await getImagePipeline()).mediaKitZip(kit, options));
}

export async function mediaZip(input: MediaZipInput, options?: CallOptions): Promise<MediaKitZip | null> {
  return noted(await (await getImagePipeline()).mediaZip(input, options));
}

export async function downloadUrl(
  url: string | null | undefined,
  options?: CallOptions & { title?: string | null },
): Promise<Download | null> {
  return noted(await (await getImagePipeline()).downloadUrl(url, options));
}

export async function shareImage(media: MediaInput | null | undefined, options?: CallOptions): Promise<ShareImage | null> {
  return noted(await (await getImagePipeline()).shareImage(media, options));
}

export async function inlineImages(
  html: string | Iterable<string>,
  lists: MediaLists,
  options?: CallOptions,
): Promise<(src: string) => InlineImage | null> {
  const lookup = await (await getImagePipeline()).inlineImages(html, lists, options);
  return (src) => noted(lookup(src));
}

export async function stats(): Promise<PipelineStats> {
  return (await getImagePipeline()).stats();
}
