/**
 * A press contact's vCard: /contacts/<id>-<name>.vcf (src/lib/vcard.ts), with the
 * square avatar embedded as a small JPEG so the card works offline.
 */
import { readFile } from 'node:fs/promises';
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSite, type Contact } from '../../lib/data.ts';
import { uidDomain } from '../../lib/event-calendar.ts';
import { httpHref } from '../../lib/format.ts';
import { avatarMedia } from '../../lib/images.ts';
import { contactSegment } from '../../lib/paths.ts';
import { writeVCard } from '../../lib/vcard.ts';
import { getImagePipeline } from '../../lib/image-pipeline.ts';

export const getStaticPaths = (async () => {
  const siteData = await getSite();
  return siteData.contacts.map((contact) => ({ params: { contact: contactSegment(contact) }, props: { contact } }));
}) satisfies GetStaticPaths;

/** Embedded photos stay small: the narrowest square JPEG rendition of at least this width. */
const PHOTO_WIDTH = 200;
const PHOTO_MAX_BYTES = 48_000;

async function photoOf(contact: Contact, page: string): Promise<{ jpeg: Uint8Array } | null> {
  const avatar = avatarMedia(contact.avatar);
  if (!avatar) return null;
  const pipeline = await getImagePipeline();
  const picture = await pipeline.picture(avatar, { page, shape: 'square' });
  if (!picture.ok) return null;
  const jpegs = picture.renditions.filter((r) => r.files.jpeg);
  const url = (jpegs.find((r) => r.width >= PHOTO_WIDTH) ?? jpegs.at(-1))?.files.jpeg;
  const file = url ? pipeline.published().get(url.slice(url.lastIndexOf('/') + 1)) : undefined;
  if (!file) return null;
  const jpeg = await readFile(file);
  return jpeg.length <= PHOTO_MAX_BYTES ? { jpeg } : null;
}

export const GET: APIRoute<{ contact: Contact }> = async ({ props, url }) => {
  const { contact } = props;
  const siteData = await getSite();
  const body = writeVCard({
    uid: `contact-${contact.id}@${uidDomain(siteData.pressroom)}`,
    name: contact.name,
    organization: siteData.pressroom.name,
    title: contact.job_title,
    email: contact.email,
    phone: contact.phone,
    mobile: contact.mobile,
    website: httpHref(contact.website),
    urls: [
      { type: 'linkedin', url: httpHref(contact.urls.linkedin) ?? '' },
      { type: 'twitter', url: httpHref(contact.urls.twitter) ?? '' },
    ].filter((u) => u.url !== ''),
    photo: await photoOf(contact, url.pathname),
  });
  return new Response(body, { headers: { 'Content-Type': 'text/vcard; charset=utf-8' } });
};
