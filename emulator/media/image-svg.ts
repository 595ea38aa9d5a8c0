import { Rng, hash32 } from '../model/random.ts';

/** Everything that decides how an original picture looks. */
export interface PictureSpec {
  seed: number;
  label: string;
  transparent: boolean;
  width: number;
  height: number;
  /** `logo`: a wordmark (see logoSvg); unset: a picture. */
  design?: 'logo' | undefined;
}

const FONT_FAMILY = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";
/** Average advance of a bold sans-serif glyph in em, used to wrap the label. */
const BOLD_CHAR_EM = 0.64;
const MAX_LINES = 3;

/**
 * Builds the SVG of an original picture: a soft two-colour gradient running
 * left to right (so the edges differ from the centre), translucent circles and
 * rounded rectangles, and the label centred in white with a soft shadow.
 * Transparent pictures keep an empty background and draw opaque shapes only.
 * Pure string work; sharp rasterises it.
 */
export function pictureSvg(spec: PictureSpec): string {
  if (spec.design === 'logo') return logoSvg(spec);
  const { width: w, height: h } = spec;
  const s = Math.min(w, h);
  const rnd = new Rng(hash32(spec.seed, 0x1a9e));
  const hueA = rnd.range(0, 360);
  const hueB = (hueA + rnd.range(45, 120)) % 360;
  const from = hsl(hueA, rnd.range(55, 70), rnd.range(34, 44));
  const to = hsl(hueB, rnd.range(60, 75), rnd.range(58, 68));
  const tilt = rnd.range(0, 0.35);

  const defs = [
    `<linearGradient id="bg" x1="0" y1="${f(tilt)}" x2="1" y2="${f(1 - tilt)}">` +
      `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    `<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75">` +
      `<stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.28"/></radialGradient>`,
  ];
  const body: string[] = [];

  if (spec.transparent) {
    body.push(...badgeShapes(rnd, w, h, s, from, to));
  } else {
    body.push(`<rect width="${w}" height="${h}" fill="url(#bg)"/>`);
    body.push(...decorations(rnd, w, h, s));
    body.push(`<rect width="${w}" height="${h}" fill="url(#vignette)"/>`);
  }
  body.push(labelText(spec.label, w, h, s, spec.transparent));

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs>${defs.join('')}</defs>${body.join('')}</svg>`
  );
}

/** Translucent circles and tilted rounded rectangles over the gradient. */
function decorations(rnd: Rng, w: number, h: number, s: number): string[] {
  const out: string[] = [];
  const circles = rnd.int(4, 7);
  for (let i = 0; i < circles; i++) {
    const fill = rnd.float() < 0.7 ? '#fff' : '#000';
    const opacity = fill === '#fff' ? rnd.range(0.08, 0.2) : rnd.range(0.05, 0.1);
    out.push(
      `<circle cx="${f(rnd.range(0, w))}" cy="${f(rnd.range(0, h))}" r="${f(rnd.range(0.08, 0.42) * s)}" ` +
        `fill="${fill}" fill-opacity="${f(opacity)}"/>`,
    );
  }
  const rects = rnd.int(2, 3);
  for (let i = 0; i < rects; i++) {
    const rw = rnd.range(0.2, 0.55) * s;
    const rh = rnd.range(0.12, 0.35) * s;
    const cx = rnd.range(0.1, 0.9) * w;
    const cy = rnd.range(0.1, 0.9) * h;
    out.push(
      `<rect x="${f(cx - rw / 2)}" y="${f(cy - rh / 2)}" width="${f(rw)}" height="${f(rh)}" rx="${f(rh * 0.22)}" ` +
        `transform="rotate(${f(rnd.range(-35, 35))} ${f(cx)} ${f(cy)})" fill="#fff" fill-opacity="${f(rnd.range(0.06, 0.14))}" ` +
        `stroke="#fff" stroke-opacity="0.22" stroke-width="${f(s * 0.004)}"/>`,
    );
  }
  return out;
}

/** A logo-like badge: an opaque rounded card with opaque accents, nothing behind it. */
function badgeShapes(rnd: Rng, w: number, h: number, s: number, from: string, to: string): string[] {
  const inset = 0.12;
  const x = w * inset;
  const y = h * inset;
  const cw = w * (1 - 2 * inset);
  const ch = h * (1 - 2 * inset);
  const out = [`<rect x="${f(x)}" y="${f(y)}" width="${f(cw)}" height="${f(ch)}" rx="${f(s * 0.08)}" fill="url(#bg)"/>`];
  const accents = rnd.int(2, 3);
  for (let i = 0; i < accents; i++) {
    const onLeft = i % 2 === 0;
    out.push(
      `<circle cx="${f(onLeft ? x + rnd.range(0, 0.15) * cw : x + cw - rnd.range(0, 0.15) * cw)}" ` +
        `cy="${f(y + rnd.range(0.1, 0.9) * ch)}" r="${f(rnd.range(0.06, 0.1) * s)}" fill="${onLeft ? to : from}"/>`,
    );
  }
  return out;
}

function labelText(label: string, w: number, h: number, s: number, transparent: boolean): string {
  const maxWidth = w * (transparent ? 0.62 : 0.84);
  const { lines, fontSize } = fitLabel(cleanLabel(label), maxWidth, s);
  if (lines.length === 0) return '';
  const lineHeight = fontSize * 1.22;
  const firstBaseline = h / 2 - ((lines.length - 1) * lineHeight) / 2 + fontSize * 0.36;
  const shadow = Math.max(1, fontSize * 0.06);
  const tspans = (dx: number, dy: number) =>
    lines.map((line, i) => `<tspan x="${f(w / 2 + dx)}" y="${f(firstBaseline + i * lineHeight + dy)}">${escapeXml(line)}</tspan>`).join('');
  const attrs = `font-family="${FONT_FAMILY}" font-size="${f(fontSize)}" font-weight="bold" text-anchor="middle"`;
  return (
    `<text ${attrs} fill="#000" fill-opacity="0.28">${tspans(shadow * 0.6, shadow)}</text>` +
    `<text ${attrs} fill="#fff">${tspans(0, 0)}</text>`
  );
}

/** Wraps the label into at most three lines, shrinking the font before cutting words. */
export function fitLabel(label: string, maxWidth: number, s: number): { lines: string[]; fontSize: number } {
  const largest = s * 0.085;
  const smallest = s * 0.05;
  let fontSize = largest;
  for (; fontSize >= smallest; fontSize *= 0.9) {
    const lines = wrap(label, Math.floor(maxWidth / (fontSize * BOLD_CHAR_EM)));
    if (lines.length <= MAX_LINES) return { lines, fontSize };
  }
  fontSize = smallest;
  const perLine = Math.floor(maxWidth / (fontSize * BOLD_CHAR_EM));
  const lines = wrap(label, perLine).slice(0, MAX_LINES);
  const last = lines[MAX_LINES - 1] ?? '';
  lines[MAX_LINES - 1] = `${last.slice(0, Math.max(0, perLine - 1)).trimEnd()}…`;
  return { lines, fontSize };
}

function wrap(text: string, perLine: number): string[] {
  const width = Math.max(1, perLine);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const chars = Array.from(word);
    if (chars.length > width) {
      if (line) lines.push(line);
      for (let i = 0; i < chars.length; i += width) lines.push(chars.slice(i, i + width).join(''));
      line = lines.pop() ?? '';
      continue;
    }
    const candidate = line ? `${line} ${word}` : word;
    if (Array.from(candidate).length <= width) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** One line of printable text: control characters (invalid in XML) dropped, spaces collapsed. */
function cleanLabel(label: string): string {
  return label
    .replace(/[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** HSL (degrees, percent, percent) to `#rrggbb`, so no renderer has to parse CSS colour functions. */
export function hsl(hue: number, saturation: number, lightness: number): string {
  const sat = saturation / 100;
  const light = lightness / 100;
  const a = sat * Math.min(light, 1 - light);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const value = light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** Fixed-precision numbers keep the SVG text (and so the pixels) stable. */
function f(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * The press room's logo: a white rounded card (readable on a dark header and on paper) with a
 * round mark holding the name's initial and the name in bold navy, as large as the card allows,
 * so it still reads at the 240 px the header shows.
 */
function logoSvg(spec: PictureSpec): string {
  const { width: w, height: h } = spec;
  const name = cleanLabel(spec.label);
  const pad = h * 0.12;
  const r = (h - 2 * pad) / 2;
  const cx = pad + r + h * 0.04;
  const textX = cx + r + h * 0.14;
  const room = w - textX - pad * 1.5;
  const fontSize = Math.min(h * 0.36, room / Math.max(1, name.length * BOLD_CHAR_EM * 0.92));
  const baseline = h / 2 + fontSize * 0.36;
  const initial = escapeXml((name[0] ?? 'N').toUpperCase());
  const font = `font-family="${FONT_FAMILY}" font-weight="bold"`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<rect x="${f(h * 0.02)}" y="${f(h * 0.02)}" width="${f(w - h * 0.04)}" height="${f(h * 0.96)}" rx="${f(h * 0.16)}" fill="#ffffff"/>` +
    `<circle cx="${f(cx)}" cy="${f(h / 2)}" r="${f(r)}" fill="#0f8f7a"/>` +
    `<text x="${f(cx)}" y="${f(h / 2 + r * 0.4)}" ${font} font-size="${f(r * 1.15)}" fill="#ffffff" text-anchor="middle">${initial}</text>` +
    `<text x="${f(textX)}" y="${f(baseline)}" ${font} font-size="${f(fontSize)}" fill="#0a2540">${escapeXml(name)}</text>` +
    `</svg>`
  );
}
