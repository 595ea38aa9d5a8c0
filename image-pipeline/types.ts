/**
 * The public shapes of the image pipeline: what pages pass in (media items,
 * kits, call options), what they get back (pictures, downloads, posters, zips,
 * inline and share images), the options of `createImagePipeline` and the
 * pipeline object itself. `index.ts` re-exports them; no code lives here.
 */
import type { FetchLike } from '@pressroom-static/content-loaders';
import type { RetryPolicy } from '@pressroom-static/content-loaders';
import type { Declared, OutputFormat } from './encode.ts';
import type { RefusalKind } from './errors.ts';
import type { LookupFn } from './host-policy.ts';

export interface RenditionInput {
  width?: number | string | null;
  height?: number | string | null;
  url: string;
}

/** Anything with `sizes`: media items, `{ sizes: tag.image }`, `{ sizes: contact.avatar }`. */
export interface MediaInput {
  sizes?: Record<string, RenditionInput | null | undefined> | null;
  transparent?: boolean | null;
}

/** A media item as the loaders give it (images, movies, documents, sounds, videos). */
export interface MediaItemInput extends MediaInput {
  id?: number | string;
  type?: string;
  title?: string | null;
  content_type?: string | null;
  url?: string | null;
  mp4_url?: string | null;
  webm_url?: string | null;
}

export interface MediaKitInput {
  id?: number | string;
  title?: string | null;
  is_locked?: boolean | null;
  is_password_protected?: boolean | null;
  media?: MediaItemInput[] | null;
}

export interface CallOptions {
  /** The page that wants the file (for warnings): MediaPicture passes `Astro.url.pathname`. */
  page?: string | undefined;
}

export interface DownloadOptions extends CallOptions {
  /**
   * A name for people (`Northwind Hub, Berlin` → `northwind-hub-berlin.jpg`): the file is published as
   * `_media/<hash>/<name>.<ext>`, so it keeps its name however it is saved (a `download` attribute is
   * ignored from file:// and across origins, the last path segment never is). Without it: `_media/<hash>.<ext>`.
   */
  name?: string | null | undefined;
}

/** Media for one zip: a release's pictures, say (see `mediaZip`). */
export interface MediaZipInput {
  /** The manifest's first member, what the zip is of: `{ press_release: { id, title, url } }`. */
  about: Record<string, unknown>;
  /** The zip's name for people (no extension): published as `_media/<hash>/<name>.zip`. */
  name: string;
  /** Each file with its name for people (see DownloadOptions.name); only these items are zipped. */
  files: ReadonlyArray<{ item: MediaItemInput; name?: string | null | undefined }>;
}

export interface PictureOptions extends CallOptions {
  /**
   * `natural`: renditions with the original's aspect; `square`: the centre crops (`square`, `*_square`);
   * `auto` (default): square when the item declares more crops than natural renditions (avatars), else natural.
   * Falls back to the other shape when the chosen one has no rendition.
   */
  shape?: 'auto' | 'natural' | 'square' | undefined;
}

export interface PictureRendition {
  /** Declared names that share this output, e.g. `["large"]`. */
  names: string[];
  width: number;
  height: number;
  crop: boolean;
  /** Site URL per format, e.g. `{ webp: '/_media/…webp', jpeg: '/_media/…jpg' }`: a WebP always, the fallback format only for a shape's default (roles.ts). */
  files: Partial<Record<OutputFormat, string>>;
}

export interface PictureSource {
  type: string;
  srcset: string;
}

export type Picture =
  | {
      ok: true;
      /** Fallback-format URL of the default rendition (widest up to 1200 px). */
      src: string;
      width: number;
      height: number;
      /** Modern formats, best first, for `<source>`. */
      sources: PictureSource[];
      /** The fallback (JPEG, or PNG when the image has alpha) for `<img srcset>`: the `src` alone (roles.ts). */
      fallback: PictureSource;
      /** Every output of the chosen shape, narrowest first. */
      renditions: PictureRendition[];
      /** All renditions, every shape. */
      all: PictureRendition[];
      alpha: boolean;
    }
  | {
      ok: false;
      /** `missing`: nothing to show; `refused`: the image was refused or broken (warned). */
      status: 'missing' | 'refused';
      reason: string;
      /** The declared size of the largest rendition, for a placeholder of the right shape. */
      width?: number | undefined;
      height?: number | undefined;
    };

export interface Download {
  href: string;
  /** Suggested file name for `<a download>`: the title, cleaned, with the real extension. */
  filename: string;
  /** From the bytes: `JPEG image`, `PDF document`, `MP4 video`, ... */
  type: string;
  mime: string;
  bytes: number;
  /** Human size of the real bytes, e.g. `2.4 MB`. */
  size: string;
  sha256: string;
  width?: number | undefined;
  height?: number | undefined;
}

