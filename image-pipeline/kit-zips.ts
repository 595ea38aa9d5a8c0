/**
 * Deterministic zips of media: one per open media kit, and one of a release's
 * pictures (any list of items the page names). Each holds the originals under
 * unique file names, plus MANIFEST.json (what the zip is of, then name, type,
 * dimensions, bytes and SHA-256 per file). Named by a hash of the manifest, so
 * an unchanged zip is found in the cache. Locked and password-protected kits
 * get none; the caller hands in only public items (the loaders screen them).
 */
import { formatBytes } from '@pressroom-static/content-loaders';
import type { DownloadLinks } from './download-links.ts';
import { personName, safeFilename } from './filenames.ts';
import { hash16, type Outputs } from './outputs.ts';
import type { Publisher } from './publish.ts';
import type { Store } from './store.ts';
import type {
  CallOptions,
  ImagePipeline,
  ManifestFile,
  MediaItemInput,
  MediaKitInput,
  MediaKitZip,
  MediaZipInput,
  PipelineStats,
} from './types.ts';
import { buildZip, ZIP_VERSION } from './zip.ts';

export interface KitZipsContext {
  store: Store;
  stats: PipelineStats;
  outputs: Outputs;
  publisher: Publisher;
  downloads: DownloadLinks;
}

type Zips = Pick<ImagePipeline, 'mediaKitZip' | 'mediaZip'>;

export function createKitZips({ store, stats, outputs, publisher, downloads }: KitZipsContext): Zips {
  /** The zip of `files` with `about` heading its manifest, published as `publishAs(hash)`; null when no file could be had. */
  async function zipOf(
    about: Record<string, unknown>,
    files: ReadonlyArray<{ item: MediaItemInput; name?: string | null | undefined }>,
    publishAs: (stem: string) => string,
    opts: CallOptions,
  ): Promise<{ href: string; bytes: number; files: number } | null> {
    const found = await Promise.all(files.map(({ item, name }) => downloads.downloadOf(item, { page: opts.page, name })));
    const entries: Array<{ file: string; manifest: ManifestFile }> = [];
    const taken = new Set<string>();
    found.forEach((d, i) => {
      if (!d) return;
      const item = files[i]!.item;
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
    const manifest = { ...about, files: entries.map((e) => e.manifest) };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const stem = hash16(ZIP_VERSION, manifestBytes.toString('utf8'));
    const name = `${stem}.zip`;
    const final = store.outPath(name);
    // Once per zip and build: every page showing this zip gets the size without touching the disk again.
    const bytes = await outputs.once(name, async () => {
      const held = await store.sizeOf(final);
      if (held !== undefined) {
        stats.reused++;
        return held;
      }
      await outputs.write(name, (tmp) =>
        buildZip(
          tmp,
          entries.map((e) => ({ file: e.file, name: e.manifest.name })),
          manifestBytes,
        ),
      );
      stats.zipsWritten++;
      return (await store.sizeOf(final))!;
    });
    return { href: publisher.publish(publishAs(stem), final), bytes, files: entries.length };
  }

  return {
    async mediaKitZip(kit: MediaKitInput | null | undefined, opts: CallOptions = {}): Promise<MediaKitZip | null> {
      if (!kit || kit.is_locked || kit.is_password_protected) return null;
      const files = (kit.media ?? []).map((item) => ({ item }));
      const zip = await zipOf({ media_kit: { id: kit.id ?? null, title: kit.title ?? null } }, files, (stem) => `${stem}.zip`, opts);
      return zip && { ...zip, filename: safeFilename(kit.title, 'zip', 'media-kit'), size: formatBytes(zip.bytes) };
    },
    async mediaZip(input: MediaZipInput, opts: CallOptions = {}): Promise<MediaKitZip | null> {
      const filename = personName(input.name, 'zip') ?? 'pictures.zip';
      const zip = await zipOf(input.about, input.files, (stem) => `${stem}/${filename}`, opts);
      return zip && { ...zip, filename, size: formatBytes(zip.bytes) };
    },
  };
}
