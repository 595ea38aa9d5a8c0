/**
 * @pressroom-static/image-pipeline: every picture, download and media-kit zip
 * of a press room served from the site itself.
 *
 *   media item `sizes` → original downloaded once (guarded, conditional GET, cached)
 *                      → decoded once; every declared rendition resized from that decode by sharp
 *                        (WebP at every width, one JPEG or PNG per shape for the `<img src>`)
 *                      → `<cacheDir>/out/<hash>-<w>x<h>.<ext>` → copied to `<outDir>/_media/` by `emit()`
 *
 * The package reads no environment and knows no site: `createImagePipeline(options)` takes the
 * fetch, limiter, API host, image hosts, cache folder and public path it works with (a site's
 * integration passes them in; this project's is src/integrations/images.ts, its pages' API
 * src/lib/image-pipeline.ts). Live downloads go through the pinned fetch (`createGuardedOpener`:
 * every connection goes to an address the host policy checked as it opened).
 *
 * Scale-out: `renditionJobOf` turns an item's sizes into a job (one per original), `createRenditionWorker`
 * runs jobs into a shared store (`SharedRenditionStore`; a folder one is `createFolderRenditionStore`),
 * and a pipeline given `sharedStore` takes what the store holds before it encodes anything.
 *
 * Besides the pipeline: what a build around it reports (`reportImageWork`, `progressLine`,
 * `pruneCache`), serves in development (`serveMediaFromCache`) and re-checks without rendering
 * (`revalidateOriginals`), and the deterministic zip writer (`zipFiles`).
 */
export { createImagePipeline } from './pipeline.ts';
export { inlineImageSources, mediaByRenditionUrl } from './inline.ts';
export { createGuardedOpener } from './pinned-fetch.ts';
export { revalidateOriginals, type RevalidateOptions, type Revalidation } from './revalidate.ts';
export { zipFiles, type ZipEntry } from './zip.ts';
export { pruneCache, reportImageWork } from './build-summary.ts';
export { serveMediaFromCache } from './dev-media.ts';
export { createStats } from './stats.ts';
export {
  RENDITION_JOB_ENCODER,
  createRenditionWorker,
  isRenditionJob,
  renditionJobId,
  renditionJobOf,
  type JobOutcome,
  type RenditionJob,
  type RenditionWorker,
  type RenditionWorkerOptions,
} from './jobs.ts';
export { SharedStoreError, assertOutputName, createFolderRenditionStore, storeCall } from './shared-store.ts';
export { PROGRESS_EVERY_MS, progressLine, type ProgressSample } from './progress.ts';
export type {
  CallOptions,
  Download,
  DownloadOptions,
  ImagePipeline,
  ImagePipelineOptions,
  InlineImage,
  ManifestFile,
  ShareImage,
  MediaInput,
  MediaItemInput,
  MediaKitInput,
  MediaKitZip,
  MediaLists,
  MediaZipInput,
  OriginalOutcome,
  Picture,
  PictureOptions,
  PictureRendition,
  PictureSource,
  PipelineLog,
  PipelineStats,
  Poster,
  RefusedImage,
  SharedRenditionStore,
} from './types.ts';
