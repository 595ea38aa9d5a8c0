/**
 * Originals offered as downloads (`<a download>`): an image's original or a
 * document's, sound's or movie's file, published under `_media/` by content
 * and labelled from its real bytes (`JPEG image · 2.4 MB`).
 */
import { formatBytes } from '@pressroom-static/content-loaders';
import { FILE_TYPES } from '@pressroom-static/content-loaders';
import { asRefusal } from './errors.ts';
import { personName, safeFilename } from './filenames.ts';
import type { SourceKind } from './inspect.ts';
import { fileUrlOf, originalOf } from './media-input.ts';
import type { Publisher } from './publish.ts';
import type { Refusals } from './refusals.ts';
import { FORMAT_INFO } from './sniff.ts';
import type { Source, Sources } from './sources.ts';
import type { Download, DownloadOptions, ImagePipeline, MediaItemInput } from './types.ts';

/** Item types whose download is their file rather than an image original. */

/** A download and the original behind it. */
export interface ItemDownload {
  download: Download;
  src: Source;
}

export interface DownloadLinks {
  /** The download of a media item; null for videos (embeds), items without a file, refused files. */
  downloadOf(item: MediaItemInput, opts: DownloadOptions): Promise<ItemDownload | null>;
  download: ImagePipeline['download'];
  downloadUrl: ImagePipeline['downloadUrl'];
}

export interface DownloadLinksContext {
  sources: Sources;
  refusals: Refusals;
  publisher: Publisher;
}

export function createDownloadLinks({ sources, refusals, publisher }: DownloadLinksContext): DownloadLinks {
  async function downloadOf(item: MediaItemInput, opts: DownloadOptions): Promise<ItemDownload | null> {
    const isFile = typeof item.type === 'string' && FILE_TYPES.has(item.type);
    const url = isFile ? fileUrlOf(item) : item.type === 'video' ? undefined : originalOf(item.sizes);
    if (!url) return null;
    return fileDownload(url, isFile ? 'file' : 'image', item, opts);
  }

  async function fileDownload(
    url: string,
    kind: SourceKind,
    item: Pick<MediaItemInput, 'title' | 'id' | 'type'>,
    opts: DownloadOptions,
  ): Promise<ItemDownload | null> {
    let src: Source;
    try {
      src = await sources.source(url, kind);
    } catch (error) {
      refusals.refuse(url, opts.page, asRefusal(error));
      return null;
    }
    const info = FORMAT_INFO[src.format];
    const named = personName(opts.name, info.ext);
    const filename =
      named ??
      safeFilename(item.title, info.ext, item.id !== undefined ? `${item.type ?? 'file'}-${String(item.id).replace(/\D/g, '')}` : 'file');
    const stem = src.sha256.slice(0, 16);
    const href = publisher.publish(named ? `${stem}/${named}` : `${stem}.${info.ext}`, src.path);
    return {
      src,
      download: {
        href,
        filename,
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

  return {
    downloadOf,
    async download(item, opts = {}) {
      if (!item) return null;
      return (await downloadOf(item, opts))?.download ?? null;
    },
    async downloadUrl(url, opts = {}) {
      if (!url || !/^https?:\/\//i.test(url)) return null;
      return (await fileDownload(url, 'file', { title: opts.title ?? null }, opts))?.download ?? null;
    },
  };
}
