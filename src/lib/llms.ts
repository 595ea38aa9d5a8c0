/**
 * The press room for AI assistants and their crawlers, after the llms.txt convention:
 *
 *   /llms.txt                 an index in Markdown: name and about text, the newest releases (each
 *                             linked to its Markdown twin, with date and a one-line summary), media
 *                             kits, press contacts, feeds, and the site's other sections
 *   /<permalink>/index.md     every release's Markdown twin, in its page's folder, linked from the page
 *                             with <link rel="alternate" type="text/markdown"> (src/lib/release-markdown.ts)
 *   /llms-full.txt            the newest releases in full, newest first, ending with a link to the archive
 *
 * Budgets, and which press rooms get these files at all (not a noindex one): src/lib/llms-rules.ts.
 * Links are absolute on the site URL (as in the feeds), so an answer that quotes one gives a
 * working address. Same data, same bytes: no clock is read. The structure words of llms.txt and
 * llms-full.txt are English (as in the convention's examples); the content keeps its own language.
 */
import { SITEMAP_INDEX_PATH } from './crawlers.ts';
import { getSite, isProtectedKit, type Release, type SiteData } from './data.ts';
import { FEED_FILES, feedHref, feedTitle, releaseFeedItem, type FeedScope } from './feeds.ts';
import { languageName } from './i18n.ts';
import * as md from './markdown.ts';
import {
  archiveHref,
  contactsHref,
  coverageHref,
  eventsHref,
  llmsFullTxtHref,
  llmsTxtHref,
  mediaHref,
  mediaKitHref,
  mediaKitsHref,
  releasesHref,
  tagsHref,
} from './paths.ts';
import { LLMS_FULL_BUDGET, LLMS_TXT_BUDGET, fitWithinBudget, twinPaths } from './llms-rules.ts';
import { boilerplateBlocks, contactBlocks, contactItem, releaseBlocks } from './release-markdown.ts';
import { htmlToText, truncate } from './sanitize.ts';
import { derivedKey, withoutRecording } from './route-record.ts';

/** Release id → its Markdown twin's path (see twinPaths), once per build. */
const twinsBySite = new WeakMap<SiteData, Map<number, string>>();
const noteReleasesWithoutTwin = derivedKey('releasesWithoutTwin', (site) => {
  const raw = site as SiteData;
  const all = twinPaths(raw.pressroom, raw.releases, raw.pages);
  return raw.releases.filter((release) => !all.has(release.id)).map((release) => release.id);
});
/**
 * Made once reading every release, but a release's twin path depends only on its own path (read
 * where the twin is looked up) and on which releases have none: that is what a route depends on.
 */
export function markdownTwins(siteData: SiteData): Map<number, string> {
  let twins = twinsBySite.get(siteData);
  if (!twins) twinsBySite.set(siteData, (twins = withoutRecording(() => twinPaths(siteData.pressroom, siteData.releases, siteData.pages))));
  noteReleasesWithoutTwin();
  return twins;
}

/** A release's Markdown twin (the whole file). */
export async function releaseMarkdown(release: Release, siteUrl: URL): Promise<string> {
  const siteData = await getSite();
  return md.serialize(await releaseBlocks(siteData, release, siteUrl, { depth: 1, pressroomParts: true }));
}