export interface Poster {
  /** WebP of the default rendition (JPEG when no WebP fits). */
  src: string;
  width: number;
  height: number;
  picture: Extract<Picture, { ok: true }>;
}

export interface MediaKitZip {
  href: string;
  bytes: number;
  /** Media files in the zip (MANIFEST.json not counted). */
  files: number;
  filename: string;
  size: string;
}

export interface ManifestFile {
  name: string;
  title: string | null;
  type: string | null;
  content_type: string;
  format: string;
  width: number | null;
  height: number | null;
  bytes: number;
  sha256: string;
}

/** A site-local copy of an image inside upstream HTML (see `inlineImages`). */
export interface InlineImage {
  src: string;
  srcset?: string;
  width?: number;
  height?: number;
}

export interface ShareImage {
  /** Site path of a JPEG (PNG with alpha) of the widest natural rendition up to 1200 px; prefix the site URL. */
  src: string;
  width: number;
  height: number;
  mime: string;
}

export interface PipelineStats {
  /** Distinct original URLs asked for. */
  originals: number;
  /** Bodies downloaded (200). */
  downloads: number;
  downloadedBytes: number;
  /** Conditional requests answered 304. */
  notModified: number;
  /** Originals taken as recorded (`trustedOriginals`), with no request. */
  trusted: number;
  /** Download attempts repeated after a transport failure. */
  retries: number;
  /** sharp operations run (metadata reads, decodes, encodes). */
  sharpOps: number;
  /** Originals decoded to make renditions: at most one per original a build found outputs missing for. */
  decodes: number;
  /** The most raw pixel bytes held at once by originals between decode and last encode (bounded by `maxRawBytes`). */
  peakRawBytes: number;
  /** Output files written (renditions). */
  encoded: number;
  /** Output files found missing from the cache and queued for encoding (so far: pages ask as they render). */
  toEncode: number;
  /** Output files found in the cache. */
  reused: number;
  /** Output files taken from the shared store (`sharedStore`): made by workers, or by another build. */
  fromStore: number;
  /** Media-kit zips written (not found in the cache). */
  zipsWritten: number;
  /** Distinct URLs refused. */
  refused: number;
  /** Output files to publish under `_media/`. */
  published: number;
}

export interface RefusedImage {
  url: string;
  kind: RefusalKind;
  reason: string;
  pages: string[];
}

export interface PipelineLog {
  warn(line: string): void;
  info?(line: string): void;
}

/** How download retries wait (see `ImagePipelineOptions.backoff`). */
export type Backoff = Omit<RetryPolicy, 'retries'>;

export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export interface ImagePipelineOptions {
  /**
   * The fetch of builds that open no socket (`runtime.fetch`, which replays a snapshot): used when
   * `checkAddresses` is false. Live builds download through the pinned fetch (`pinned-fetch.ts`),
   * whose every connection goes to an address the host policy has just checked.
   */
  fetch: FetchLike;
  /** Shared concurrency limiter for downloads (`client.limit`). */
  limit?: Limit;
  /** API base URL: its host is always allowed (host policy). */
  apiUrl: string;
  /** `PRESSROOM_IMAGE_HOSTS`. */
  imageHosts?: readonly string[];
  /** `file:` URLs of the site's own pictures (its `theme.logo`): read from disk; any other `file:` URL is refused as ever. */
  localOriginals?: readonly string[];
  /**
   * Originals taken as recorded, without a request: URL → the SHA-256 of the bytes an earlier build
   * used. One whose cache record still holds those bytes is not asked again (`stats().trusted`); any
   * other is fetched as ever. For a process that publishes the same press room again and again (a
   * warm renderer), whose pages kept from the earlier build use those bytes too.
   */
  trustedOriginals?: ReadonlyMap<string, string>;
  /** false in snapshot builds (no socket is opened). Default true. */
  checkAddresses?: boolean;
  lookup?: LookupFn;
  /** Cache folder, e.g. `.cache/images`. */
  cacheDir: string;
  /** Public URL prefix of the output folder. Default `/_media/`. */
  publicPath?: string;
  /** Byte cap for an image original. Default 50 MiB. */
  maxImageBytes?: number;
  /** Byte cap for a document, sound or movie. Default 1 GiB. */
  maxFileBytes?: number;
  /** Pixel cap (decompression bombs). Default 64 megapixels. */
  maxPixels?: number;
  /** Whole-download deadline. Default 60 s for images, 10 min for other files. */
  timeoutMs?: number;
  fileTimeoutMs?: number;
  /** No body bytes for this long aborts. Default 20 s. */
  stallTimeoutMs?: number;
  /** Also encode AVIF (about 14x the WebP cost; off by default). */
  avif?: boolean;
  /** Further attempts after a transport failure (network, 5xx, 429, 408, timeout, cut-off body). Default 2. */
  retries?: number;
  /**
   * The wait before retry n (from 0): full jitter, random(0, min(maxDelayMs, baseDelayMs * 2^n)), and
   * at least the server's Retry-After, shortened to retryAfterCapMs. Defaults 1 s, 10 s, 30 s;
   * `random` and `sleep` can be injected (tests).
   */
  backoff?: Partial<Backoff>;
  /** sharp pipelines at once. Default: the CPU count. */
  cpus?: number;
  /**
   * Raw pixel bytes (width × height × channels) held at once by originals between their decode and
   * their last encode: what bounds the pipeline's memory. Default 32 MiB per CPU; one larger original still runs, alone.
   */
  maxRawBytes?: number;
  log?: PipelineLog;
  /**
   * Renditions shared by builds and workers (PRESSROOM_STORE_URL): an output missing from the cache
   * is taken from there before it is encoded.
   */
  sharedStore?: SharedRenditionStore | undefined;
  /**
   * With `sharedStore`, while workers still make renditions: called with an original's URL before
   * the outputs the cache lacks are looked for in the store, it resolves once the store has what it
   * will get of them (the original's jobs have left the queue). Whatever the store then lacks is
   * encoded here, as ever. A rejection stops the build (thrown as a SharedStoreError, its message
   * kept), never a refused image.
   */
  awaitShared?: ((url: string) => Promise<void>) | undefined;
}

