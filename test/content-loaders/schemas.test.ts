/** Upstream values that become paths never escape the site. */
import { describe, expect, it } from 'vitest';
import { permalink, slug } from '../../content-loaders/schemas/primitives.ts';

describe('paths from the API', () => {
  it('accepts site-relative permalinks and refuses ones that could leave dist/', () => {
    for (const ok of ['/123-abc', '/pages/about-us', '/clippings/5-x', '/media_kits/1-a%20b'])
      expect(permalink.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['123', '//evil.example/x', '/../etc/passwd', '/a/../../b', '/a\\b', '/a\u0000', '/a?x', '/./x']) {
      expect(permalink.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('accepts slugs as single path segments only', () => {
    for (const ok of ['awards', 'nieuws-2026', 'über']) expect(slug.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['a/b', '..', '.', 'a\\b', '']) expect(slug.safeParse(bad).success, bad).toBe(false);
  });
});
