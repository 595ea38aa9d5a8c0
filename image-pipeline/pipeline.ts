/**
 * The image pipeline of one build: originals downloaded once each (guarded,
 * conditional, cached on disk), every declared rendition derived by sharp
 * (content-addressed, cached across builds), downloads and media-kit zips.
 * `index.ts` documents the API; this file is the machinery.
 *
 * Cost model: an unchanged image costs one conditional request (304) and two
 * `stat`s per output; no body, no decode, no encode. Counters in `stats()`.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import sharp, { type Metadata } from 'sharp';
import type { FetchLike } from '../content-loaders/client/request.ts';
import { formatBytes } from '../content-loaders/loaders/format.ts';
import { mediaOriginalUrls } from '../content-loaders/media-urls.ts';
import { guardedDownload } from './download.ts';
import {
  ENCODER_SETTINGS,
  ENCODER_VERSION,
  ENCODERS,
  EXTENSION,
  MIME,
  WEBP_MAX_SIDE,
  parseDimension,
  renditionGeometry,
  type Declared,
  type Geometry,
  type OutputFormat,
} from './encode.ts';
import { RefusedError, asRefusal, type RefusalKind } from './errors.ts';
import { createHostPolicy, type LookupFn } from './host-policy.ts';
import { DOWNLOAD_FORMATS, FORMAT_INFO, IMAGE_FORMATS, endsEarly, sniff, type FileFormat } from './sniff.ts';
import { createStore, type BlobInfo, type SourceRecord } from './store.ts';
import { buildZip, ZIP_VERSION } from './zip.ts';

// ---------------------------------------------------------------------------
// Public shapes

/** A rendition as the API declares it (numbers may arrive as strings). */
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
  /** Site URL per format, e.g. `{ webp: '/_media/…webp', jpeg: '/_media/…jpg' }`. */
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
      /** The fallback (JPEG, or PNG when the image has alpha) for `<img srcset>`. */
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
  /** Download attempts repeated after a transport failure. */
  retries: number;
  /** sharp operations run (metadata reads, decodes, encodes). */
  sharpOps: number;
  /** Output files written (renditions). */
  encoded: number;
  /** Output files found in the cache. */
  reused: number;
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

export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export interface ImagePipelineOptions {
  /** The fetch every download uses (`runtime.fetch`). */
  fetch: FetchLike;
  /** Shared concurrency limiter for downloads (`client.limit`). */
  limit?: Limit;
  /** API base URL: its host is always allowed (host policy). */
  apiUrl: string;
  /** `PRESSROOM_IMAGE_HOSTS`. */
  imageHosts?: readonly string[];
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
  /** Further attempts after a transport failure (network, 5xx, 429, timeout, cut-off body). Default 2. */
  retries?: number;
  /** sharp pipelines at once. Default: the CPU count. */
  cpus?: number;
  log?: PipelineLog;
}

export interface ImagePipeline {
  picture(media: MediaInput | null | undefined, options?: PictureOptions): Promise<Picture>;
  download(item: MediaItemInput | null | undefined, options?: CallOptions): Promise<Download | null>;
  poster(movie: MediaInput | null | undefined, options?: CallOptions): Promise<Poster | null>;
  mediaKitZip(kit: MediaKitInput | null | undefined, options?: CallOptions): Promise<MediaKitZip | null>;
  downloadUrl(url: string | null | undefined, options?: CallOptions & { title?: string | null }): Promise<Download | null>;
  shareImage(media: MediaInput | null | undefined, options?: CallOptions): Promise<ShareImage | null>;
  inlineImages(
    html: string | Iterable<string>,
    media: Iterable<MediaInput | null | undefined>,
    options?: CallOptions,
  ): Promise<(src: string) => InlineImage | null>;
  stats(): PipelineStats;
  refused(): RefusedImage[];
  /** Output name → cached file, for everything asked for so far. */
  published(): ReadonlyMap<string, string>;
  /** Copies every published output into `<outDir>/_media/` (or the given folder). */
  emit(mediaDir: string): Promise<{ files: number; bytes: number }>;
}

// ---------------------------------------------------------------------------

const MiB = 1024 * 1024;
const FILE_TYPES = new Set(['document', 'sound', 'movie']);
/** Default `src` is the widest rendition up to this width. */
const DEFAULT_SRC_WIDTH = 1200;

interface Source extends SourceRecord {
  path: string;
}

