/**
 * The site's navigation, shared by the header and the footer (and by a team's
 * own Header or Footer, see docs/branding.md): the built-in sections the press
 * room has, its menu pages, then the extra links of the pressroom() options
 * (`nav`, `footer`), in their order, each labelled in the page's language.
 */
import type { CustomPage, SiteData } from './data.ts';
import { baseLanguage, translator } from './i18n.ts';
import { derivedKey, withoutRecording } from './route-record.ts';
import { archiveHref, contactsHref, coverageHref, eventsHref, mediaKitsHref, releasesHref, sitePath, tagsHref } from './paths.ts';

export interface NavItem {
  href: string;
  label: string;
  /** The label's language when it is not the page's. */
  lang?: string | undefined;
  /** A link off this site. */
  external?: boolean;
}

/** An extra link as the options give it: one label, or one per language. */
export interface ExtraLinkOption {
  label: string | Record<string, string>;
  href: string;
}

/**
 * The custom pages shown to readers of `lang`: that language's own pages when it has any (so a Dutch
 * page links "Over ons", never the English "About us" beside it), else the press room language's;
 * pages without a language go everywhere. `menu` are those the press room puts in its menu (the
 * navigation), `other` the rest (the footer), so every page is reachable from its language's pages.
 */
export function customPagesFor(siteData: Pick<SiteData, 'pages' | 'pressroom'>, lang: string): { menu: CustomPage[]; other: CustomPage[] } {
  const ofLanguage = (l: string) => siteData.pages.filter((p) => p.language && baseLanguage(p.language) === baseLanguage(l));
  const own = ofLanguage(lang);
  const chosen = new Set([
    ...(own.length > 0 ? own : ofLanguage(siteData.pressroom.language)),
    ...siteData.pages.filter((p) => !p.language),
  ]);
  const pages = siteData.pages.filter((p) => chosen.has(p));
  return { menu: pages.filter((p) => p.show_in_menu), other: pages.filter((p) => !p.show_in_menu) };
}

/** A custom page as a link, its title marked with its language when that is not the page's. */
function pageItem(page: CustomPage, lang: string): NavItem {
  const other = page.language && baseLanguage(page.language) !== baseLanguage(lang) ? page.language : undefined;
  return { href: page.href, label: page.title, lang: other };
}

type Sections = Pick<SiteData, 'tags' | 'mediaKits' | 'clippings' | 'events' | 'contacts'>;
/** Which built-in sections the press room has: all a page's navigation depends on of those lists. */
const sectionsShown = (siteData: Sections) =>
  [siteData.tags, siteData.mediaKits, siteData.clippings, siteData.events, siteData.contacts].map((list) => list.length > 0);
const noteSectionsShown = derivedKey('sectionsShown', (site) => sectionsShown(site as Sections));

/** The sections the press room has and its menu pages, in the page's language. */
export function siteNav(siteData: SiteData, lang: string): NavItem[] {
  const t = translator(lang);
  // Every page shows the navigation: a new clipping must not make every page depend on the clippings (route-record.ts).
  const [tags, mediaKits, clippings, events, contacts] = withoutRecording(() => sectionsShown(siteData));
  noteSectionsShown();
  return [
    { href: releasesHref(), label: t('releases') },
    ...(tags ? [{ href: tagsHref, label: t('topics') }] : []),
    { href: archiveHref(), label: t('archive') },
    ...(mediaKits ? [{ href: mediaKitsHref, label: t('mediaKits') }] : []),
    ...(clippings ? [{ href: coverageHref(), label: t('coverage') }] : []),
    ...(events ? [{ href: eventsHref, label: t('events') }] : []),
    ...(contacts ? [{ href: contactsHref, label: t('contacts') }] : []),
    ...customPagesFor(siteData, lang).menu.map((p) => pageItem(p, lang)),
  ];
}

/** The custom pages of the page's language that are not in the menu: the footer links them. */
export function footerPages(siteData: Pick<SiteData, 'pages' | 'pressroom'>, lang: string): NavItem[] {
  return customPagesFor(siteData, lang).other.map((p) => pageItem(p, lang));
}

/**
 * A label in the page's language: the exact language, else its base language (`nl` for `nl-BE`),
 * else the press room's language, else English, else the first given.
 */
export function labelFor(label: ExtraLinkOption['label'], lang: string, siteLanguage: string): { text: string; lang: string | undefined } {
  if (typeof label === 'string') return { text: label, lang: undefined };
  const entries = Object.entries(label);
  const find = (wanted: string) =>
    entries.find(([l]) => l.toLowerCase() === wanted.toLowerCase()) ?? entries.find(([l]) => baseLanguage(l) === baseLanguage(wanted));
  const [found, text] = find(lang) ?? find(siteLanguage) ?? find('en') ?? entries[0]!;
  return { text, lang: baseLanguage(found) === baseLanguage(lang) ? undefined : found };
}

/** The extra links of the options, in order; a path of this site is written under its base path. */
export function extraNav(links: readonly ExtraLinkOption[], lang: string, siteLanguage: string): NavItem[] {
  return links.map((link) => {
    const label = labelFor(link.label, lang, siteLanguage);
    const own = link.href.startsWith('/');
    return { href: own ? sitePath(link.href) : link.href, label: label.text, lang: label.lang, external: !own };
  });
}
