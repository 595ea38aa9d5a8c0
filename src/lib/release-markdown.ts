/**
 * A press release as Markdown, the same content as its page: title, subtitle, dateline
 * (place, date and time in the press room's time zone), summary, featured image, the
 * sanitized body (the feeds' copy: inline images as this site's files, links absolute),
 * the other featured images, then the boilerplate and the press contacts, and last a
 * short list of facts (published, language, tags, PDF, web page). Interface words are in
 * the release's language, as on the page.
 *
 * Used as the release's Markdown twin (`/<permalink>/index.md`, title as `#`) and as a
 * section of llms-full.txt (title as `##`, everything below one level down, without the
 * boilerplate and contacts, which that file gives once).
 */
import { shareImage } from './image-pipeline.ts';
import type { Contact, Release, SiteData } from './data.ts';
import { formatDateTime } from './dates.ts';
import { releaseFeedItem } from './feeds.ts';
import { shareWork, usedShared, type SharedWork } from './route-record.ts';
import { mailtoHref, telHref } from './format.ts';
import { translator } from './i18n.ts';
import { altFor, type PictureSource } from './images.ts';
import { cachedMarkdown } from './markdown-cache.ts';
import * as md from './markdown.ts';
import { contactAnchor, contactVcfHref, contactsHref } from './paths.ts';
import { sanitizeBasic } from './sanitize.ts';

export interface ReleaseMarkdownOptions {
  /** Heading level of the title: 1 in a twin, 2 in llms-full.txt (the body's headings follow it down). */
  depth: 1 | 2;
  /** Boilerplate and press contacts after the body (twins; llms-full.txt has them once at its top). */
  pressroomParts: boolean;
}

/** One press contact as a list item: name (linked to its card on /contacts/), job title, e-mail, phone, vCard. */
export function contactItem(contact: Contact, siteUrl: URL): md.Inline[] {
  const abs = (path: string) => new URL(path, siteUrl).href;
  const parts: md.Inline[][] = [];
  const jobTitle = md.oneLine(contact.job_title);
  if (jobTitle) parts.push([md.text(jobTitle)]);
  const email = mailtoHref(contact.email);
  if (email) parts.push([md.link(email, md.text(md.oneLine(contact.email)))]);
  const tel = telHref(contact.phone);
  if (tel) parts.push([md.link(tel, md.text(md.oneLine(contact.phone)))]);
  parts.push([md.link(abs(contactVcfHref(contact)), md.text('vCard'))]);
  return [
    md.link(abs(`${contactsHref}#${contactAnchor(contact)}`), md.text(md.oneLine(contact.name))),
    md.text(': '),
    ...md.joined(parts, ' · '),
  ];
}

/** The press room's boilerplate ("About <name>") as blocks under a heading of `depth`, or none. */
export function boilerplateBlocks(siteData: SiteData, siteUrl: URL, depth: number, lang: string): md.Block[] {
  const body = converted(siteData).boilerplate(() => md.htmlToBlocks(sanitizeBasic(siteData.pressroom.boilerplate_html), siteUrl));
  if (body.length === 0) return [];
  return [
    md.heading(depth, md.text(translator(lang)('about', { name: md.oneLine(siteData.pressroom.name) }))),
    ...md.shiftHeadings(body, depth - 1),
  ];
}

/**
 * Blocks made once a build and shared (never changed: headings are shifted on copies): the
 * boilerplate and the contacts, which every twin repeats (as blocks, and serialized).
 */
const conversions = new WeakMap<SiteData, ReturnType<typeof conversionCache>>();
function converted(siteData: SiteData) {
  let cache = conversions.get(siteData);
  if (!cache) conversions.set(siteData, (cache = conversionCache()));
  return cache;
}

function conversionCache() {
  const boilerplate = madeOnce();
  return {
    boilerplate: (convert: () => md.Block[]) => boilerplate('', convert),
    contacts: madeOnce(),
    pressroomParts: madeOnce(),
  };
}

/** `(key, make)`: the blocks made for `key` the first time it is asked for; what they read is noted for every twin using them. */
function madeOnce(): (key: string, make: () => md.Block[]) => md.Block[] {
  const made = new Map<string, SharedWork<md.Block[]>>();
  return (key, make) => {
    let blocks = made.get(key);
    if (!blocks) made.set(key, (blocks = shareWork(make)));
    return usedShared(blocks);
  };
}

