/** The media library's sections (src/lib/paths.ts MEDIA_SECTIONS) and what each lists, newest first. */
import type { LibraryItem, SiteData } from './data.ts';
import { MEDIA_SECTIONS, mediaAnchor, mediaHref, type MediaSection } from './paths.ts';
import type { UiKey } from './i18n.ts';
import { pageOfIndex } from './listing-pages.ts';

export const MEDIA_PAGE_SIZE = 24;

export const SECTION_TITLE: Record<MediaSection, UiKey> = { images: 'images', videos: 'videos', audio: 'audio', documents: 'documents' };

const created = (m: LibraryItem) => (m.created_at ? Date.parse(m.created_at) : Number.NEGATIVE_INFINITY);

/** Every non-empty section with its items: videos are platform videos and uploaded video files together. */
export function librarySections(
  siteData: Pick<SiteData, 'images' | 'videos' | 'movies' | 'sounds' | 'documents'>,
): Array<{ section: MediaSection; items: LibraryItem[] }> {
  const items: Record<MediaSection, LibraryItem[]> = {
    images: siteData.images,
    videos: [...siteData.videos, ...siteData.movies].sort((a, b) => created(b) - created(a) || a.id - b.id),
    audio: siteData.sounds,
    documents: siteData.documents,
  };
  return MEDIA_SECTIONS.map((section) => ({ section, items: items[section] })).filter((s) => s.items.length > 0);
}

/** Where each library item is listed: its section's page and `#<type>-<id>` anchor, keyed by that anchor. */
export function libraryItemHrefs(siteData: Pick<SiteData, 'images' | 'videos' | 'movies' | 'sounds' | 'documents'>): Map<string, string> {
  const hrefs = new Map<string, string>();
  for (const { section, items } of librarySections(siteData)) {
    items.forEach((item, position) => {
      const anchor = mediaAnchor(item);
      if (!hrefs.has(anchor)) hrefs.set(anchor, `${mediaHref(section, pageOfIndex(position, items.length, MEDIA_PAGE_SIZE))}#${anchor}`);
    });
  }
  return hrefs;
}
