/**
 * The pressroom() options (docs/branding.md): the strict schema's one-line errors naming the
 * option, files resolved against the project, the colour precedence option → API design →
 * built-in default, the CSS written for colours and fonts, and extra links labelled per language.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PressroomOptionsError, checkPressroomOptions, resolvePressroomOptions } from '../../../src/integrations/pressroom-options.ts';
import { chosenDesign, contrastNote, themeFrom } from '../../../src/lib/color.ts';
import { brandCss, fontFaceCss } from '../../../src/lib/brand-css.ts';
import { extraNav, labelFor } from '../../../src/lib/site-nav.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

function refusal(input: unknown): PressroomOptionsError {
  try {
    checkPressroomOptions(input);
  } catch (error) {
    if (error instanceof PressroomOptionsError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(input)}`);
}

describe('pressroom() options: a strict schema, one line naming the option', () => {
  it('names a wrong value, what is expected and what was given', () => {
    const wrong = refusal({ theme: { colors: { link: 'blue' } } });
    expect(wrong.option).toBe('theme.colors.link');
    expect(wrong.message).toBe('pressroom() option theme.colors.link must be a hex colour such as "#0b5cad", got "blue"');
    expect(refusal({ nav: [{ label: 'Careers', href: 'javascript:alert(1)' }] }).message).toBe(
      'pressroom() option nav[0].href must be an https:// or http:// URL, a mailto: address or a path of this site starting with "/", got "javascript:alert(1)"',
    );
    expect(refusal({ theme: { fonts: { body: 'Inter; } body { color: red' } } }).option).toBe('theme.fonts.body');
    expect(refusal({ theme: { fonts: { files: [{ family: 'Inter', src: 'inter.woff2', weight: 'bold' }] } } }).message).toBe(
      'pressroom() option theme.fonts.files[0].weight must be a font weight such as 400, or a range such as "100 900", got "bold"',
    );
    expect(refusal({ theme: { logo: 'logo.svg' } }).option).toBe('theme.logo');
    expect(refusal({ components: { Header: './Header.tsx' } }).option).toBe('components.Header');
    expect(refusal({ footer: [{ label: { English: 'Privacy' }, href: '/privacy/' }] }).option).toBe('footer[0].label');
    expect(refusal('dark').message).toBe('pressroom() takes an object of options, got "dark"');
  });

  it('refuses an unknown option, naming the ones there are (a typo must not be ignored)', () => {
    expect(refusal({ theme: { colour: {} } }).message).toBe(
      'pressroom() option theme.colour is not an option (options here: logo, colors, customCss, fonts)',
    );
    expect(refusal({ components: { Sidebar: './Sidebar.astro' } }).message).toBe(
      'pressroom() option components.Sidebar is not an option (options here: Header, Footer, ReleaseCard)',
    );
    expect(refusal({ nav: [{ label: 'Jobs', href: '/jobs/', target: '_blank' }] }).option).toBe('nav[0].target');
    expect(refusal({ brand: {} }).option).toBe('brand');
    for (const message of [refusal({ theme: { colour: {} } }).message, refusal({ nav: 3 }).message])
      expect(message.split('\n')).toHaveLength(1);
  });

  it('resolves files against the project and refuses one that is not there', () => {
    const resolved = resolvePressroomOptions(
      checkPressroomOptions({
        theme: { logo: 'test/fixtures/brand/logo.png', customCss: ['./test/fixtures/brand/brand.css'], colors: { link: '#c2185b' } },
        components: { ReleaseCard: 'test/fixtures/brand/ReleaseCard.astro' },
        nav: [{ label: { en: 'Careers', nl: 'Vacatures' }, href: 'https://example.com/careers' }],
      }),
      root,
    );
    expect(resolved.theme.logo).toBe(path.join(root, 'test/fixtures/brand/logo.png'));
    expect(resolved.theme.customCss).toEqual([path.join(root, 'test/fixtures/brand/brand.css')]);
    expect(resolved.components).toEqual({ ReleaseCard: path.join(root, 'test/fixtures/brand/ReleaseCard.astro') });
    expect(resolved.nav).toHaveLength(1);
    expect(resolved.footer).toEqual([]);
    expect(() => resolvePressroomOptions(checkPressroomOptions({ theme: { logo: 'brand/missing.png' } }), root)).toThrow(
      `pressroom() option theme.logo: no file at ${path.join(root, 'brand/missing.png')} (paths are relative to the project root)`,
    );
  });
});

describe('colour precedence: option → API design → built-in default, colour by colour', () => {
  const design = { link_color: '#2e7d32', background_color: '#fffaf0', header_color: '#4a148c' };

  it('takes the option over the design, the design over the default', () => {
    expect(chosenDesign({ link: '#c2185b' }, design)).toEqual({ ...design, link_color: '#c2185b' });
    expect(chosenDesign(undefined, design)).toEqual(design);
    expect(chosenDesign({ header: '#000000' }, { link_color: null })).toEqual({
      link_color: null,
      background_color: null,
      header_color: '#000000',
    });
    // Nothing anywhere: the built-in default colours.
    const fallback = themeFrom(chosenDesign(undefined, null));
    expect(fallback).toEqual(themeFrom(null));
    expect([fallback.link, fallback.background]).toEqual(['#0b5cad', '#ffffff']);
    // A design value that is not a hex colour counts as none.
    expect(chosenDesign(undefined, { link_color: 'red' }).link_color).toBeNull();
  });

  it('still checks contrast, and says once when a colour had to change', () => {
    const asked = chosenDesign({ link: '#ffd54f' }, design);
    const theme = themeFrom(asked);
    expect(theme.link).not.toBe('#ffd54f');
    expect(contrastNote(asked, theme)).toMatch(
      /^theme: the link colour #ffd54f is too faint on the background #fffaf0 \(contrast 1\.\d:1\); links use #[0-9a-f]{6} instead/,
    );
    expect(contrastNote(design, themeFrom(design))).toBeNull();
  });
});

describe('the brand CSS in every head', () => {
  it('writes the colours and the font stacks as custom properties', () => {
    const theme = themeFrom(null);
    expect(brandCss(theme)).toMatch(/^:root\{--c-background:#ffffff;.*--c-border:#[0-9a-f]{6}\}$/);
    expect(brandCss(theme, { body: "'Brand Sans', sans-serif", headings: 'Georgia, serif' })).toMatch(
      /;--font-sans:'Brand Sans', sans-serif;--font-heading:Georgia, serif\}$/,
    );
  });
  it('writes one @font-face per local file, shown at once in a fallback', () => {
    expect(fontFaceCss([{ family: 'Brand Sans', url: '/_astro/brand.abc.woff2', format: 'woff2', weight: '400', style: null }])).toBe(
      '@font-face{font-family:"Brand Sans";src:url("/_astro/brand.abc.woff2") format("woff2");font-weight:400;font-style:normal;font-display:swap}',
    );
  });
});

describe('extra links', () => {
  const label = { en: 'Careers', nl: 'Vacatures', de: 'Karriere' };
  it("label in the page's language, else its base language, the press room's, English, the first", () => {
    expect(labelFor(label, 'nl', 'en')).toEqual({ text: 'Vacatures', lang: undefined });
    expect(labelFor(label, 'nl-BE', 'en')).toEqual({ text: 'Vacatures', lang: undefined });
    expect(labelFor(label, 'fr', 'de')).toEqual({ text: 'Karriere', lang: 'de' });
    expect(labelFor({ nl: 'Vacatures', en: 'Careers' }, 'fr', 'es')).toEqual({ text: 'Careers', lang: 'en' });
    expect(labelFor({ nl: 'Vacatures' }, 'fr', 'es')).toEqual({ text: 'Vacatures', lang: 'nl' });
    expect(labelFor('Jobs', 'nl', 'en')).toEqual({ text: 'Jobs', lang: undefined });
  });
  it('keeps their order; a path of this site is written under its base path, a URL as given', () => {
    const items = extraNav(
      [
        { label, href: 'https://example.com/careers' },
        { label: 'Privacy', href: '/privacy/' },
      ],
      'de',
      'en',
    );
    expect(items).toEqual([
      { href: 'https://example.com/careers', label: 'Karriere', lang: undefined, external: true },
      { href: expect.stringMatching(/\/privacy\/$/), label: 'Privacy', lang: undefined, external: false },
    ]);
  });
});