/** The boilerplate (when shown) and the press contacts, serialized once (`md.serializedBlocks`): what every twin repeats. */
function pressroomBlocks(siteData: SiteData, siteUrl: URL, depth: number, lang: string, boilerplate: boolean): md.Block[] {
  return converted(siteData).pressroomParts(`${depth} ${lang} ${boilerplate}`, () =>
    md.serializedBlocks([
      ...(boilerplate ? boilerplateBlocks(siteData, siteUrl, depth, lang) : []),
      ...contactBlocks(siteData, siteUrl, depth, lang),
    ]),
  );
}

/** The press contacts as a list under a heading of `depth`, or none. */
export function contactBlocks(siteData: SiteData, siteUrl: URL, depth: number, lang: string): md.Block[] {
  if (siteData.contacts.length === 0) return [];
  return converted(siteData).contacts(`${depth} ${lang}`, () => [
    md.heading(depth, md.text(translator(lang)('prContacts'))),
    md.list(siteData.contacts.map((c) => contactItem(c, siteUrl))),
  ]);
}

async function pictureBlocks(
  media: PictureSource & { title?: string | null; description?: string | null },
  release: Release,
  siteUrl: URL,
): Promise<md.Block[]> {
  const picture = await shareImage(media, { page: release.href });
  if (!picture) return [];
  const alt = altFor(media, release.title);
  const caption = md.oneLine(media.description);
  return [
    md.paragraph(md.image(new URL(picture.src, siteUrl).href, alt)),
    ...(caption && caption !== md.oneLine(alt) ? [md.paragraph(md.emphasis(md.text(caption)))] : []),
  ];
}

/**
 * A release's body (its feed item's HTML) under a title of `depth`, serialized (`md.written`): it
 * follows a paragraph or heading and comes before a heading or rule, never next to a list. The
 * conversion is the twins' largest cost and its text is kept between builds (markdown-cache.ts).
 */
async function bodyBlocks(html: string, siteUrl: URL, depth: number): Promise<md.Block[]> {
  return md.written(
    await cachedMarkdown([siteUrl.href, String(depth), html], () =>
      md.serializedText(md.shiftHeadings(md.htmlToBlocks(html, siteUrl), depth - 1)),
    ),
  );
}

/** A release as Markdown blocks (see the module comment). */
export async function releaseBlocks(
  siteData: SiteData,
  release: Release,
  siteUrl: URL,
  { depth, pressroomParts }: ReleaseMarkdownOptions,
): Promise<md.Block[]> {
  const t = translator(release.language);
  const item = await releaseFeedItem(release, siteUrl);
  const [lead, ...more] = release.picturesOutsideBody;
  const [leadBlocks, ...moreBlocks] = await Promise.all([
    lead ? pictureBlocks(lead, release, siteUrl) : [],
    ...more.map((m) => pictureBlocks(m, release, siteUrl)),
  ]);

  const blocks: md.Block[] = [md.heading(depth, md.text(md.oneLine(release.title)))];
  const subtitle = md.oneLine(release.subtitle);
  if (subtitle) blocks.push(md.paragraph(md.emphasis(md.text(subtitle))));
  const dateline = [
    md.oneLine(release.release_location),
    release.release_date ? formatDateTime(release.release_date, release.language, siteData.timeZone) : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (dateline) blocks.push(md.paragraph(md.text(dateline)));
  blocks.push(...(leadBlocks ?? []));
  const summary = md.oneLine(release.summary);
  if (summary) blocks.push(md.paragraph(md.strong(md.text(summary))));
  blocks.push(...(await bodyBlocks(item.contentHtml, siteUrl, depth)));
  const gallery = moreBlocks.flat();
  if (gallery.length > 0) blocks.push(md.heading(depth + 1, md.text(t('images'))), ...gallery);
  // Serialized once per language for all twins: they start with a heading, and the rule below
  // keeps a list from following them.
  if (pressroomParts) blocks.push(...pressroomBlocks(siteData, siteUrl, depth + 1, release.language, release.show_boilerplate_text));

  const facts: md.Inline[][] = [[md.text(`Published: ${item.published}`)]];
  if (item.updated !== item.published) facts.push([md.text(`Updated: ${item.updated}`)]);
  facts.push([md.text(`Language: ${md.oneLine(release.language)}`)]);
  if (item.categories.length > 0)
    facts.push([
      md.text(`${t('tags')}: `),
      ...md.joined(
        item.categories.map((c) => [md.link(c.url, md.text(md.oneLine(c.label)))]),
        ', ',
      ),
    ]);
  for (const pdf of item.attachments) facts.push([md.text('PDF: '), md.link(pdf.url, md.text(md.oneLine(pdf.title) || t('downloadPdf')))]);
  facts.push([md.text('Web page: '), md.link(item.url, md.text(item.url))]);
  blocks.push(md.rule(), md.list(facts));
  return blocks;
}
