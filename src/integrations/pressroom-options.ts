/**
 * The options of the `pressroom({ … })` integration in astro.config.mjs: how a
 * team makes the press room its own without editing the product's files
 * (docs/branding.md). Checked by a strict schema when astro.config.mjs is read;
 * a wrong option stops the build with one line naming it:
 *
 *   pressroom() option theme.colors.link must be a hex colour such as "#0b5cad", got "blue"
 *
 * Files (logo, CSS, fonts, components) are resolved against the project root
 * and must exist. The result is one plain object handed to the pages through
 * the `virtual:pressroom/config` module (virtual-modules.ts).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'astro/zod';

/** The parts a team may replace by a file of its own (`components: { Header: './src/brand/Header.astro' }`). */
export const OVERRIDABLE_COMPONENTS = ['Header', 'Footer', 'ReleaseCard'] as const;
export type OverridableComponent = (typeof OVERRIDABLE_COMPONENTS)[number];

export class PressroomOptionsError extends Error {
  override name = 'PressroomOptionsError';
  /** The option's path, e.g. `theme.colors.link`. */
  readonly option: string;
  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const LANGUAGE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
/** Font family names and generic families, quoted or not, comma-separated: nothing that could end the CSS rule it is written into. */
const FONT_STACK = /^\s*(?:'[\w .-]+'|"[\w .-]+"|[\w .-]+)(?:\s*,\s*(?:'[\w .-]+'|"[\w .-]+"|[\w .-]+))*\s*$/;
const FONT_FAMILY = /^[\w .-]+$/;
const LOGO_FILE = /\.(?:png|jpe?g|webp|avif|gif)$/i;
const FONT_WEIGHT = 'a font weight such as 400, or a range such as "100 900"';
const FONT_FILE = /\.(?:woff2|woff|ttf|otf)$/i;

const text = (what: string) => z.string({ error: what }).trim().min(1, { error: what });
const hex = z.string({ error: 'a hex colour such as "#0b5cad"' }).regex(HEX, { error: 'a hex colour such as "#0b5cad"' });
const file = (what: string, pattern: RegExp) => z.string({ error: what }).regex(pattern, { error: what });

const label = z.union(
  [
    text('a label'),
    z
      .record(z.string().regex(LANGUAGE, { error: 'a language code such as "en" or "pt-BR" for each label' }), text('a label'))
      .refine((labels) => Object.keys(labels).length > 0, { error: 'at least one language' }),
  ],
  { error: 'a label, or one per language such as { en: "Careers", nl: "Vacatures" }' },
);

const href = z
  .string({ error: 'an https:// or http:// URL, a mailto: address or a path of this site starting with "/"' })
  .refine((value) => /^\/(?!\/)/.test(value) || /^mailto:[^\s]+$/i.test(value) || isHttpUrl(value), {
    error: 'an https:// or http:// URL, a mailto: address or a path of this site starting with "/"',
  });

const link = z.strictObject({ label, href });

const fontFile = z.strictObject({
  family: z.string({ error: 'a font family name' }).regex(FONT_FAMILY, { error: 'a font family name (letters, digits, spaces, - . _)' }),
  src: file('a font file (.woff2, .woff, .ttf or .otf)', FONT_FILE),
  weight: z
    .union([z.number(), z.string()], { error: FONT_WEIGHT })
    .refine((v) => (typeof v === 'number' ? Number.isInteger(v) && v >= 1 && v <= 1000 : /^\d{1,4}(?: \d{1,4})?$/.test(v)), {
      error: FONT_WEIGHT,
    })
    .transform(String)
    .optional(),
  style: z.enum(['normal', 'italic'], { error: '"normal" or "italic"' }).optional(),
});

const fontStack = z
  .string({ error: 'a font stack such as "\'Inter\', system-ui, sans-serif"' })
  .regex(FONT_STACK, { error: 'a font stack such as "\'Inter\', system-ui, sans-serif"' });

const schema = z.strictObject({
  theme: z
    .strictObject({
      logo: file('an image file (.png, .jpg, .webp, .avif or .gif)', LOGO_FILE).optional(),
      colors: z.strictObject({ link: hex.optional(), header: hex.optional(), background: hex.optional() }).optional(),
      customCss: z.array(file('a .css file', /\.css$/i), { error: 'a list of .css files' }).optional(),
      fonts: z
        .strictObject({
          body: fontStack.optional(),
          headings: fontStack.optional(),
          files: z.array(fontFile, { error: 'a list of { family, src, weight?, style? }' }).optional(),
        })
        .optional(),
    })
    .optional(),
  nav: z.array(link, { error: 'a list of { label, href }' }).optional(),
  footer: z.array(link, { error: 'a list of { label, href }' }).optional(),
  components: z
    .strictObject(
      Object.fromEntries(OVERRIDABLE_COMPONENTS.map((name) => [name, file('an .astro file', /\.astro$/i).optional()])) as Record<
        OverridableComponent,
        z.ZodOptional<z.ZodString>
      >,
    )
    .optional(),
});

/** The options as written in astro.config.mjs. */
export type PressroomOptionsInput = z.input<typeof schema>;
/** The options as the schema checked them (before any file is looked for). */
export type CheckedPressroomOptions = z.output<typeof schema>;

/** A label: one for every language, or one per language. */
export type LinkLabel = string | Record<string, string>;
export interface ExtraLink {
  label: LinkLabel;
  href: string;
}
export interface FontFace {
  family: string;
  /** Absolute path of the font file. */
  file: string;
  weight?: string | undefined;
  style?: 'normal' | 'italic' | undefined;
}

/** The options checked, every file an absolute path that exists. */
export interface PressroomOptions {
  theme: {
    /** Absolute path of the logo replacing the API's. */
    logo: string | undefined;
    colors: { link?: string | undefined; header?: string | undefined; background?: string | undefined };
    /** Absolute paths, loaded after the site's own stylesheet in this order. */
    customCss: string[];
    fonts: { body?: string | undefined; headings?: string | undefined; files: FontFace[] };
  };
  nav: ExtraLink[];
  footer: ExtraLink[];
  /** Absolute paths of the replacements, by component name. */
  components: Partial<Record<OverridableComponent, string>>;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** How a wrong value appears in a message: quoted, one line, shortened. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

function valueAt(input: unknown, at: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const key of at) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** The options at each level, for the message about an unknown one. */
const KNOWN_KEYS: Record<string, string[]> = {
  '': ['theme', 'nav', 'footer', 'components'],
  theme: ['logo', 'colors', 'customCss', 'fonts'],
  'theme.colors': ['link', 'header', 'background'],
  'theme.fonts': ['body', 'headings', 'files'],
  'theme.fonts.files[]': ['family', 'src', 'weight', 'style'],
  'nav[]': ['label', 'href'],
  'footer[]': ['label', 'href'],
  components: [...OVERRIDABLE_COMPONENTS],
};

const optionName = (at: ReadonlyArray<PropertyKey>) =>
  at.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');

/** The input checked against the schema (no file system): throws PressroomOptionsError for the first wrong option. */
export function checkPressroomOptions(input: unknown = {}): CheckedPressroomOptions {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const where = optionName([...issue.path, issue.keys[0]!]);
    const known = KNOWN_KEYS[optionName(issue.path).replace(/\[\d+\]/g, '[]')] ?? [];
    throw new PressroomOptionsError(where, `pressroom() option ${where} is not an option (options here: ${known.join(', ')})`);
  }
  const where = optionName(issue.path);
  if (!where) throw new PressroomOptionsError('options', `pressroom() takes an object of options, got ${shown(input)}`);
  throw new PressroomOptionsError(where, `pressroom() option ${where} must be ${issue.message}, got ${shown(valueAt(input, issue.path))}`);
}

/** An option's file, resolved against the project root; it must be a file that exists. */
function existingFile(root: string, option: string, given: string): string {
  const resolved = path.resolve(root, given);
  if (!existsSync(resolved) || !statSync(resolved).isFile())
    throw new PressroomOptionsError(
      option,
      `pressroom() option ${option}: no file at ${resolved} (paths are relative to the project root)`,
    );
  return resolved;
}

/** The checked options with every file resolved against `root` (the project's folder). */
export function resolvePressroomOptions(checked: CheckedPressroomOptions, root: string): PressroomOptions {
  const theme = checked.theme ?? {};
  const fonts = theme.fonts ?? {};
  return {
    theme: {
      logo: theme.logo === undefined ? undefined : existingFile(root, 'theme.logo', theme.logo),
      colors: { ...theme.colors },
      customCss: (theme.customCss ?? []).map((css, i) => existingFile(root, `theme.customCss[${i}]`, css)),
      fonts: {
        body: fonts.body?.trim(),
        headings: fonts.headings?.trim(),
        files: (fonts.files ?? []).map((face, i) => ({
          family: face.family.trim(),
          file: existingFile(root, `theme.fonts.files[${i}].src`, face.src),
          weight: face.weight,
          style: face.style,
        })),
      },
    },
    nav: checked.nav ?? [],
    footer: checked.footer ?? [],
    components: Object.fromEntries(
      Object.entries(checked.components ?? {})
        .filter((entry): entry is [string, string] => entry[1] !== undefined)
        .map(([name, file]) => [name, existingFile(root, `components.${name}`, file)]),
    ),
  };
}
