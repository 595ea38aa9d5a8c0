/**
 * What a reader can subscribe to from a page (the footer's "Subscribe" entry, and a team's own
 * Header or Footer, docs/branding.md): the feeds of the page's language (RSS, Atom, JSON Feed),
 * then those of every release when the press room has several languages, and the press room's
 * e-mail subscription when it has one. The API says whether e-mail subscriptions are on
 * (`subscribe_enabled`) but names no place to sign up; the press room's `urls.subscribe` is that
 * place. Both must be readable: an unreadable flag or address means no link.
 */
import type { SiteData } from './data.ts';
import { FEED_FILES, FEED_FORMATS, type FeedFile } from './feed-formats.ts';
import { feedHref, type FeedScope } from './feed-paths.ts';
import { httpHref } from './format.ts';
import { languageName, translator } from './i18n.ts';

export const FEED_LABELS: Record<FeedFile, string> = { 'rss.xml': 'RSS', 'atom.xml': 'Atom', 'feed.json': 'JSON Feed' };

export interface FeedLink {
  href: string;
  /** The feed's media type without parameters (`application/rss+xml`), for the link's `type`. */
  type: string;
  /** `RSS`, `Atom`, `JSON Feed`. */
  label: string;
}

export interface FeedGroup {
  /** What the feeds hold, in the page's language ("Press releases in Dutch"). */
  title: string;
  feeds: FeedLink[];
}

export interface SubscribeOptions {
  feeds: FeedGroup[];
  /** Where to sign up for the press room's e-mails, or null. */
  email: string | null;
}

/** The three feeds of one scope, RSS first. */
export function feedLinks(scope: FeedScope): FeedLink[] {
  return FEED_FILES.map((file) => ({
    href: feedHref(scope, file),
    type: FEED_FORMATS[file].type.split(';')[0]!,
    label: FEED_LABELS[file],
  }));
}

/** The e-mail sign-up address when subscriptions are on and the press room gives one (http/https only). */
export function emailSubscription(pressroom: Pick<SiteData['pressroom'], 'subscribe_enabled' | 'urls'>): string | null {
  return pressroom.subscribe_enabled === true ? httpHref(pressroom.urls.subscribe) : null;
}

/** The feeds and the e-mail sign-up offered on a page in `lang`. */
export function subscribeOptions(siteData: Pick<SiteData, 'languages' | 'pressroom'>, lang: string): SubscribeOptions {
  const t = translator(lang);
  // Language feeds exist for each language with releases when there are several (src/lib/feeds.ts).
  const ownLanguage = siteData.languages.length > 1 && siteData.languages.includes(lang);
  const feeds: FeedGroup[] = [
    ...(ownLanguage
      ? [{ title: t('releasesIn', { language: languageName(lang, lang) }), feeds: feedLinks({ kind: 'language', language: lang }) }]
      : []),
    { title: t('allReleases'), feeds: feedLinks({ kind: 'all' }) },
  ];
  return { feeds, email: emailSubscription(siteData.pressroom) };
}
