/**
 * The image pipeline of one build, put together: originals downloaded once each
 * (`sources.ts`, checked by `inspect.ts`), every declared rendition derived by
 * sharp (`renditions.ts`, shown by `picture.ts`, `poster.ts`, `share-image.ts`,
 * `inline.ts`), downloads (`download-links.ts`) and media-kit zips
 * (`kit-zips.ts`: media kits, a release's pictures), all published into `_media/` (`publish.ts`) and counted
 * (`stats.ts`, `refusals.ts`). `index.ts` documents the API.
 *
 * Cost model: an unchanged image costs one conditional request (304) and one
 * `stat` per output (plus its copy into `_media/`); no body, no decode, no encode. Counters in `stats()`.
 */
import { createDownloadLinks } from './download-links.ts';
import { createInlineImages } from './inline.ts';
import { createKitZips } from './kit-zips.ts';
import { createPicture } from './picture.ts';
import { createPipelineCore } from './pipeline-core.ts';
import { posterOf } from './poster.ts';
import { createPublisher } from './publish.ts';
import { createRefusals } from './refusals.ts';
import { createRenditions } from './renditions.ts';
import { shareImageOf } from './share-image.ts';
import type { ImagePipeline, ImagePipelineOptions } from './types.ts';

export function createImagePipeline(options: ImagePipelineOptions): ImagePipeline {
  const { settings, store, stats, cpu, sources, outputs } = createPipelineCore(options);
  const refusals = createRefusals(settings.log, stats);
  const publisher = createPublisher(settings.publicPath);
  const renditions = createRenditions({
    store,
    stats,
    outputs,
    cpu,
    maxPixels: settings.maxPixels,
    maxRawBytes: settings.maxRawBytes,
    avif: settings.avif,
    shared: options.sharedStore,
    awaitShared: options.awaitShared,
  });
  const picture = createPicture({ store, sources, renditions, refusals, publisher, avif: settings.avif });
  const downloads = createDownloadLinks({ sources, refusals, publisher });
  const zips = createKitZips({ store, stats, outputs, publisher, downloads });

  return {
    picture,
    inlineImages: createInlineImages(picture),
    downloadUrl: downloads.downloadUrl,
    async shareImage(media, opts = {}) {
      return shareImageOf(await picture(media, { page: opts.page, shape: 'natural' }));
    },
    download: downloads.download,
    async poster(movie, opts = {}) {
      return posterOf(await picture(movie, { page: opts.page }));
    },
    async takeFromStore({ url, declared }) {
      let src;
      try {
        src = await sources.source(url, 'image');
      } catch {
        // Refused: the page that shows it refuses it, in the same words.
        return;
      }
      await renditions.take(src, renditions.plan(src, declared));
    },
    mediaKitZip: zips.mediaKitZip,
    mediaZip: zips.mediaZip,
    stats: () => ({ ...stats, published: publisher.published.size }),
    refused: refusals.list,
    published: () => publisher.published,
    emit: publisher.emit,
    pruneCache: (maxAgeMs) => store.prune(maxAgeMs),
    originals: () => sources.originals(),
  };
}
