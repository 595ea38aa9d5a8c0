/**
 * The CSS every page's head carries for the site's brand: the theme's colours
 * and the font stacks as custom properties, and `@font-face` rules for the
 * local font files (the `theme.fonts` option). The site's stylesheet declares
 * its defaults at zero specificity (`:where(:root)`), so these win wherever
 * the stylesheet is placed; a team's `theme.customCss` comes after both.
 * Every value is checked before it gets here: hex colours (color.ts), font
 * stacks and family names (src/integrations/pressroom-options.ts).
 */
import { themeCss, type Theme } from './color.ts';

export interface BrandFonts {
  body?: string | undefined;
  headings?: string | undefined;
}

export interface BrandFontFace {
  family: string;
  url: string;
  format: string;
  weight: string | null;
  style: string | null;
}

/** `:root{--c-…;--font-sans:…}`: the colours, and the fonts the site was given. */
export function brandCss(theme: Theme, fonts: BrandFonts = {}): string {
  const extra = [fonts.body && `--font-sans:${fonts.body}`, fonts.headings && `--font-heading:${fonts.headings}`].filter(Boolean);
  const colors = themeCss(theme);
  return extra.length > 0 ? `${colors.slice(0, -1)};${extra.join(';')}}` : colors;
}

/** One `@font-face` per local font file; `font-display: swap` shows the text at once in a fallback font. */
export function fontFaceCss(faces: readonly BrandFontFace[]): string {
  return faces
    .map((face) =>
      [
        `@font-face{font-family:${JSON.stringify(face.family)}`,
        `src:url(${JSON.stringify(face.url)}) format(${JSON.stringify(face.format)})`,
        face.weight && `font-weight:${face.weight}`,
        `font-style:${face.style ?? 'normal'}`,
        'font-display:swap}',
      ]
        .filter(Boolean)
        .join(';'),
    )
    .join('');
}
