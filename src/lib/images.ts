/**
 * How pages hand pictures to <MediaPicture> (the one way to show a picture),
 * and the site-local files for meta tags, JSON-LD and downloads, all from the
 * image pipeline (src/lib/image-pipeline.ts): no URL of the API's host is
 * written into a page.
 */
import { downloadUrl, shareImage, type Download } from './image-pipeline.ts';

/** A declared rendition; width and height are null when the API never measured them (the pipeline measures the bytes). */
export interface Rendition {
  width: number | null;
  height: number | null;
  url: string;
}
export interface PictureSource {
  sizes: Record<string, Rendition>;
  transparent?: boolean;
}

interface Logo {
  small_url: string | null;
  square_url: string | null;
  original_url: string | null;
  width?: number | null;
  height?: number | null;
}

/**
 * A sizes-like object for the press room logo. The API gives the original's
 * dimensions at most (older answers give none: the pipeline measures the
 * bytes); `small` is the original scaled to 240 px wide (as the newsroom
 * serves it), so srcset can pick the light one for the header.
 */
export function logoMedia(logo: Logo | null): PictureSource | null {
  if (!logo?.original_url) return null;
  const width = logo.width || null;
  const height = logo.height || null;
  const sizes: Record<string, Rendition> = { original: { width, height, url: logo.original_url } };
  if (logo.small_url && (width === null || width > 240)) {
    sizes.small = { width: 240, height: width && height ? Math.round((height * 240) / width) : null, url: logo.small_url };
  }
  return { sizes, transparent: true };
}

/** A contact's avatar renditions as a picture source, or null. */
export function avatarMedia(avatar: Record<string, Rendition>): PictureSource | null {
  return Object.keys(avatar).length > 0 ? { sizes: avatar } : null;
}

export function hasPicture(media: { sizes: Record<string, Rendition> } | null | undefined): media is PictureSource {
  return !!media && Object.keys(media.sizes).length > 0;
}

/** A release's featured pictures, less those its body already shows inline (the page does not repeat them). */
export function featuredOutsideBody<M extends { sizes: Record<string, Rendition> }>(
  featured: readonly M[],
  /** Whether the body's HTML holds each rendition URL of `featured`. */
  bodyShows: ReadonlyMap<string, boolean>,
): Array<M & PictureSource> {
  const inBody = (m: M) => Object.values(m.sizes).some((r) => bodyShows.get(r.url) === true);
  return featured.filter((m): m is M & PictureSource => hasPicture(m) && !inBody(m));
}

const FILE_NAME = /\.(jpe?g|png|gif|webp|avif|tiff?|heic|bmp)$/i;
const CAMERA_NAME = /^(dsc|img|pxl|dcim|photo)[-_ ]?\d+/i;

/** Alt text for a media item: its description, else a title that is not a file name, else the fallback. */
export function altFor(media: { title?: string | null; description?: string | null }, fallback = ''): string {
  const description = media.description?.trim();
  if (description) return description;
  const title = media.title?.trim();
  if (title && !FILE_NAME.test(title) && !CAMERA_NAME.test(title)) return title;
  return fallback;
}

/** Absolute URL (on this site) of an image for Open Graph, Twitter cards and JSON-LD, or null. */
export async function shareImageUrl(media: PictureSource | null | undefined, site: URL | undefined, page: string): Promise<string | null> {
  if (!media || !site) return null;
  const image = await shareImage(media, { page });
  return image ? new URL(image.src, site).href : null;
}

/** A release's PDF as a file of this site (labelled from its bytes), or null. */
export async function pdfDownload(url: string | null | undefined, title: string, page: string): Promise<Download | null> {
  return url ? downloadUrl(url, { title, page }) : null;
}
