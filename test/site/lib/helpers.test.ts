/** The small helpers pages rely on: JSON-LD escaping, colours, time zones, paths, dates, languages. */
import { describe, expect, it } from 'vitest';
import { breadcrumbList, serializeJsonLd } from '../../../src/lib/jsonld.ts';
import { contrast, ensureContrast, parseHex, themeFrom } from '../../../src/lib/color.ts';
import { ianaTimeZone } from '../../../src/lib/timezones.ts';
import { isLegacyPath, landingPath, permalinkSegments, redirectPages, tagSegment, isLanguageCode } from '../../../src/lib/paths.ts';
import { dateTimeRangeText, formatDate, formatDateTime, formatDateTimeRange, yearMonthIn } from '../../../src/lib/dates.ts';
import { languageName, pagedTitle, translator } from '../../../src/lib/i18n.ts';
import { formatFileSize, mailtoHref, telHref } from '../../../src/lib/format.ts';
import { relatedReleases } from '../../../src/lib/related-releases.ts';
import type { Release } from '../../../src/lib/data.ts';

describe('serializeJsonLd', () => {
  it('cannot break out of its script tag and still parses to the same value', () => {
    const value = { headline: '</script><script>alert(1)</script> & <!-- \u2028\u2029 -->', n: 1, list: ['a<b'] };
    const out = serializeJsonLd(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
  it('leaves out empty values', () => {
    expect(JSON.parse(serializeJsonLd({ a: null, b: undefined, c: '', d: 0, e: false }))).toEqual({ d: 0, e: false });
  });
});

describe('breadcrumbList', () => {
  const site = new URL('https://press.example.test');
  it('describes the visible trail with absolute URLs, the page itself for an item without href', () => {
    expect(
      breadcrumbList([{ name: 'Home', href: '/' }, { name: 'Topics', href: '/tags/' }, { name: 'Bikes' }], site, '/tags/bikes/'),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://press.example.test/' },
        { '@type': 'ListItem', position: 2, name: 'Topics', item: 'https://press.example.test/tags/' },
        { '@type': 'ListItem', position: 3, name: 'Bikes', item: 'https://press.example.test/tags/bikes/' },
      ],
    });
  });
  it('takes the current page as an absolute URL too, and keeps an href the last item has', () => {
    const list = breadcrumbList(
      [
        { name: 'Home', href: '/' },
        { name: 'Coverage', href: '/coverage/' },
      ],
      site,
      'https://press.example.test/coverage/2/',
    );
    expect((list.itemListElement as Array<{ item: string }>).map((x) => x.item)).toEqual([
      'https://press.example.test/',
      'https://press.example.test/coverage/',
    ]);
    const page = breadcrumbList([{ name: 'Home', href: '/' }, { name: 'About' }], site, 'https://press.example.test/pages/about/');
    expect((page.itemListElement as Array<{ item: string }>)[1]!.item).toBe('https://press.example.test/pages/about/');
  });
});

describe('theme colours', () => {
  it('keeps a link colour with enough contrast and darkens one without', () => {
    const white = parseHex('#fff')!;
    expect(themeFrom({ link_color: '#0b5cad' }).link).toBe('#0b5cad');
    const pale = themeFrom({ link_color: '#7fd3ff' });
    expect(contrast(parseHex(pale.link)!, white)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(ensureContrast(parseHex('#ffff00')!, white), white)).toBeGreaterThanOrEqual(4.5);
  });
  it('reads on dark backgrounds and light headers', () => {
    const dark = themeFrom({ background_color: '#111111', link_color: '#0000aa', header_color: '#fafafa' });
    expect(contrast(parseHex(dark.link)!, parseHex(dark.background)!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(dark.text)!, parseHex(dark.background)!)).toBeGreaterThanOrEqual(7);
    expect(contrast(parseHex(dark.onHeader)!, parseHex(dark.header)!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(dark.onAccent)!, parseHex(dark.accent)!)).toBeGreaterThanOrEqual(4.5);
  });
  it('ignores anything that is not a hex colour', () => {
    expect(parseHex('red; background:url(x)')).toBeNull();
    expect(themeFrom({ link_color: 'expression(alert(1))' }).link).toBe('#0b5cad');
  });
});

describe('time zones', () => {
  it('maps Rails zone names to IANA ones', () => {
    expect(ianaTimeZone('Amsterdam')).toBe('Europe/Amsterdam');
    expect(ianaTimeZone('Berlin')).toBe('Europe/Berlin');
    expect(ianaTimeZone('London')).toBe('Europe/London');
    expect(ianaTimeZone('Brussels')).toBe('Europe/Brussels');
    expect(ianaTimeZone('Copenhagen')).toBe('Europe/Copenhagen');
    expect(ianaTimeZone('Vienna')).toBe('Europe/Vienna');
    expect(ianaTimeZone('Zurich')).toBe('Europe/Zurich');
    expect(ianaTimeZone('Eastern Time (US & Canada)')).toBe('America/New_York');
    expect(ianaTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(ianaTimeZone('Atlantis')).toBe('UTC');
    expect(ianaTimeZone(null)).toBe('UTC');
  });
});

describe('dates', () => {
  const iso = '2026-10-31T07:55:00.000Z';
  it('formats in the page language and the press room time zone', () => {
    expect(formatDate(iso, 'en', 'Europe/Amsterdam')).toBe('31 October 2026');
    expect(formatDate(iso, 'nl', 'Europe/Amsterdam')).toBe('31 oktober 2026');
    expect(formatDate(iso, 'de', 'Europe/Amsterdam')).toBe('31. Oktober 2026');
    expect(formatDate(iso, 'en', 'America/New_York')).toBe('October 31, 2026');
    expect(formatDateTime(iso, 'en', 'Europe/Amsterdam')).toBe('31 October 2026 at 08:55 CET');
    expect(formatDateTimeRange('2026-11-25T10:55:00Z', '2026-11-25T18:55:00Z', 'en', 'Europe/Berlin')).toMatch(
      /^25 November 2026, 11:55\s*–\s*19:55 CET$/,
    );
  });
  it('cuts a range where its start and its end are written, for a <time datetime> each', () => {
    const join = (r: ReturnType<typeof dateTimeRangeText>) => `${r.before}[${r.start}]${r.between}[${r.end}]${r.after}`;
    expect(join(dateTimeRangeText('2026-11-25T10:55:00Z', '2026-11-25T18:55:00Z', 'en', 'Europe/Berlin'))).toMatch(
      /^25 November 2026, \[11:55\]\s*–\s*\[19:55\] CET$/,
    );
    expect(join(dateTimeRangeText('2026-11-01T07:00:00Z', '2026-11-01T13:00:00Z', 'de', 'Europe/Amsterdam'))).toBe(
      '1. November 2026, [08:00]–[14:00] Uhr MEZ',
    );
    expect(join(dateTimeRangeText('2026-11-25T10:55:00Z', '2026-11-27T18:55:00Z', 'en', 'Europe/Berlin'))).toMatch(
      /^\[25 November 2026 at 11:55 CET\]\s*–\s*\[27 November 2026 at 19:55 CET\]$/,
    );
    // No end, or none after the start: the whole text is the start.
    for (const end of [null, '2026-11-25T10:55:00Z', '2026-11-25T09:00:00Z']) {
      expect(dateTimeRangeText('2026-11-25T10:55:00Z', end, 'en', 'Europe/Berlin')).toEqual({
        before: '',
        start: '25 November 2026 at 11:55 CET',
        between: '',
        end: null,
        after: '',
      });
    }
    expect(formatDateTimeRange('2026-11-25T10:55:00Z', null, 'en', 'Europe/Berlin')).toBe('25 November 2026 at 11:55 CET');
  });
  it('files an instant under the month it has in the press room time zone', () => {
    expect(yearMonthIn('2025-12-31T23:30:00Z', 'Europe/Amsterdam')).toEqual({ year: 2026, month: 1 });
    expect(yearMonthIn('2025-12-31T23:30:00Z', 'UTC')).toEqual({ year: 2025, month: 12 });
  });
});

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

describe('interface language', () => {
  it('translates with an English fallback and names languages in their own language', () => {
    expect(translator('nl')('releases')).toBe('Persberichten');
    expect(translator('de-AT')('releases')).toBe('Pressemitteilungen');
    expect(translator('sv')('releases')).toBe('Press releases');
    expect(translator('en')('releasesIn', { language: 'Dutch' })).toBe('Press releases in Dutch');
    expect(languageName('nl')).toBe('Nederlands');
    expect(languageName('de', 'en')).toBe('German');
  });
  it('titles the pages of a listing after the first with their number', () => {
    const t = translator('en');
    expect(pagedTitle(t, 'Coverage', { currentPage: 1, lastPage: 3 })).toBe('Coverage');
    expect(pagedTitle(t, 'Coverage', { currentPage: 2, lastPage: 3 })).toBe('Coverage (Page 2 of 3)');
  });
  it('formats sizes and contact links', () => {
    expect(formatFileSize(11_991_208, 'en')).toBe('11.9 MB'); // truncated: never bigger than it is
    expect(formatFileSize(2_035_510, 'de')).toBe('2 MB');
    expect(telHref('+31 20 794 1139')).toBe('tel:+31207941139');
    expect(telHref('call me')).toBeNull();
    expect(mailtoHref('press@northwind.example')).toBe('mailto:press@northwind.example');
    expect(mailtoHref('javascript:alert(1)//@x.y')).toBeNull();
  });
});

describe('relatedReleases', () => {
  // A seeded press room: 400 releases, 6 tags, 3 languages, dates with ties.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const releases = Array.from({ length: 400 }, (_, i) => ({
    id: 1000 + i,
    language: ['en', 'nl', 'de'][Math.floor(random() * 3)]!,
    release_date: new Date(Date.UTC(2026, 0, 1 + Math.floor(random() * 60))).toISOString(),
    tag_ids: [1, 2, 3, 4, 5, 6].filter(() => random() < 0.35),
  })) as unknown as Release[];
  const releasesByTag = new Map<number, Release[]>();
  for (const r of releases) for (const t of r.tag_ids) releasesByTag.set(t, [...(releasesByTag.get(t) ?? []), r]);

  /** The plain definition: score every candidate, sort them all, take the first few. */
  function reference(release: Release, count: number): Release[] {
    const shared = (o: Release) => o.tag_ids.filter((t) => release.tag_ids.includes(t)).length;
    return releases
      .filter((o) => o.id !== release.id && shared(o) > 0)
      .sort(
        (a, b) =>
          Number(b.language === release.language) - Number(a.language === release.language) ||
          shared(b) - shared(a) ||
          Date.parse(b.release_date!) - Date.parse(a.release_date!) ||
          a.id - b.id,
      )
      .slice(0, count);
  }

  it('picks the same releases in the same order as scoring and sorting every candidate', () => {
    for (const release of releases.slice(0, 120)) {
      for (const count of [1, 3, 5]) {
        expect(
          relatedReleases({ releasesByTag }, release, count).map((r) => r.id),
          `release ${release.id}, ${count}`,
        ).toEqual(reference(release, count).map((r) => r.id));
      }
    }
    const untagged = releases.find((r) => r.tag_ids.length === 0)!;
    expect(relatedReleases({ releasesByTag }, untagged)).toEqual([]);
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
