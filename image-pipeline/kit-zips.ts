/**
 * One deterministic zip per open media kit: the originals of its media under
 * unique file names, plus MANIFEST.json (name, type, dimensions, bytes and
 * SHA-256 per file). Named by a hash of the manifest, so an unchanged kit is
 * found in the cache. Locked and password-protected kits get none.
 */
import { formatBytes } from '@pressroom-static/content-loaders';
import type { DownloadLinks } from './download-links.ts';
import { safeFilename } from './filenames.ts';
import { hash16, type Outputs } from './outputs.ts';
import type { Publisher } from './publish.ts';
import type { Store } from './store.ts';
import type { CallOptions, ImagePipeline, ManifestFile, MediaKitInput, MediaKitZip, PipelineStats } from './types.ts';
import { buildZip, ZIP_VERSION } from './zip.ts';

export interface KitZipsContext {
  store: Store;
  stats: PipelineStats;
  outputs: Outputs;
  publisher: Publisher;
  downloads: DownloadLinks;
}

export function createKitZips({ store, stats, outputs, publisher, downloads }: KitZipsContext): ImagePipeline['mediaKitZip'] {
  return async function mediaKitZip(kit: MediaKitInput | null | undefined, opts: CallOptions = {}): Promise<MediaKitZip | null> {
    if (!kit || kit.is_locked || kit.is_password_protected) return null;
    const media = kit.media ?? [];
    const found = await Promise.all(media.map((item) => downloads.downloadOf(item, opts)));
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
    // Once per zip and build: every page showing this kit gets the size without touching the disk again.
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
    return {
      href: publisher.publish(name, final),
      bytes,
      files: entries.length,
      filename: safeFilename(kit.title, 'zip', 'media-kit'),
      size: formatBytes(bytes),
    };
  };
}
