/**
 * The pressroom() options as modules the pages import (a Vite plugin, the way
 * Starlight hands its configuration to its components):
 *
 * - `virtual:pressroom/config`: the options the pages read (colours, fonts,
 *   extra links, the logo as a `file:` URL), and `fontFaces`: the local font
 *   files, each imported with `?url` so the build publishes it under `_astro/`
 *   and the dev server serves it (no third-party font request, ever).
 * - `virtual:pressroom/user-css`: the URLs of the `theme.customCss` files
 *   (processed and published by Vite like the site's own CSS), linked by the
 *   layout after every stylesheet of the site's (Astro writes its own at the end
 *   of <head>, in an order that differs per page), so a team's rules come last.
 * - `virtual:pressroom/components/<Name>`: the team's file for an overridable
 *   component (`components: { Header: './src/brand/Header.astro' }`), else the
 *   site's own `src/components/<Name>.astro`.
 *
 * Types: src/types/virtual-pressroom.d.ts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { OVERRIDABLE_COMPONENTS, type PressroomOptions } from './pressroom-options.ts';

const PREFIX = 'virtual:pressroom/';
const COMPONENTS = path.resolve(import.meta.dirname, '..', 'components');

/** What `virtual:pressroom/config` exports as its default: the options the pages read. */
export interface PageOptions {
  colors: PressroomOptions['theme']['colors'];
  fonts: { body?: string | undefined; headings?: string | undefined };
  nav: PressroomOptions['nav'];
  footer: PressroomOptions['footer'];
  /** `file:` URL of `theme.logo`, read by the image pipeline like any original. */
  logo: string | null;
}

const FONT_FORMATS: Record<string, string> = { woff2: 'woff2', woff: 'woff', ttf: 'truetype', otf: 'opentype' };

/** A module path as a string literal of JavaScript. */
const literal = (value: string) => JSON.stringify(value.split(path.sep).join('/'));

export function pageOptionsOf(options: PressroomOptions): PageOptions {
  return {
    colors: options.theme.colors,
    fonts: { body: options.theme.fonts.body, headings: options.theme.fonts.headings },
    nav: options.nav,
    footer: options.footer,
    logo: options.theme.logo ? pathToFileURL(options.theme.logo).href : null,
  };
}

function configModule(options: PressroomOptions): string {
  const faces = options.theme.fonts.files.map((face, i) => {
    const ext = path.extname(face.file).slice(1).toLowerCase();
    return {
      import: `import font${i} from ${literal(`${face.file}?url`)};`,
      entry: `{ family: ${JSON.stringify(face.family)}, url: font${i}, format: ${JSON.stringify(FONT_FORMATS[ext] ?? ext)}, weight: ${JSON.stringify(face.weight ?? null)}, style: ${JSON.stringify(face.style ?? null)} }`,
    };
  });
  return [
    ...faces.map((f) => f.import),
    `export const fontFaces = [${faces.map((f) => f.entry).join(', ')}];`,
    `export default ${JSON.stringify(pageOptionsOf(options))};`,
  ].join('\n');
}

function modules(options: PressroomOptions): Map<string, string> {
  const all = new Map<string, string>([
    ['config', configModule(options)],
    [
      'user-css',
      [
        ...options.theme.customCss.map((file, i) => `import css${i} from ${literal(`${file}?url`)};`),
        `export default [${options.theme.customCss.map((_, i) => `css${i}`).join(', ')}];`,
      ].join('\n'),
    ],
  ]);
  for (const name of OVERRIDABLE_COMPONENTS) {
    const file = options.components[name] ?? path.join(COMPONENTS, `${name}.astro`);
    all.set(`components/${name}`, `export { default } from ${literal(file)};`);
  }
  return all;
}

export function pressroomModules(options: PressroomOptions): Plugin {
  const sources = modules(options);
  return {
    name: 'pressroom-static:options',
    resolveId(id) {
      return id.startsWith(PREFIX) && sources.has(id.slice(PREFIX.length)) ? `\0${id}` : undefined;
    },
    load(id) {
      return id.startsWith(`\0${PREFIX}`) ? sources.get(id.slice(PREFIX.length + 1)) : undefined;
    },
  };
}