/** `YYYY-MM-DD` of an instant in the press room's time zone. */
function isoDate(value: string, timeZone: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? ''
    : new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

function aboutBlocks(siteData: SiteData): md.Block[] {
  const about = truncate(md.oneLine(siteData.aboutText), 400);
  return about ? [md.blockquote(md.paragraph(md.text(about)))] : [];
}

/** "54 press releases in English, Dutch and German" */
function releaseCountText(siteData: SiteData): string {
  const count = siteData.releases.length;
  const names = siteData.languages.map((lang) => languageName(lang, 'en'));
  const languages =
    names.length > 1 ? ` in ${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.length === 1 ? ` in ${names[0]}` : '';
  return `${count} press release${count === 1 ? '' : 's'}${languages}`;
}

/** The site's sections beyond this file, each with what it holds. */
function sectionItems(siteData: SiteData, abs: (path: string) => string): md.Inline[][] {
  const item = (path: string, name: string, note: string): md.Inline[] => [md.link(abs(path), md.text(name)), md.text(`: ${note}`)];
  return [
    item(releasesHref(), 'All press releases', 'every release, newest first'),
    item(archiveHref(), 'Archive', 'press releases by year and month'),
    ...(siteData.tags.length > 0 ? [item(tagsHref, 'Topics', 'a page per topic with everything tagged with it')] : []),
    ...(siteData.mediaKits.length > 0 ? [item(mediaKitsHref, 'Media kits', 'logos, photos and documents to download')] : []),
    item(mediaHref(), 'Media library', 'images, videos, audio and documents'),
    ...(siteData.clippings.length > 0 ? [item(coverageHref(), 'Coverage', 'articles about the company in the press')] : []),
    ...(siteData.events.length > 0 ? [item(eventsHref, 'Events', 'upcoming and past events, with calendar files')] : []),
    ...(siteData.contacts.length > 0 ? [item(contactsHref, 'Press contacts', 'e-mail, phone and vCards')] : []),
    item(SITEMAP_INDEX_PATH, 'Sitemap', 'every page of the site'),
  ];
}

/** Feeds: every release, and each language's when there are several; RSS, Atom and JSON Feed. */
function feedItems(siteData: SiteData, abs: (path: string) => string): md.Inline[][] {
  const scopes: FeedScope[] = [
    { kind: 'all' },
    ...(siteData.languages.length > 1 ? siteData.languages.map((language): FeedScope => ({ kind: 'language', language })) : []),
  ];
  const label = { 'rss.xml': 'RSS 2.0', 'atom.xml': 'Atom 1.0', 'feed.json': 'JSON Feed 1.1' } as const;
  return scopes.map((scope) => [
    md.text(`${md.oneLine(feedTitle(siteData, scope))}: `),
    ...md.joined(
      FEED_FILES.map((file) => [md.link(abs(feedHref(scope, file)), md.text(label[file]))]),
      ', ',
    ),
    md.text(' (full text)'),
  ]);
}

async function releaseItem(siteData: SiteData, release: Release, siteUrl: URL, twin: string | undefined): Promise<md.Inline[]> {
  const item = await releaseFeedItem(release, siteUrl);
  const date = release.release_date ? isoDate(release.release_date, siteData.timeZone) : '';
  const note = [date, truncate(md.oneLine(item.summary), LLMS_TXT_BUDGET.summaryChars)].filter(Boolean).join(' · ');
  const title = truncate(md.oneLine(release.title), LLMS_TXT_BUDGET.titleChars);
  return [md.link(new URL(twin ?? release.href, siteUrl).href, md.text(title)), ...(note ? [md.text(`: ${note}`)] : [])];
}

function kitItem(kit: SiteData['mediaKits'][number], siteUrl: URL): md.Inline[] {
  const files = isProtectedKit(kit) ? 'protected, no files to download' : `${kit.media.length} file${kit.media.length === 1 ? '' : 's'}`;
  const description = truncate(md.oneLine(htmlToText(kit.description)), LLMS_TXT_BUDGET.summaryChars);
  return [
    md.link(new URL(mediaKitHref(kit), siteUrl).href, md.text(md.oneLine(kit.title))),
    md.text(`: ${[description, files].filter(Boolean).join(' · ')}`),
  ];
}

/** /llms.txt (see the module comment). */
export async function llmsTxt(siteUrl: URL): Promise<string> {
  const siteData = await getSite();
  const abs = (path: string) => new URL(path, siteUrl).href;
  const twins = markdownTwins(siteData);
  const releases = await Promise.all(
    siteData.releases.slice(0, LLMS_TXT_BUDGET.releases).map((r) => releaseItem(siteData, r, siteUrl, twins.get(r.id))),
  );
  const kits = siteData.mediaKits.slice(0, LLMS_TXT_BUDGET.mediaKits).map((kit) => kitItem(kit, siteUrl));
  const contacts = siteData.contacts.slice(0, LLMS_TXT_BUDGET.contacts).map((c) => contactItem(c, siteUrl));
  const name = md.oneLine(siteData.pressroom.name);

  const render = (count: number) => {
    const intro = `The press room of ${name}: ${releaseCountText(siteData)}. ${count < siteData.releases.length ? `The ${count} newest are listed here, ` : 'All are listed here, '}newest first, each linked to its Markdown version. `;
    return md.serialize([
      md.heading(1, md.text(name)),
      ...aboutBlocks(siteData),
      md.paragraph(
        md.text(intro),
        md.text('The full text of the newest releases is in '),
        md.link(abs(llmsFullTxtHref), md.text('llms-full.txt')),
        md.text('.'),
      ),
      ...(count > 0 ? [md.heading(2, md.text('Press releases')), md.list(releases.slice(0, count))] : []),
      ...(kits.length > 0 ? [md.heading(2, md.text('Media kits')), md.list(kits)] : []),
      ...(contacts.length > 0 ? [md.heading(2, md.text('Press contacts')), md.list(contacts)] : []),
      md.heading(2, md.text('Feeds')),
      md.list(feedItems(siteData, abs)),
      md.heading(2, md.text('Optional')),
      md.list([
        [md.link(abs(llmsFullTxtHref), md.text('Full text')), md.text(`: the newest press releases in full, in one file`)],
        ...sectionItems(siteData, abs),
      ]),
    ]);
  };
  return fitWithinBudget(render, releases.length, LLMS_TXT_BUDGET.bytes).text;
}

/** /llms-full.txt (see the module comment). */
export async function llmsFullTxt(siteUrl: URL): Promise<string> {
  const siteData = await getSite();
  const abs = (path: string) => new URL(path, siteUrl).href;
  const lang = siteData.pressroom.language;
  const candidates = siteData.releases.slice(0, LLMS_FULL_BUDGET.releases);
  const sections = await Promise.all(
    candidates.map((release) => releaseBlocks(siteData, release, siteUrl, { depth: 2, pressroomParts: false })),
  );
  const name = md.oneLine(siteData.pressroom.name);
  const total = siteData.releases.length;

  const render = (count: number) => {
    const scope = count < total ? `the ${count} newest of its ${total} press releases` : `all ${total} of its press releases`;
    return md.serialize([
      md.heading(1, md.text(`${name}: press releases in full`)),
      ...aboutBlocks(siteData),
      md.paragraph(
        md.text(
          `The press room of ${name} with ${scope}, newest first (this file holds at most ${LLMS_FULL_BUDGET.releases} releases and ${LLMS_FULL_BUDGET.bytes / 1024} KiB). Index: `,
        ),
        md.link(abs(llmsTxtHref), md.text('llms.txt')),
        md.text('.'),
      ),
      ...boilerplateBlocks(siteData, siteUrl, 2, lang),
      ...contactBlocks(siteData, siteUrl, 2, lang),
      ...sections.slice(0, count).flat(),
      md.heading(2, md.text('Older press releases')),
      md.paragraph(
        md.text(count < total ? `${total - count} older press releases are in the ` : 'Every press release is also in the '),
        md.link(abs(archiveHref()), md.text('archive')),
        md.text(' (by year and month) and on '),
        md.link(abs(releasesHref()), md.text('All press releases')),
        md.text('.'),
      ),
    ]);
  };
  return fitWithinBudget(render, sections.length, LLMS_FULL_BUDGET.bytes).text;
}
