/**
 * The press room's design colours, made safe to use: only hex colours are
 * accepted, and text/link colours are darkened (or lightened) until they meet
 * WCAG AA contrast (4.5:1) against the background they sit on.
 */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export function parseHex(value: string | null | undefined): Rgb | null {
  const m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value?.trim() ?? '');
  if (!m?.[1]) return null;
  let hex = m[1];
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join('');
  return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function luminance({ r, g, b }: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => ({ r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t });
const BLACK: Rgb = { r: 0, g: 0, b: 0 };
const WHITE: Rgb = { r: 255, g: 255, b: 255 };

/** `fg` moved toward black (on light backgrounds) or white (on dark ones) until it reaches `ratio` against `bg`. */
export function ensureContrast(fg: Rgb, bg: Rgb, ratio = 4.5): Rgb {
  const target = luminance(bg) > 0.18 ? BLACK : WHITE;
  for (let t = 0; t <= 1.0001; t += 0.02) {
    const candidate = mix(fg, target, t);
    const rounded = parseHex(toHex(candidate))!;
    if (contrast(rounded, bg) >= ratio) return rounded;
  }
  return target;
}

/** Black-ish or white text, whichever reads better on `bg`. */
function readableOn(bg: Rgb): Rgb {
  return contrast(WHITE, bg) >= contrast({ r: 17, g: 24, b: 39 }, bg) ? WHITE : { r: 17, g: 24, b: 39 };
}

export interface Theme {
  background: string;
  text: string;
  muted: string;
  link: string;
  /** Button/accent fill and the text on it. */
  accent: string;
  onAccent: string;
  header: string;
  onHeader: string;
  surface: string;
  border: string;
}

/** The API's `design` colours (all optional; older answers send nulls or nothing). */
export interface DesignColors {
  link_color?: string | null;
  background_color?: string | null;
  header_color?: string | null;
}

/** The site's own colours (the `theme.colors` option of the pressroom() integration). */
export interface ColorOptions {
  link?: string | undefined;
  header?: string | undefined;
  background?: string | undefined;
}

/**
 * The design a site is drawn in, colour by colour: the site's option, else the API's design (a
 * value that is not a hex colour counts as none), else nothing, which themeFrom fills with the
 * built-in default.
 */
export function chosenDesign(options: ColorOptions | undefined, design: DesignColors | null | undefined): DesignColors {
  const pick = (option: string | undefined, api: string | null | undefined) => (parseHex(option) ? option : parseHex(api) ? api : null);
  return {
    link_color: pick(options?.link, design?.link_color),
    background_color: pick(options?.background, design?.background_color),
    header_color: pick(options?.header, design?.header_color),
  };
}

/** One line when the link colour had to change to be readable on the background, else null. */
export function contrastNote(design: DesignColors, theme: Theme): string | null {
  const asked = parseHex(design.link_color);
  if (!asked || toHex(asked) === theme.link) return null;
  const ratio = contrast(asked, parseHex(theme.background)!).toFixed(1);
  return `theme: the link colour ${toHex(asked)} is too faint on the background ${theme.background} (contrast ${ratio}:1); links use ${theme.link} instead (WCAG AA 4.5:1)`;
}

/** CSS colours for the site from the API's `design` (all optional). */
export function themeFrom(design: DesignColors | null): Theme {
  const bg = parseHex(design?.background_color) ?? WHITE;
  const dark = luminance(bg) <= 0.18;
  const text = dark ? { r: 243, g: 244, b: 246 } : { r: 17, g: 24, b: 39 };
  const brand = parseHex(design?.link_color) ?? { r: 11, g: 92, b: 173 };
  const link = ensureContrast(brand, bg);
  const header = parseHex(design?.header_color) ?? (dark ? mix(bg, WHITE, 0.08) : ensureContrast(brand, WHITE, 7));
  const accent = ensureContrast(brand, WHITE);
  return {
    background: toHex(bg),
    text: toHex(text),
    muted: toHex(ensureContrast(mix(text, bg, 0.35), bg)),
    link: toHex(link),
    accent: toHex(accent),
    onAccent: toHex(readableOn(accent)),
    header: toHex(header),
    onHeader: toHex(readableOn(header)),
    surface: toHex(mix(bg, dark ? WHITE : { r: 241, g: 244, b: 248 }, dark ? 0.06 : 0.7)),
    border: toHex(mix(bg, text, 0.14)),
  };
}

/** The `:root { … }` rule for a theme; every value is a normalised hex colour. */
export function themeCss(theme: Theme): string {
  const vars = Object.entries(theme).map(([name, value]) => `--c-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${value}`);
  return `:root{${vars.join(';')}}`;
}
