/**
 * Contact details inside the free text of a PR contact's `contact_info`
 * ("Head of Communications\nT +31 20 794 1139\nM +31 6 4257 7689\nE press@…"),
 * which older answers send instead of `email`, `phone` and `job_title`.
 * Phone numbers are found and typed by libphonenumber-js (national numbers
 * need the press room's country); e-mail and web addresses by their shape.
 * Numbers are kept as they were written; the site derives `tel:` links.
 */
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';

export interface ContactDetails {
  email: string | null;
  /** The work (landline or unlabelled) number. */
  phone: string | null;
  mobile: string | null;
  website: string | null;
  /** A short first line that is none of the above, e.g. "Head of Communications". */
  jobTitle: string | null;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const WEBSITE = /\b(?:https?:\/\/|www\.)[^\s<>"']+[^\s<>"'.,;:!?)]/gi;
/** A line label for a mobile number: "M", "Mob.", "Mobile:", "Mobiel", "Handy", "GSM", … */
const MOBILE_LABEL = /^\s*(?:m|mob|mobile|mobiel|handy|gsm|cell|portable)\b/i;
/** A line label for any phone number. */
const PHONE_LABEL = /^\s*(?:t|tel|phone|telephone|telefoon|telefon|téléphone|f|fax|m|mob|mobile|mobiel|handy|gsm|cell|portable)\b/i;

/** The country whose national numbers (`020 123 4567`) a press room writes, from its language and time zone. */
export function phoneCountryOf(language: string | null | undefined, timeZone?: string | null): CountryCode | undefined {
  const region = /^[a-z]{2,3}[-_]([A-Za-z]{2})\b/.exec(language ?? '')?.[1]?.toUpperCase();
  if (region) return region as CountryCode;
  const lang = (language ?? '').slice(0, 2).toLowerCase();
  if (lang === 'en') return /^America\/|Eastern|Central Time|Pacific|Mountain|Alaska|Hawaii/.test(timeZone ?? '') ? 'US' : 'GB';
  const byLanguage: Record<string, CountryCode> = {
    nl: 'NL',
    de: 'DE',
    fr: 'FR',
    es: 'ES',
    it: 'IT',
    pt: 'PT',
    sv: 'SE',
    da: 'DK',
    nb: 'NO',
    no: 'NO',
    fi: 'FI',
    pl: 'PL',
    cs: 'CZ',
    hu: 'HU',
    el: 'GR',
    tr: 'TR',
    ja: 'JP',
    ko: 'KR',
    zh: 'CN',
    ru: 'RU',
    uk: 'UA',
    ro: 'RO',
    bg: 'BG',
    et: 'EE',
    lv: 'LV',
    lt: 'LT',
  };
  return byLanguage[lang];
}

/** `name` (the contact's own) is never taken for a role when the text starts with it. */
export function parseContactInfo(text: string | null | undefined, country?: CountryCode, name?: string): ContactDetails {
  const details: ContactDetails = { email: null, phone: null, mobile: null, website: null, jobTitle: null };
  if (!text?.trim()) return details;
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && line.toLowerCase() !== name?.trim().toLowerCase());
  for (const [index, line] of lines.entries()) {
    let found = false;
    for (const match of findPhoneNumbersInText(line, { ...(country && { defaultCountry: country }), extended: true })) {
      const written = line.slice(match.startsAt, match.endsAt).trim();
      // Possible numbers count when written internationally or labelled (a range newer than the bundled
      // metadata); bare digit runs must be valid numbers, so dates and reference numbers are not phones.
      if (!match.number.isValid() && !written.startsWith('+') && !PHONE_LABEL.test(line)) continue;
      if (MOBILE_LABEL.test(line) || match.number.getType() === 'MOBILE') details.mobile ??= written;
      else details.phone ??= written;
      found = true;
    }
    for (const email of line.match(EMAIL) ?? []) {
      details.email ??= email;
      found = true;
    }
    for (const url of line.match(WEBSITE) ?? []) {
      if (line.includes(`@${url}`)) continue;
      details.website ??= /^https?:/i.test(url) ? url : `https://${url}`;
      found = true;
    }
    // A first line of words alone, before any number or address, is the contact's role.
    if (index === 0 && !found && line.length <= 60 && /\p{L}/u.test(line) && !/\d/.test(line)) details.jobTitle = line;
  }
  return details;
}
