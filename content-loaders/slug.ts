/**
 * The one slug rule of the project: an ASCII slug of a name or title for
 * paths and file names. "Juda de Koning" → "juda-de-koning", "Søren Ødegård"
 * → "soren-odegard", "Straße" → "strasse", "Иван" → "ivan", "王小明" →
 * "wang-xiao-ming" (transliterated by the `transliteration` package; ASCII
 * text passes through it unchanged, so ASCII names keep their slugs), and
 * currency signs as their codes ("€118" → "eur-118", as the hosted newsroom's
 * own slugs have them). May be empty (nothing letter-like at all).
 */
import { transliterate } from 'transliteration';

const CURRENCIES: ReadonlyArray<[RegExp, string]> = [
  [/€/g, ' eur '],
  [/£/g, ' gbp '],
  [/¥/g, ' jpy '],
];

export function slugify(text: string, max = 60): string {
  let named = text.normalize('NFC');
  for (const [sign, code] of CURRENCIES) named = named.replace(sign, code);
  return transliterate(named)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
}