const hash16 = (...parts: Array<string | number | boolean>) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

let sharpConfigured = false;
function configureSharp(): void {
  if (sharpConfigured) return;
  sharpConfigured = true;
  // No libvips operation cache: every image is seen once per build, the cache only holds memory.
  sharp.cache(false);
  // One libvips thread per pipeline; the pipeline runs one sharp job per core instead.
  sharp.concurrency(1);
}

/** Cleans a title into a file name (letters, digits, space, dot, dash, underscore), with `ext`. */
export function safeFilename(title: string | null | undefined, ext: string, fallback = 'file'): string {
  let base = (title ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const dot = `.${ext}`.toLowerCase();
  if (base.toLowerCase().endsWith(dot)) base = base.slice(0, -dot.length).trim();
  else base = base.replace(/\.(jpe?g|png|gif|webp|tiff?|pdf|mp4|mov|webm|wav|mp3|ogg|flac|zip|avif)$/i, '').trim();
  if (base.length > 80) base = base.slice(0, 80).trim();
  return `${base || fallback}.${ext}`;
}

function declaredOf(sizes: MediaInput['sizes']): Array<Declared & { url: string; known: boolean }> {
  const out: Array<Declared & { url: string; known: boolean }> = [];
  for (const [name, r] of Object.entries(sizes ?? {})) {
    if (!r || typeof r.url !== 'string') continue;
    const width = parseDimension(r.width);
    const height = parseDimension(r.height);
    out.push({ name, url: r.url, width: width ?? 0, height: height ?? 0, known: width !== undefined && height !== undefined });
  }
  return out;
}

/** The original URL of a `sizes` object: the loaders' own rule (media-urls.ts), so snapshots hold exactly these. */
function originalOf(sizes: MediaInput['sizes']): string | undefined {
  if (!sizes) return undefined;
  const clean: Record<string, RenditionInput> = {};
  for (const [name, r] of Object.entries(sizes)) if (r && typeof r.url === 'string') clean[name] = r;
  return [...mediaOriginalUrls(clean)][0];
}

/** The file URL of a document, sound or movie (the same keys media-urls.ts records). */
function fileUrlOf(item: MediaItemInput): string | undefined {
  const candidates = item.type === 'movie' ? [item.mp4_url, item.url, item.webm_url] : [item.url, item.mp4_url, item.webm_url];
  return candidates.find((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u));
}

export function createImagePipeline(options: ImagePipelineOptions): ImagePipeline {
  configureSharp();
  const store = createStore(options.cacheDir);
  // Temporary files of builds killed mid-way; an hour is far longer than any download or encode.
  void store.sweep(3_600_000).catch(() => undefined);
  const policy = createHostPolicy({
    apiUrl: options.apiUrl,
    imageHosts: options.imageHosts ?? [],
    checkAddresses: options.checkAddresses ?? true,
    lookup: options.lookup,
  });
  const limit: Limit = options.limit ?? ((fn) => fn());
  const cores = Math.max(1, options.cpus ?? availableParallelism());
  const cpu = pLimit(cores);
  // Renditions between decode and their last encode hold raw pixels: at most this many at once,
  // so decodes never run far ahead of encodes and memory stays bounded however many images.
  const inFlight = pLimit(cores * 2);
  const publicPath = (options.publicPath ?? '/_media/').replace(/\/?$/, '/');
  const maxImageBytes = options.maxImageBytes ?? 50 * MiB;
  const maxFileBytes = options.maxFileBytes ?? 1024 * MiB;
  const maxPixels = options.maxPixels ?? 64_000_000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const fileTimeoutMs = options.fileTimeoutMs ?? 600_000;
  const stallTimeoutMs = options.stallTimeoutMs ?? 20_000;
  const retries = options.retries ?? 2;
  const caps = `pixels=${maxPixels}`;
  const log = options.log ?? { warn: (line: string) => console.warn(line) };

  const stats: PipelineStats = {
    originals: 0,
    downloads: 0,
    downloadedBytes: 0,
    notModified: 0,
    retries: 0,
    sharpOps: 0,
    encoded: 0,
    reused: 0,
    zipsWritten: 0,
    refused: 0,
    published: 0,
  };
  const sources = new Map<string, Promise<Source>>();
  const outputs = new Map<string, Promise<void>>();
  const published = new Map<string, string>();
  const refusals = new Map<string, RefusedImage>();

  const publish = (name: string, file: string) => {
    published.set(name, file);
    return `${publicPath}${name}`;
  };

  const refuse = (url: string, page: string | undefined, error: RefusedError): void => {
    let entry = refusals.get(url);
    if (!entry) {
      entry = { url, kind: error.kind, reason: error.message, pages: [] };
      refusals.set(url, entry);
      stats.refused++;
      log.warn(`image refused: ${url} (wanted by ${page ?? 'an unnamed page'}): ${error.message}; the page shows a placeholder`);
    }
    if (page && !entry.pages.includes(page)) entry.pages.push(page);
  };

  // -- sources -------------------------------------------------------------

  /** Checks fresh bytes: format from the bytes, pixel cap from the header. Returns the record to store. */
  async function inspect(kind: 'image' | 'file', file: string, head: Buffer, tail: Buffer): Promise<BlobInfo> {
    const format = sniff(head);
    const accepted = kind === 'image' ? IMAGE_FORMATS : DOWNLOAD_FORMATS;
    if (!accepted.has(format)) {
      const what = format === 'unknown' ? 'not a recognised format' : `${FORMAT_INFO[format].label}`;
      throw new RefusedError('format', `${what}${kind === 'image' ? ', not an accepted image (JPEG, PNG, WebP, GIF, AVIF, TIFF)' : ', not an accepted download'}`);
    }
    if (endsEarly(format, tail)) throw new RefusedError('truncated', `the ${FORMAT_INFO[format].label} is cut off (its end marker is missing)`);
    if (!IMAGE_FORMATS.has(format)) return { format };
    stats.sharpOps++;
    let meta: Metadata;
    try {
      meta = await cpu(() => sharp(file, { limitInputPixels: false, failOn: 'warning' }).metadata());
    } catch (error) {
      throw new RefusedError('broken', `the ${FORMAT_INFO[format].label} cannot be read (${asRefusal(error).message})`);
    }
    if (meta.format !== format && !(format === 'avif' && meta.format === 'heif')) {
      throw new RefusedError('format', `the bytes start as ${format} but decode as ${meta.format}`);
    }
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new RefusedError('broken', 'the image has no dimensions');
    return checkPixels({ format, width, height, hasAlpha: meta.hasAlpha });
  }

  /** The pixel cap (decompression bombs), for fresh and remembered dimensions alike. */
  function checkPixels(info: BlobInfo): BlobInfo {
    const { width, height } = info;
    if (width !== undefined && height !== undefined && width * height > maxPixels) {
      throw new RefusedError('pixels', `${width}x${height} is over the pixel cap of ${Math.round(maxPixels / 1e6)} megapixels (decompression bomb guard)`);
    }
    return info;
  }

  async function fetchSource(url: string, kind: 'image' | 'file'): Promise<Source> {
    stats.originals++;
    const record = await store.readRecord(url);
    const held = record && !record.refused ? store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) : undefined;
    // A refusal is remembered only under the caps that made it (a raised cap looks again).
    const usable =
      record && (record.refused ? record.refused.caps === caps : held && (await store.exists(held))) ? record : undefined;
    const attempt = () =>
      limit(() =>
        guardedDownload({
          url,
          fetch: options.fetch,
          policy,
          maxBytes: kind === 'image' ? maxImageBytes : maxFileBytes,
          timeoutMs: kind === 'image' ? timeoutMs : fileTimeoutMs,
          stallTimeoutMs,
          tmpDir: store.tmpDir,
          etag: usable?.etag,
        }),
      );
    let result: Awaited<ReturnType<typeof attempt>>;
    for (let n = 0; ; n++) {
      try {
        result = await attempt();
        break;
      } catch (error) {
        if (!(error instanceof RefusedError) || !error.retryable || n >= retries) throw error;
        stats.retries++;
        // Back off outside the limiter, so a waiting retry holds no slot.
        await new Promise((resolve) => setTimeout(resolve, 250 * 4 ** n));
      }
    }
    if (result.status === 'not-modified') {
      stats.notModified++;
      return sourceFrom(usable!, kind);
    }
    stats.downloads++;
    stats.downloadedBytes += result.bytes;
    try {
      // Same bytes as before (a server without ETags, or a snapshot): nothing to inspect again.
      if (usable && usable.sha256 === result.sha256) {
        if (usable.etag !== result.etag) await store.writeRecord({ ...usable, etag: result.etag });
        return sourceFrom(usable, kind);
      }
      let info: BlobInfo;
      // The same bytes under another URL: what inspecting them found still holds.
      const known = await store.readBlobInfo(result.sha256);
      const accepted = kind === 'image' ? IMAGE_FORMATS : DOWNLOAD_FORMATS;
      try {
        info = known && accepted.has(known.format) ? checkPixels(known) : await inspect(kind, result.file, result.head, result.tail);
      } catch (error) {
        const refusal = asRefusal(error);
        await store.writeRecord({ url, etag: result.etag, sha256: result.sha256, bytes: result.bytes, format: sniff(result.head), refused: { kind: refusal.kind, message: refusal.message, caps } });
        throw refusal;
      }
      const fresh: SourceRecord = { v: 0, url, etag: result.etag, sha256: result.sha256, bytes: result.bytes, ...info };
      const blob = store.blobPath(result.sha256, FORMAT_INFO[info.format].ext);
      if (await store.exists(blob)) await rm(result.file, { force: true });
      else await store.commit(result.file, blob);
      const { v: _v, ...rest } = fresh;
      if (!known) await store.writeBlobInfo(result.sha256, info);
      await store.writeRecord(rest);
      return { ...fresh, path: blob };
    } finally {
      await rm(result.file, { force: true });
    }
  }

  function sourceFrom(record: SourceRecord, kind: 'image' | 'file'): Source {
    if (record.refused) throw new RefusedError(record.refused.kind, record.refused.message);
    if (kind === 'image' && !IMAGE_FORMATS.has(record.format)) {
      throw new RefusedError('format', `${FORMAT_INFO[record.format].label}, not an accepted image`);
    }
    return { ...record, path: store.blobPath(record.sha256, FORMAT_INFO[record.format].ext) };
  }

  /** The original behind `url`, once per build; rejects with a RefusedError. */
  function source(url: string, kind: 'image' | 'file'): Promise<Source> {
    const key = `${kind} ${url}`;
    let p = sources.get(key);
    if (!p) {
      p = fetchSource(url, kind).catch((error: unknown) => {
        throw asRefusal(error);
      });
      sources.set(key, p);
    }
    return p;
  }

  /** Marks a source whose decode failed as refused, on disk too, so later builds skip the decode. */
  async function markBroken(src: Source, kind: 'image' | 'file', error: RefusedError): Promise<void> {
    sources.set(`${kind} ${src.url}`, Promise.reject(error));
    sources.get(`${kind} ${src.url}`)!.catch(() => undefined);
    const { path: _p, v: _v, ...rest } = src;
    await store.writeRecord({ ...rest, refused: { kind: error.kind, message: error.message, caps } });
  }

  // -- renditions ----------------------------------------------------------

  interface Planned {
    geometry: Geometry;
    names: string[];
    outputs: Array<{ format: OutputFormat; name: string }>;
  }

  function plan(src: Source, declared: Array<Declared & { known: boolean }>): Planned[] {
    const alpha = !!src.hasAlpha;
    const plans = new Map<string, Planned>();
    for (const d of declared) {
      const geometry = d.known
        ? renditionGeometry(d, src.width!, src.height!)
        : { width: src.width!, height: src.height!, crop: false };
      const key = `${geometry.width}x${geometry.height}${geometry.crop ? 'c' : ''}`;
      const existing = plans.get(key);
      if (existing) {
        existing.names.push(d.name);
        continue;
      }
      const formats: OutputFormat[] = [];
      if (geometry.width <= WEBP_MAX_SIDE && geometry.height <= WEBP_MAX_SIDE) formats.push('webp');
      if (options.avif) formats.unshift('avif');
      formats.push(alpha ? 'png' : 'jpeg');
      const outputs = formats.map((format) => {
        const h = hash16(ENCODER_VERSION, src.sha256, geometry.width, geometry.height, geometry.crop, format, JSON.stringify(ENCODER_SETTINGS[format]));
        return { format, name: `${h}-${geometry.width}x${geometry.height}.${EXTENSION[format]}` };
      });
      plans.set(key, { geometry, names: [d.name], outputs });
    }
    return [...plans.values()];
  }

  /** Makes sure every output of one planned rendition exists in the cache. */
  function realise(src: Source, p: Planned): Promise<void> {
    const key = p.outputs.map((o) => o.name).join(' ');
    let done = outputs.get(key);
    if (!done) {
      done = (async () => {
        const missing: Array<{ format: OutputFormat; name: string }> = [];
        for (const o of p.outputs) {
          if (await store.exists(store.outPath(o.name))) stats.reused++;
          else missing.push(o);
        }
        if (missing.length > 0) await encode(src, p.geometry, missing);
      })();
      outputs.set(key, done);
      done.catch(() => outputs.delete(key));
    }
    return done;
  }

  function encode(src: Source, g: Geometry, missing: Array<{ format: OutputFormat; name: string }>): Promise<void> {
    return inFlight(() => encodeNow(src, g, missing));
  }

  async function encodeNow(src: Source, g: Geometry, missing: Array<{ format: OutputFormat; name: string }>): Promise<void> {
    // One decode + resize to raw pixels, then one encode per format, each its own job so the
    // formats of one large rendition run on different cores.
    const { data, info } = await cpu(() => {
      stats.sharpOps++;
      return sharp(src.path, { limitInputPixels: maxPixels, failOn: 'warning', autoOrient: true, sequentialRead: true })
        .resize(g.width, g.height, { fit: g.crop ? 'cover' : 'fill', position: 'centre' })
        .toColourspace('srgb')
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
    });
    if (info.width !== g.width || info.height !== g.height) {
      throw new RefusedError('broken', `resize gave ${info.width}x${info.height}, not ${g.width}x${g.height}`);
    }
    await Promise.all(
      missing.map((o) =>
        cpu(async () => {
          stats.sharpOps++;
          const raw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
          const tmp = await store.tmpPath(o.name);
          try {
            await ENCODERS[o.format](raw).toFile(tmp);
            await store.commit(tmp, store.outPath(o.name));
          } finally {
            await rm(tmp, { force: true });
          }
          stats.encoded++;
        }),
      ),
    );
  }

  function placeholder(status: 'missing' | 'refused', reason: string, declared: Declared[]): Picture {
    const largest = declared.filter((d) => d.width > 0 && d.height > 0).sort((a, b) => b.width * b.height - a.width * a.height)[0];
    return { ok: false, status, reason, width: largest?.width, height: largest?.height };
  }

  async function picture(media: MediaInput | null | undefined, opts: PictureOptions = {}): Promise<Picture> {
    const declared = declaredOf(media?.sizes);
    const url = originalOf(media?.sizes);
    if (!url) return placeholder('missing', 'no image', declared);
    let src: Source;
    try {
      src = await source(url, 'image');
    } catch (error) {
      const refusal = asRefusal(error);
      refuse(url, opts.page, refusal);
      return placeholder('refused', refusal.message, declared);
    }
    const plans = plan(src, declared.length > 0 ? declared : [{ name: 'original', width: 0, height: 0, url, known: false }]);
    try {
      await Promise.all(plans.map((p) => realise(src, p)));
    } catch (error) {
      let refusal = asRefusal(error);
      if (refusal.kind === 'broken' && /premature|truncat|end of|unexpected end|short/i.test(refusal.message)) {
        refusal = new RefusedError('truncated', `the image is cut off (${refusal.message})`);
      } else if (refusal.kind === 'broken') {
        refusal = new RefusedError('broken', `the image cannot be decoded (${refusal.message})`);
      }
      await markBroken(src, 'image', refusal).catch(() => undefined);
      refuse(url, opts.page, refusal);
      return placeholder('refused', refusal.message, declared);
    }
    const all: PictureRendition[] = plans
      .map((p) => ({
        names: p.names,
        width: p.geometry.width,
        height: p.geometry.height,
        crop: p.geometry.crop,
        files: Object.fromEntries(p.outputs.map((o) => [o.format, publish(o.name, store.outPath(o.name))])) as PictureRendition['files'],
      }))
      .sort((a, b) => a.width - b.width || a.height - b.height);
    const crops = all.filter((r) => r.crop).length;
    const wantSquare = opts.shape === 'square' || ((opts.shape ?? 'auto') === 'auto' && crops > all.length - crops);
    let chosen = all.filter((r) => r.crop === wantSquare);
    if (chosen.length === 0) chosen = all;
    // One entry per width in a srcset.
    const byWidth = new Map<number, PictureRendition>();
    for (const r of chosen) byWidth.set(r.width, r);
    const renditions = [...byWidth.values()];
    const alpha = !!src.hasAlpha;
    const fallbackFormat: OutputFormat = alpha ? 'png' : 'jpeg';
    const srcset = (format: OutputFormat) =>
      renditions
        .filter((r) => r.files[format])
        .map((r) => `${r.files[format]} ${r.width}w`)
        .join(', ');
    const modern: OutputFormat[] = options.avif ? ['avif', 'webp'] : ['webp'];
    const sources = modern.map((f) => ({ type: MIME[f], srcset: srcset(f) })).filter((s) => s.srcset !== '');
    const def = [...renditions].reverse().find((r) => r.width <= DEFAULT_SRC_WIDTH) ?? renditions[0]!;
    return {
      ok: true,
      src: def.files[fallbackFormat]!,
      width: def.width,
      height: def.height,
      sources,
      fallback: { type: MIME[fallbackFormat], srcset: srcset(fallbackFormat) },
      renditions,
      all,
      alpha,
    };
  }

  // -- downloads -------------------------------------------------------------

  async function downloadOf(item: MediaItemInput, opts: CallOptions): Promise<{ download: Download; src: Source } | null> {
    const isFile = typeof item.type === 'string' && FILE_TYPES.has(item.type);
    const url = isFile ? fileUrlOf(item) : item.type === 'video' ? undefined : originalOf(item.sizes);
    if (!url) return null;
    return fileDownload(url, isFile ? 'file' : 'image', item, opts);
  }

  async function fileDownload(
    url: string,
    kind: 'image' | 'file',
    item: Pick<MediaItemInput, 'title' | 'id' | 'type'>,
    opts: CallOptions,
  ): Promise<{ download: Download; src: Source } | null> {
    let src: Source;
    try {
      src = await source(url, kind);
    } catch (error) {
      refuse(url, opts.page, asRefusal(error));
      return null;
    }
    const info = FORMAT_INFO[src.format];
    const name = `${src.sha256.slice(0, 16)}.${info.ext}`;
    const href = publish(name, src.path);
    return {
      src,
      download: {
        href,
        filename: safeFilename(item.title, info.ext, item.id !== undefined ? `${item.type ?? 'file'}-${String(item.id).replace(/\D/g, '')}` : 'file'),
        type: info.label,
        mime: info.mime,
        bytes: src.bytes,
        size: formatBytes(src.bytes),
        sha256: src.sha256,
        width: src.width,
        height: src.height,
      },
    };
  }

  async function poster(movie: MediaInput | null | undefined, opts: CallOptions = {}): Promise<Poster | null> {
    const pic = await picture(movie, { page: opts.page });
    if (!pic.ok) return null;
    const def = [...pic.renditions].reverse().find((r) => r.width <= DEFAULT_SRC_WIDTH) ?? pic.renditions[0]!;
    return { src: def.files.webp ?? pic.src, width: def.width, height: def.height, picture: pic };
  }

  async function mediaKitZip(kit: MediaKitInput | null | undefined, opts: CallOptions = {}): Promise<MediaKitZip | null> {
    if (!kit || kit.is_locked || kit.is_password_protected) return null;
    const media = kit.media ?? [];
    const found = await Promise.all(media.map((item) => downloadOf(item, opts)));
    const entries: Array<{ file: string; manifest: ManifestFile }> = [];
    const taken = new Set<string>();
    found.forEach((d, i) => {
      if (!d) return;
      const item = media[i]!;
      let name = d.download.filename;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = d.download.filename.replace(/(\.[^.]+)$/, ` (${n})$1`);
      taken.add(name.toLowerCase());
      entries.push({
        file: d.src.path,
        manifest: {
          name,
          title: item.title ?? null,
          type: item.type ?? null,
          content_type: d.download.mime,
          format: d.download.type,
          width: d.src.width ?? null,
          height: d.src.height ?? null,
          bytes: d.src.bytes,
          sha256: d.src.sha256,
        },
      });
    });
    if (entries.length === 0) return null;
    const manifest = {
      media_kit: { id: kit.id ?? null, title: kit.title ?? null },
      files: entries.map((e) => e.manifest),
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const name = `${hash16(ZIP_VERSION, manifestBytes.toString('utf8'))}.zip`;
    const final = store.outPath(name);
    let done = outputs.get(name);
    if (!done) {
      done = (async () => {
        if (await store.exists(final)) {
          stats.reused++;
          return;
        }
        const tmp = await store.tmpPath(name);
        try {
          await buildZip(tmp, entries.map((e) => ({ file: e.file, name: e.manifest.name })), manifestBytes);
          await store.commit(tmp, final);
        } finally {
          await rm(tmp, { force: true });
        }
        stats.zipsWritten++;
      })();
      outputs.set(name, done);
      done.catch(() => outputs.delete(name));
    }
    await done;
    const bytes = (await stat(final)).size;
    return {
      href: publish(name, final),
      bytes,
      files: entries.length,
      filename: safeFilename(kit.title, 'zip', 'media-kit'),
      size: formatBytes(bytes),
    };
  }

  /** url → the media item and rendition name it belongs to, per media list. */
  const indexes = new WeakMap<object, Map<string, { media: MediaInput; name: string }>>();
  function renditionIndex(media: Iterable<MediaInput | null | undefined>): Map<string, { media: MediaInput; name: string }> {
    const cached = typeof media === 'object' ? indexes.get(media) : undefined;
    if (cached) return cached;
    const index = new Map<string, { media: MediaInput; name: string }>();
    for (const m of media) {
      for (const [name, r] of Object.entries(m?.sizes ?? {})) if (m && r && typeof r.url === 'string' && !index.has(r.url)) index.set(r.url, { media: m, name });
    }
    if (typeof media === 'object') indexes.set(media, index);
    return index;
  }

  const decodeEntities = (text: string) =>
    text.replace(/&(amp|quot|#39|apos|lt|gt);/g, (_m, e: string) => ({ amp: '&', quot: '"', '#39': "'", apos: "'", lt: '<', gt: '>' })[e] ?? _m);

  async function inlineImages(
    html: string | Iterable<string>,
    media: Iterable<MediaInput | null | undefined>,
    opts: CallOptions = {},
  ): Promise<(src: string) => InlineImage | null> {
    const wanted = new Set<string>();
    if (typeof html === 'string') {
      for (const m of html.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) wanted.add(decodeEntities((m[1] ?? m[2] ?? m[3] ?? '').trim()));
    } else {
      for (const src of html) wanted.add(src);
    }
    const index = renditionIndex(media);
    const found = new Map<string, InlineImage>();
    await Promise.all(
      [...wanted].map(async (src) => {
        const hit = index.get(src);
        if (!hit) return;
        const pic = await picture(hit.media, { page: opts.page, shape: 'natural' });
        if (!pic.ok) return;
        const r = pic.all.find((x) => x.names.includes(hit.name));
        if (!r) return;
        const format: OutputFormat = pic.alpha ? 'png' : 'jpeg';
        const group = pic.all.filter((x) => x.crop === r.crop && x.width <= r.width && x.files[format]);
        found.set(src, {
          src: r.files[format]!,
          srcset: group.map((x) => `${x.files[format]} ${x.width}w`).join(', '),
          width: r.width,
          height: r.height,
        });
      }),
    );
    return (src: string) => found.get(src) ?? found.get(decodeEntities(src)) ?? null;
  }

  return {
    picture,
    inlineImages,
    async downloadUrl(url, opts = {}) {
      if (!url || !/^https?:\/\//i.test(url)) return null;
      return (await fileDownload(url, 'file', { title: opts.title ?? null }, opts))?.download ?? null;
    },
    async shareImage(media, opts = {}) {
      const pic = await picture(media, { page: opts.page, shape: 'natural' });
      if (!pic.ok) return null;
      return { src: pic.src, width: pic.width, height: pic.height, mime: pic.alpha ? MIME.png : MIME.jpeg };
    },
    async download(item, opts = {}) {
      if (!item) return null;
      return (await downloadOf(item, opts))?.download ?? null;
    },
    poster,
    mediaKitZip,
    stats: () => ({ ...stats, published: published.size }),
    refused: () => [...refusals.values()].map((r) => ({ ...r, pages: [...r.pages] })),
    published: () => published,
    async emit(mediaDir) {
      await mkdir(mediaDir, { recursive: true });
      let bytes = 0;
      const copy = pLimit(8);
      await Promise.all(
        [...published].map(([name, file]) =>
          copy(async () => {
            await copyFile(file, path.join(mediaDir, name), fsConstants.COPYFILE_FICLONE);
            bytes += (await stat(file)).size;
          }),
        ),
      );
      return { files: published.size, bytes };
    },
  };
}
