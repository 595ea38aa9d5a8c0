/**
 * A release's pictures as a journalist takes them: each one's original (the
 * API's `original`, else its largest rendition) as a file of this site named
 * for people (`northwind-hub-at-dusk-berlin.jpg`, in the path as well as the
 * `download` attribute), labelled with pixel size and file size, its caption
 * and its credit or usage line; and one zip of them all, with the media kits'
 * MANIFEST.json. Featured images only: the loaders have screened them public.
 */
import { download, mediaZip, type Download, type MediaKitZip } from './image-pipeline.ts';
import type { MediaItem, Release } from './data.ts';
import { hasPicture, type PictureSource } from './images.ts';
import { slugify } from './paths.ts';

export interface ReleasePicture {
  media: MediaItem & PictureSource;
  /** The description without its credit and usage sentences; null when it has none. */
  caption: string | null;
  /** `Photo: Jane Doe / Northwind Mobility. Free for editorial use.`: the sentences the data gives for that. */
  credit: string | null;
  /** The original as a file of this site, or null when it was refused (the picture still shows). */
  file: Download | null;
}

export interface ReleasePictures {
  pictures: ReleasePicture[];
  /** Every picture's original in one zip, or null when no file could be had. */
  zip: MediaKitZip | null;
}

/** Sentences that credit a picture or state how it may be used, in the languages of the demo and the hosted newsroom. */
const CREDIT_SENTENCE =
  /^(?:©|\(c\)|copyright\b|photo\b|photos\b|photograph\b|picture\b|image\b|credit\b|foto\b|beeld\b|bild\b|crédit\b|fotograaf\b|fotograf\b)|\b(?:editorial use|royalty[- ]free|free (?:for|to) use|all rights reserved|licen[cs]ed?\b|creative commons|CC BY|redactioneel gebruik|redaktionelle[nr]? (?:gebrauch|nutzung)|usage éditorial|libre de droits)/i;

/** Splits a description into its caption and its credit/usage sentences (`Photo: …`, `© …`, `Free for editorial use.`). */
export function captionAndCredit(description: string | null | undefined): { caption: string | null; credit: string | null } {
  const text = description?.replace(/\s+/g, ' ').trim();
  if (!text) return { caption: null, credit: null };
  // Sentences end at `. `, `! ` or `? `; `Photo: J. Doe` keeps its initial (a single capital before the dot).
  const sentences = text.split(/(?<=(?<!\b\p{Lu})[.!?])\s+/u);
  const caption: string[] = [];
  const credit: string[] = [];
  for (const sentence of sentences) (CREDIT_SENTENCE.test(sentence) ? credit : caption).push(sentence);
  return { caption: caption.join(' ') || null, credit: credit.join(' ') || null };
}

const FILE_NAME = /\.[a-z0-9]{2,4}$/i;
const CAMERA_NAME = /^(dsc|img|pxl|dcim|photo)[-_ ]?\d+/i;
const NAME_CHARS = 60;

/** Words of `text` up to NAME_CHARS, cut at a word: the base of a file name for people. */
function shortName(text: string): string {
  const first = text.replace(/[.!?]+$/, '').split(/(?<=[.!?])\s/)[0]!;
  if (first.length <= NAME_CHARS) return first;
  const cut = first.slice(0, NAME_CHARS + 1);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 1));
}

/**
 * File names for people, one per picture and unique within the release: the caption, else a
 * title that is not a camera or file name, else the release's title and the picture's number.
 */
export function pictureNames(
  release: Pick<Release, 'title'>,
  pictures: ReadonlyArray<{ title?: string | null; caption: string | null }>,
): string[] {
  const taken = new Map<string, number>();
  return pictures.map((picture, i) => {
    const title = picture.title?.trim() ?? '';
    const spoken = picture.caption ?? (title && !FILE_NAME.test(title) && !CAMERA_NAME.test(title) ? title : null);
    let name = slugify(spoken ? shortName(spoken) : `${shortName(release.title)} ${i + 1}`, 80);
    if (!name) name = `image-${i + 1}`;
    const seen = taken.get(name) ?? 0;
    taken.set(name, seen + 1);
    return seen === 0 ? name : `${name}-${seen + 1}`;
  });
}

/** The release's pictures with their files, and the zip of them all (see the module comment). */
export async function releasePictures(release: Release, canonical: string, page: string): Promise<ReleasePictures> {
  const media = release.featured_images.filter(hasPicture);
  const split = media.map((m) => captionAndCredit(m.description));
  const names = pictureNames(
    release,
    media.map((m, i) => ({ title: m.title, caption: split[i]!.caption })),
  );
  const files = await Promise.all(media.map((m, i) => download(m, { page, name: names[i] })));
  const pictures = media.map((m, i) => ({ media: m, ...split[i]!, file: files[i] ?? null }));
  const zip =
    media.length > 0
      ? await mediaZip(
          {
            about: { press_release: { id: release.id, title: release.title, url: canonical } },
            name: `${slugify(shortName(release.title), 80) || `release-${release.id}`}-images`,
            files: media.map((item, i) => ({ item, name: names[i] })),
          },
          { page },
        )
      : null;
  return { pictures, zip };
}
