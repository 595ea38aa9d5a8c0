/** ASCII slugs for permalinks: "Über Northwind: 5 Städte" → "ueber-northwind-5-staedte". */

const FOLD: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'ae',
  Ö: 'oe',
  Ü: 'ue',
  ß: 'ss',
  æ: 'ae',
  Æ: 'ae',
  ø: 'o',
  Ø: 'o',
  œ: 'oe',
  Œ: 'oe',
  '&': ' and ',
  '€': ' eur ',
  '₂': '2',
  '×': ' x ',
};

export function slugify(text: string, maxLength = 80): string {
  const slug = text
    .replace(/['’]/g, '')
    .replace(/[äöüÄÖÜßæÆøØœŒ&€₂×]/g, (c) => FOLD[c] ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= maxLength) return slug || 'item';
  const cut = slug.slice(0, maxLength);
  const dash = cut.lastIndexOf('-');
  return dash > maxLength / 2 ? cut.slice(0, dash) : cut.replace(/-+$/, '');
}
