/**
 * Registration of every URL the media server will answer, with the recipe for
 * its bytes. Also the rendition maths: `inside` keeps the aspect ratio within
 * a box, `cover` centre-crops to the box; neither ever upscales.
 */
import type { AssetSpec, ImageAssetSpec, Rendition } from '../model/types.ts';

export interface RenditionPlan<N extends string = string> {
  name: N;
  /** `original` = the picture itself. */
  fit: 'original' | 'inside' | 'cover';
  width: number;
  height: number;
}

/** The renditions of a library image: original, large ≤1200², medium ≤600², square 300² (centre crop). */
export const LIBRARY_RENDITIONS = [
  { name: 'original', fit: 'original', width: 0, height: 0 },
  { name: 'large', fit: 'inside', width: 1200, height: 1200 },
  { name: 'medium', fit: 'inside', width: 600, height: 600 },
  { name: 'square', fit: 'cover', width: 300, height: 300 },
] as const satisfies ReadonlyArray<RenditionPlan>;

/** Posters of movies and platform videos: the library set plus a 320² thumbnail. */
export const POSTER_RENDITIONS = [
  ...LIBRARY_RENDITIONS,
  { name: 'thumbnail', fit: 'inside', width: 320, height: 320 },
] as const satisfies ReadonlyArray<RenditionPlan>;

/** First-page previews of documents. */
export const DOCUMENT_THUMB_RENDITIONS = [
  { name: 'thumbnail', fit: 'inside', width: 200, height: 200 },
  { name: 'medium', fit: 'inside', width: 600, height: 600 },
] as const satisfies ReadonlyArray<RenditionPlan>;

/** Screenshots of clipped articles. */
export const SCREENSHOT_RENDITIONS = [
  { name: 'original', fit: 'original', width: 0, height: 0 },
  { name: 'thumbnail', fit: 'inside', width: 320, height: 320 },
] as const satisfies ReadonlyArray<RenditionPlan>;

/** Wide tag banners: no square, it would crop away the picture. */
export const HERO_RENDITIONS = [
  { name: 'original', fit: 'original', width: 0, height: 0 },
  { name: 'large', fit: 'inside', width: 1200, height: 1200 },
  { name: 'medium', fit: 'inside', width: 600, height: 600 },
] as const satisfies ReadonlyArray<RenditionPlan>;

/** PR contact avatars, as observed live: 100² and 500² squares plus the original. */
export const AVATAR_RENDITIONS = [
  { name: 'medium_square', fit: 'cover', width: 100, height: 100 },
  { name: 'large_square', fit: 'cover', width: 500, height: 500 },
  { name: 'original', fit: 'original', width: 0, height: 0 },
] as const satisfies ReadonlyArray<RenditionPlan>;

/** The press room logo: a transparent PNG. */
export const LOGO_RENDITIONS = [
  { name: 'small', fit: 'inside', width: 240, height: 240 },
  { name: 'square', fit: 'cover', width: 360, height: 360 },
  { name: 'original', fit: 'original', width: 0, height: 0 },
] as const satisfies ReadonlyArray<RenditionPlan>;

export function renditionSize(originalWidth: number, originalHeight: number, plan: RenditionPlan): { width: number; height: number } {
  if (plan.fit === 'original') return { width: originalWidth, height: originalHeight };
  if (plan.fit === 'inside') {
    const k = Math.min(1, plan.width / originalWidth, plan.height / originalHeight);
    return { width: Math.max(1, Math.round(originalWidth * k)), height: Math.max(1, Math.round(originalHeight * k)) };
  }
  // cover: the box itself, shrunk (aspect kept) if the original cannot fill it.
  const k = Math.min(1, originalWidth / plan.width, originalHeight / plan.height);
  return {
    width: Math.max(1, Math.min(originalWidth, Math.round(plan.width * k))),
    height: Math.max(1, Math.min(originalHeight, Math.round(plan.height * k))),
  };
}

/** One picture, from which all renditions are derived. */
export interface Picture {
  seed: number;
  label: string;
  format: 'jpeg' | 'png';
  transparent: boolean;
  width: number;
  height: number;
  design?: 'logo';
}

export class AssetRegistry {
  readonly assets = new Map<string, AssetSpec>();

  add(path: string, spec: AssetSpec): string {
    if (!path.startsWith('/media/')) throw new Error(`demo-data: asset path must start with /media/: ${path}`);
    if (this.assets.has(path)) throw new Error(`demo-data: asset registered twice: ${path}`);
    this.assets.set(path, spec);
    return path;
  }

  /** Registers `<dir>/<name>.<jpg|png>` per plan and returns the renditions by name (width/height as strings). */
  image<N extends string>(dir: string, picture: Picture, plans: ReadonlyArray<RenditionPlan<N>>): Record<N, Rendition> {
    const ext = picture.format === 'png' ? 'png' : 'jpg';
    const out = {} as Record<N, Rendition>;
    for (const plan of plans) {
      const { width, height } = renditionSize(picture.width, picture.height, plan);
      const spec: ImageAssetSpec = {
        kind: 'image',
        seed: picture.seed,
        label: picture.label,
        format: picture.format,
        transparent: picture.transparent,
        originalWidth: picture.width,
        originalHeight: picture.height,
        width,
        height,
        fit: plan.fit === 'cover' ? 'cover' : 'inside',
        ...(picture.design ? { design: picture.design } : {}),
      };
      const url = this.add(`${dir}/${plan.name}.${ext}`, spec);
      out[plan.name] = { width: String(width), height: String(height), url };
    }
    return out;
  }
}
