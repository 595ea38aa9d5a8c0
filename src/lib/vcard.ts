/**
 * vCard 3.0 (RFC 2426) for press contacts: the version every address book
 * imports (Apple Contacts, Outlook, Google, Android). A small writer rather
 * than a library: the npm vCard writers are unmaintained or fold by characters
 * instead of octets. Values are escaped as TEXT (`\` `,` `;` line breaks),
 * structured values (N) per component; URLs are written only when they are
 * plain http(s) with nothing that would need escaping; lines end with CRLF and
 * fold at 75 octets (src/lib/content-lines.ts). UTF-8, as every current reader expects.
 */
import { escapeText, joinLines } from './content-lines.ts';

export interface VCardInput {
  /** Stable and unique: `contact-<id>@<press room domain>`. */
  uid: string;
  name: string;
  organization?: string | null;
  title?: string | null;
  email?: string | null;
  /** Work phone as people write it (`+31 20 794 1139`). */
  phone?: string | null;
  mobile?: string | null;
  /** The contact's own web page (URL). */
  website?: string | null;
  /** Profile pages: LinkedIn, X/Twitter, … */
  urls?: Array<{ type: string; url: string }>;
  /** A small JPEG, embedded (base64) so the card works offline. */
  photo?: { jpeg: Uint8Array } | null;
  note?: string | null;
}

/** "Juda de Koning" → family "de Koning", given "Juda" (first word given, the rest family). */
export function splitName(name: string): { family: string; given: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { family: words[0] ?? '', given: '' };
  return { given: words[0]!, family: words.slice(1).join(' ') };
}

const PHONE = /^\+?[\d\s()./-]{5,40}$/;
const EMAIL = /^[^\s@<>"'(),;:\\]+@[^\s@<>"'(),;:\\]+\.[^\s@<>"'(),;:\\]+$/;
/** A URI value is not escaped, so it must have nothing that would need it. */
const SAFE_URL = /^https?:\/\/[^\s,;\\"<>]+$/i;
const TYPE = /^[A-Za-z][A-Za-z0-9-]{0,30}$/;

export function writeVCard(card: VCardInput): string {
  const name = card.name.trim();
  if (!name) throw new Error(`vcard: contact ${card.uid} has no name`);
  const { family, given } = splitName(name);
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', 'PRODID:-//pressroom-static//vCard//EN', `UID:${escapeText(card.uid)}`];
  lines.push(`FN:${escapeText(name)}`);
  lines.push(`N:${escapeText(family)};${escapeText(given)};;;`);
  if (card.organization?.trim()) lines.push(`ORG:${escapeText(card.organization.trim())}`);
  if (card.title?.trim()) lines.push(`TITLE:${escapeText(card.title.trim())}`);
  const email = card.email?.trim();
  if (email && EMAIL.test(email)) lines.push(`EMAIL;TYPE=INTERNET,WORK,PREF:${email}`);
  const phone = card.phone?.trim();
  if (phone && PHONE.test(phone)) lines.push(`TEL;TYPE=WORK,VOICE:${escapeText(phone)}`);
  const mobile = card.mobile?.trim();
  if (mobile && PHONE.test(mobile) && mobile !== phone) lines.push(`TEL;TYPE=CELL,VOICE:${escapeText(mobile)}`);
  const website = card.website?.trim();
  if (website && SAFE_URL.test(website)) lines.push(`URL;TYPE=WORK:${website}`);
  for (const { type, url } of card.urls ?? []) {
    if (!SAFE_URL.test(url)) continue;
    lines.push(TYPE.test(type) ? `X-SOCIALPROFILE;TYPE=${type.toLowerCase()}:${url}` : `URL:${url}`);
  }
  if (card.note?.trim()) lines.push(`NOTE:${escapeText(card.note.trim())}`);
  if (card.photo && card.photo.jpeg.length > 0) lines.push(`PHOTO;ENCODING=b;TYPE=JPEG:${Buffer.from(card.photo.jpeg).toString('base64')}`);
  lines.push('END:VCARD');
  return joinLines(lines);
}
