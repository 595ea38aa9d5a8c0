/**
 * The site's navigation, shared by the header and the footer (and by a team's
 * own Header or Footer, see docs/branding.md): the built-in sections the press
 * room has, its menu pages, then the extra links of the pressroom() options
 * (`nav`, `footer`), in their order, each labelled in the page's language.
 */
import type { SiteData } from './data.ts';
import { baseLanguage, translator } from './i18n.ts';
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

/** The sections the press room has and its menu pages, in the page's language. */
export function siteNav(site: SiteData, lang: string): NavItem[] {
  const t = translator(lang);
  // Menu pages in the page's language, else the press room's own (pages without a language go everywhere).
  const inLanguage = (l: string) => site.menuPages.filter((p) => !p.language || p.language === l);
  const menuPages = site.menuPages.some((p) => p.language === lang) ? inLanguage(lang) : inLanguage(site.pressroom.language);
  return [
    { href: releasesHref(), label: t('releases') },
    ...(site.tags.length > 0 ? [{ href: tagsHref, label: t('topics') }] : []),
    { href: archiveHref(), label: t('archive') },
    ...(site.mediaKits.length > 0 ? [{ href: mediaKitsHref, label: t('mediaKits') }] : []),
    ...(site.clippings.length > 0 ? [{ href: coverageHref(), label: t('coverage') }] : []),
    ...(site.events.length > 0 ? [{ href: eventsHref, label: t('events') }] : []),
    ...(site.contacts.length > 0 ? [{ href: contactsHref, label: t('contacts') }] : []),
    ...menuPages.map((p) => ({ href: p.href, label: p.title, lang: p.language && p.language !== lang ? p.language : undefined })),
  ];
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
