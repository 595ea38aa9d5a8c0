/** The site's base path (PRESSROOM_SITE_URL's path): how a site path is written under it and read back. */
import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../../src/lib/crawlers.ts';
import { BASE_PATH, homeHref, releasesHref, routePath, sitePath } from '../../../src/lib/paths.ts';

describe('site paths under a base path', () => {
  it("are the plain paths at the root of the host (the unit tests run with Vite's base `/`)", () => {
    expect(BASE_PATH).toBe('/');
    expect([homeHref, releasesHref(2), sitePath('/_media/a.webp')]).toEqual(['/', '/releases/2/', '/_media/a.webp']);
  });

  it('carry the base in front, and lose it again for the file they name', () => {
    expect(sitePath('/', '/press/')).toBe('/press/');
    expect(sitePath('/releases/', '/press/')).toBe('/press/releases/');
    expect(sitePath('/events/calendar.ics', '/news/press/')).toBe('/news/press/events/calendar.ics');
    expect(routePath('/press/releases/', '/press/')).toBe('/releases/');
    expect(routePath('/press/', '/press/')).toBe('/');
    expect(routePath('/press', '/press/')).toBe('/');
    for (const path of ['/', '/releases/', '/100314-slug/', '/feeds/nl/archive/3/atom.xml'])
      expect(routePath(sitePath(path, '/press/'), '/press/')).toBe(path);
  });

  it('give robots.txt rules for the base, not the whole host', () => {
    const sitemaps = ['https://example.com/press/sitemap-index.xml'];
    expect(robotsTxt({ noindex: false, nofollow: false, sitemaps, base: '/press/' })).toBe(
      'User-agent: *\nAllow: /press/\n\nSitemap: https://example.com/press/sitemap-index.xml\n',
    );
    expect(robotsTxt({ noindex: true, nofollow: false, sitemaps, base: '/press/' })).toMatch(/^Disallow: \/press\/$/m);
    expect(robotsTxt({ noindex: false, nofollow: false, sitemaps })).toMatch(/^Allow: \/$/m);
  });
});
