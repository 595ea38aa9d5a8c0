/**
 * The header's language switcher (and a team's own Header, docs/branding.md): for each language of
 * the press room, where this page is in that language. The per-language release listings
 * (`/nl/`, `/nl/2/`) are each other's counterparts, page for page (numbered from the oldest); a page
 * already in that language is itself (the not-found page excepted); every other page leads to that language's home (`/<lang>/`). The data relates no
 * translations (a release, a custom page or a tag has no link to its other-language versions), so
 * no other counterpart is guessed. Only published pages are ever linked: the listings are built
 * from published releases alone.
 */
import type { SiteData } from './data.ts';
import { languageName } from './i18n.ts';
import { numberedPageCount } from './listing-pages.ts';
import { RELEASES_PAGE_SIZE, languageHref, routePath } from './paths.ts';
import { lookupKey, withoutRecording } from './route-record.ts';

export interface LanguageLink {
  lang: string;
  /** The language's name in itself ("Nederlands"). */
  name: string;
  href: string;
  /** The page's own language. */
  current: boolean;
}

type LanguageSite = Pick<SiteData, 'languages' | 'releasesByLanguage'>;

/** The page of `/<lang>/` a path is (`null` for the front page `/nl/`, 2 for `/nl/2/`), or null for any other path. */
function listingPage(siteData: LanguageSite, route: string): { lang: string; page: number | null } | null {
  const match = /^\/([^/]+)\/(?:(\d+)\/)?$/.exec(route);
  if (!match || !siteData.languages.includes(match[1]!)) return null;
  return { lang: match[1]!, page: match[2] ? Number(match[2]) : null };
}

const numberedPageCountOf = (siteData: Pick<SiteData, 'releasesByLanguage'>, lang: string): number =>
  numberedPageCount(siteData.releasesByLanguage.get(lang)?.length ?? 0, RELEASES_PAGE_SIZE);

/**
 * A listing page links its counterpart while that language has that many numbered pages: it depends
 * on the count alone, not on which releases the language has (else every numbered page of every
 * language would render again whenever any release came or went).
 */
const noteNumberedPages = lookupKey('numberedReleasePages', (site) => ({
  get: (lang: string) => numberedPageCountOf(site as Pick<SiteData, 'releasesByLanguage'>, lang),
}));

/** How many numbered pages `/<lang>/` has. */
function numberedPages(siteData: LanguageSite, lang: string): number {
  noteNumberedPages(lang);
  return withoutRecording(() => numberedPageCountOf(siteData, lang));
}

/**
 * Each language's counterpart of the page at `pathname` (as the browser has it, base path included),
 * whose own language is `pageLang`.
 */
export function languageLinks(siteData: LanguageSite, pathname: string, pageLang: string): LanguageLink[] {
  const route = routePath(pathname);
  const listing = listingPage(siteData, route);
  // The not-found page is served at any missing address: it has no path of its own to link.
  const notFound = /^\/404(?:\.html|\/)?$/.test(route);
  return siteData.languages.map((lang) => {
    const current = (listing?.lang ?? pageLang) === lang;
    let href: string;
    if (listing) href = languageHref(lang, listing.page !== null && listing.page <= numberedPages(siteData, lang) ? listing.page : null);
    else if (current && !notFound) href = pathname;
    else href = languageHref(lang);
    return { lang, name: languageName(lang), href, current };
  });
}
