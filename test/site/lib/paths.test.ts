/** Paths of the site (src/lib/paths.ts): permalinks that cannot leave dist/, where an unusable one lands, redirect pages. */
import { describe, expect, it } from 'vitest';
import { isLanguageCode, isLegacyPath, landingPath, permalinkSegments, redirectPages, tagSegment } from '../../../src/lib/paths.ts';

describe('paths', () => {
  it('accepts API permalinks and refuses anything that could leave dist/ or shadow the site', () => {
    expect(permalinkSegments('/100314-northwind-raises-eur-118-million')).toEqual(['100314-northwind-raises-eur-118-million']);
    expect(permalinkSegments('/pages/about-us', { allowFirst: ['pages'] })).toEqual(['pages', 'about-us']);
    for (const bad of [
      '/../etc/passwd',
      '/..',
      '/a/../../b',
      '/%2e%2e/x',
      '/a b',
      'relative',
      '/releases',
      '/tags/x',
      '/_astro/x.js',
      '/nl',
      '/.hidden',
      '//evil.example/x',
      '/a\\b',
      '/caf\u00e9',
    ]) {
      expect(permalinkSegments(bad), bad).toBeNull();
    }
    expect(tagSegment({ id: 7, slug: 'electric-bikes' })).toBe('electric-bikes');
    expect(tagSegment({ id: 7, slug: '../x' })).toBe('tag-7');
    expect(isLanguageCode('nl')).toBe(true);
    expect(isLanguageCode('../')).toBe(false);
  });
});

describe('where an unusable permalink lands', () => {
  it('resolves dot segments as a browser does, and gives nothing for links that leave the site', () => {
    expect(landingPath('/../../news/123-x')).toBe('/news/123-x');
    expect(landingPath('/a/./b/../c')).toBe('/a/c');
    expect(landingPath('/123-x?utm=1')).toBe('/123-x');
    expect(landingPath('//evil.example/x')).toBeNull();
    expect(landingPath('')).toBeNull();
    expect(landingPath('news/x')).toBeNull();
  });

  it('counts a registered redirect page as a redirect (kept out of the sitemap)', () => {
    expect(isLegacyPath('/news/123-x/')).toBe(false);
    redirectPages().add('/news/123-x/');
    expect(isLegacyPath('/news/123-x/')).toBe(true);
    expect(isLegacyPath('/news/123-x')).toBe(true);
    redirectPages().delete('/news/123-x/');
  });
});