/**
 * A store of renditions shared by builds and workers, by output name (the names of the cache's
 * `out/`): a folder on a shared volume or an S3-compatible bucket. Every failure to reach it is a
 * SharedStoreError (one line, naming the store), never a refused image.
 */
export interface SharedRenditionStore {
  /** Where it is, for messages (never a credential). */
  readonly where: string;
  /** Throws a SharedStoreError when the store cannot be reached (the folder is not there, the bucket does not answer). */
  check(): Promise<void>;
  has(name: string): Promise<boolean>;
  /** Copies the output `name` to `file`; false when the store has none. */
  get(name: string, file: string): Promise<boolean>;
  /** Stores `file` as the output `name`: whole or not at all. */
  put(name: string, file: string): Promise<void>;
  close?(): void;
}

/**
 * What one original a build asked for came to: the SHA-256 of the bytes it used (also of bytes it
 * refused for what they are: format, pixels, a broken or cut-off picture), or the refusal that left
 * it without bytes (host policy, a 4xx, or a transport failure another attempt may cure: `retryable`).
 * `as`: asked for as a picture (`image`) or a download (`file`), which sets the caps.
 */
export type OriginalOutcome =
  { url: string; as: 'image' | 'file'; sha256: string } | { url: string; as: 'image' | 'file'; refused: RefusalKind; retryable: boolean };

/**
 * Where `inlineImages` looks for the images of upstream HTML, in order (a release's featured images,
 * then the library): the first item of the first list with the URL as a rendition wins. A long list
 * is indexed once per array, so pass the same one (the site's library) every time.
 */
export type MediaLists = ReadonlyArray<ReadonlyArray<MediaInput | null | undefined>>;

export interface ImagePipeline {
  picture(media: MediaInput | null | undefined, options?: PictureOptions): Promise<Picture>;
  download(item: MediaItemInput | null | undefined, options?: DownloadOptions): Promise<Download | null>;
  poster(movie: MediaInput | null | undefined, options?: CallOptions): Promise<Poster | null>;
  mediaKitZip(kit: MediaKitInput | null | undefined, options?: CallOptions): Promise<MediaKitZip | null>;
  mediaZip(input: MediaZipInput, options?: CallOptions): Promise<MediaKitZip | null>;
  downloadUrl(url: string | null | undefined, options?: CallOptions & { title?: string | null }): Promise<Download | null>;
  shareImage(media: MediaInput | null | undefined, options?: CallOptions): Promise<ShareImage | null>;
  inlineImages(html: string | Iterable<string>, lists: MediaLists, options?: CallOptions): Promise<(src: string) => InlineImage | null>;
  /**
   * Takes into the cache every rendition of one original (a job's URL and declared sizes) the shared
   * store holds, encoding nothing: a build does it for each job its workers finish, so its pages find
   * their renditions in the cache. Rejects only when the store cannot be reached (SharedStoreError).
   */
  takeFromStore(job: { url: string; declared: Declared[] }): Promise<void>;
  stats(): PipelineStats;
  refused(): RefusedImage[];
  /** Output name → cached file, for everything asked for so far. */
  published(): ReadonlyMap<string, string>;
  /** Copies every published output into `<outDir>/_media/` (or the given folder). */
  emit(mediaDir: string): Promise<{ files: number }>;
  /** Once every page is rendered: removes cache files no build has used for `maxAgeMs` (see Store.prune). */
  pruneCache(maxAgeMs: number): Promise<{ files: number; bytes: number }>;
  /** Every original this build asked for and what it came to (for the build's fingerprint). */
  originals(): Promise<OriginalOutcome[]>;
}
