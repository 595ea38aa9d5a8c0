/**
 * The header's and footer's logic, as a team's own Header or Footer reuses it: what a page offers
 * to subscribe to, each language's counterpart of a page, the custom pages of a language, the
 * footer's tappable contact block and text cut at a sentence or a word.
 */
import { describe, expect, it } from 'vitest';
import { parseLeniently } from '../../../content-loaders/data-policy/repair.ts';
import { pressroom as pressroomSchema } from '../../../content-loaders/schemas/pressroom.ts';
import { contactParts } from '../../../src/lib/contact-links.ts';
import type { CustomPage, SiteData } from '../../../src/lib/data.ts';
import { telHref } from '../../../src/lib/format.ts';
import { languageLinks } from '../../../src/lib/language-links.ts';
import { excerpt } from '../../../src/lib/sanitize.ts';
import { customPagesFor, footerPages } from '../../../src/lib/site-nav.ts';
import { emailSubscription, subscribeOptions } from '../../../src/lib/subscribe.ts';

type Pressroom = SiteData['pressroom'];
const pressroom = (fields: Partial<Pressroom>): Pressroom =>
  ({ language: 'en', urls: {}, subscribe_enabled: false, ...fields }) as Pressroom;

describe('subscribeOptions', () => {
  const site = {
    languages: ['en', 'nl', 'de'],
    pressroom: pressroom({ subscribe_enabled: true, urls: { subscribe: 'https://news.example/subscribe' } }),
  };

  it("lists the page language's feeds, then every release's, in the page's language", () => {
    const { feeds } = subscribeOptions(site, 'nl');
    expect(feeds.map((g) => g.title)).toEqual(['Persberichten in het Nederlands', 'Alle persberichten']);
    expect(feeds[0]!.feeds).toEqual([
      { href: '/feeds/nl/rss.xml', type: 'application/rss+xml', label: 'RSS' },
      { href: '/feeds/nl/atom.xml', type: 'application/atom+xml', label: 'Atom' },
      { href: '/feeds/nl/feed.json', type: 'application/feed+json', label: 'JSON Feed' },
    ]);
    expect(feeds[1]!.feeds.map((f) => f.href)).toEqual(['/rss.xml', '/atom.xml', '/feed.json']);
  });

  it('offers only the feeds of every release for one language, or a language without releases', () => {
    expect(subscribeOptions({ ...site, languages: ['en'] }, 'en').feeds.map((g) => g.title)).toEqual(['All press releases']);
    expect(subscribeOptions(site, 'fr').feeds.map((g) => g.title)).toEqual(['Tous les communiqués']);
  });

  it('links the e-mail sign-up only when subscriptions are on and the address is a web address', () => {
    expect(subscribeOptions(site, 'en').email).toBe('https://news.example/subscribe');
    expect(emailSubscription(pressroom({ subscribe_enabled: false, urls: { subscribe: 'https://news.example/subscribe' } }))).toBeNull();
    expect(emailSubscription(pressroom({ subscribe_enabled: true }))).toBeNull();
    expect(emailSubscription(pressroom({ subscribe_enabled: true, urls: { subscribe: 'javascript:alert(1)' } }))).toBeNull();
    expect(emailSubscription(pressroom({ subscribe_enabled: true, urls: { subscribe: 'not a url' } }))).toBeNull();
  });

  it('reads the sign-up through the loaders: an unreadable address or flag is dropped, so there is no link', () => {
    const read = (fields: Record<string, unknown>) => {
      const warnings: string[] = [];
      const raw = { id: 1, name: 'Northwind', language: 'en', ...fields };
      const parsed = parseLeniently(pressroomSchema, raw, { collection: 'pressroom', endpoint: '/v1/pressrooms/1.json' }, (w) =>
        warnings.push(w.field),
      );
      return { email: emailSubscription(parsed!), homepage: parsed!.urls.homepage, warnings };
    };
    const urls = { homepage: 'https://northwind.example', subscribe: 'https://newsroom.northwind.example/subscribe' };
    expect(read({ subscribe_enabled: true, urls })).toEqual({ email: urls.subscribe, homepage: urls.homepage, warnings: [] });
    expect(read({ subscribe_enabled: '1', urls }).email).toBe(urls.subscribe);
    expect(read({ subscribe_enabled: true, urls: { ...urls, subscribe: 'javascript:alert(1)' } })).toEqual({
      email: null,
      homepage: urls.homepage,
      warnings: ['urls.subscribe'],
    });
    expect(read({ subscribe_enabled: 'maybe', urls })).toEqual({ email: null, homepage: urls.homepage, warnings: ['subscribe_enabled'] });
  });
});

describe('languageLinks', () => {
  const releases = (n: number) => Array.from({ length: n }, () => ({}) as SiteData['releases'][number]);
  // 40 English releases: /en/ and its numbered pages /en/1/, /en/2/; 26 Dutch: /nl/ and /nl/1/; 3 German: /de/ alone.
  const site = {
    languages: ['en', 'nl', 'de'],
    releasesByLanguage: new Map([
      ['en', releases(40)],
      ['nl', releases(26)],
      ['de', releases(3)],
    ]),
  };
  const hrefs = (path: string, lang: string) => Object.fromEntries(languageLinks(site, path, lang).map((l) => [l.lang, l.href]));

  it("leads from a language's listing to the same page of the others, else to their front page", () => {
    expect(hrefs('/nl/', 'nl')).toEqual({ en: '/en/', nl: '/nl/', de: '/de/' });
    // Page 1 is a numbered page (the oldest), not the front page.
    expect(hrefs('/nl/1/', 'nl')).toEqual({ en: '/en/1/', nl: '/nl/1/', de: '/de/' });
    expect(hrefs('/en/2/', 'en')).toEqual({ en: '/en/2/', nl: '/nl/', de: '/de/' });
  });

  it("keeps a page in its own language and leads elsewhere to that language's home", () => {
    expect(hrefs('/tags/bikes/', 'en')).toEqual({ en: '/tags/bikes/', nl: '/nl/', de: '/de/' });
    expect(hrefs('/100046-northwind-roept-terug/', 'nl')).toEqual({ en: '/en/', nl: '/100046-northwind-roept-terug/', de: '/de/' });
    expect(hrefs('/pages/over-ons/', 'nl')).toEqual({ en: '/en/', nl: '/pages/over-ons/', de: '/de/' });
    expect(hrefs('/404/', 'en')).toEqual({ en: '/en/', nl: '/nl/', de: '/de/' });
  });

  it('marks the page language, names each language in itself, and takes no path for a listing that is not one', () => {
    const links = languageLinks(site, '/nl/1/', 'nl');
    expect(links.map((l) => [l.lang, l.name, l.current])).toEqual([
      ['en', 'English', false],
      ['nl', 'Nederlands', true],
      ['de', 'Deutsch', false],
    ]);
    // `/fr/` is no language of the press room: not a listing, so no counterpart is made up.
    expect(hrefs('/fr/2/', 'en')).toEqual({ en: '/fr/2/', nl: '/nl/', de: '/de/' });
  });
});

describe('customPagesFor', () => {
  const page = (id: number, title: string, language: string | null, menu: boolean): CustomPage =>
    ({ id, title, language, show_in_menu: menu, href: `/pages/${id}/` }) as CustomPage;
  const about = page(1, 'About us', 'en', true);
  const policy = page(2, 'Press policy', 'en', true);
  const overOns = page(3, 'Over ons', 'nl', false);
  const imprint = page(4, 'Imprint', null, false);
  const site = { pressroom: pressroom({ language: 'en' }), pages: [about, policy, overOns, imprint] };

  it("gives a language its own pages, never the press room language's beside them", () => {
    expect(customPagesFor(site, 'nl')).toEqual({ menu: [], other: [overOns, imprint] });
    expect(footerPages(site, 'nl').map((p) => [p.href, p.label, p.lang])).toEqual([
      ['/pages/3/', 'Over ons', undefined],
      ['/pages/4/', 'Imprint', undefined],
    ]);
  });

  it("falls back to the press room language's pages, marked with their language", () => {
    expect(customPagesFor(site, 'de')).toEqual({ menu: [about, policy], other: [imprint] });
    expect(customPagesFor(site, 'en')).toEqual({ menu: [about, policy], other: [imprint] });
    expect(customPagesFor(site, 'nl-BE').other).toEqual([overOns, imprint]);
  });
});

describe('contactParts', () => {
  it('links phone numbers and e-mail addresses and keeps the rest as text', () => {
    const text = 'Northwind B.V.\nWibautstraat 150\n1091 GR Amsterdam\n\nT +31 (0)20 794 1100\nE press@northwind.example';
    expect(contactParts(text)).toEqual([
      { text: 'Northwind B.V.\nWibautstraat 150\n1091 GR Amsterdam\n\nT ' },
      { text: '+31 (0)20 794 1100', href: 'tel:+31207941100' },
      { text: '\nE ' },
      { text: 'press@northwind.example', href: 'mailto:press@northwind.example' },
    ]);
  });

  it('takes a national number for a phone only on a labelled line', () => {
    expect(contactParts('Telefoon: 020 794 1100')).toEqual([{ text: 'Telefoon: ' }, { text: '020 794 1100', href: 'tel:0207941100' }]);
    expect(contactParts('KvK 12345678, opgericht 2017-03-01')).toEqual([{ text: 'KvK 12345678, opgericht 2017-03-01' }]);
  });

  it('drops the trunk zero after a country code in a tel: link', () => {
    expect(telHref('+49 (0)30 1234 5678')).toBe('tel:+493012345678');
    expect(telHref('+31 20 794 1139')).toBe('tel:+31207941139');
  });
});

describe('excerpt', () => {
  const about =
    'Northwind makes electric bikes for people who want to move through cities without a car. Founded in Amsterdam in 2017, it runs a network of hubs. This newsroom is the official source.';

  it('keeps a text that fits as it is', () => {
    expect(excerpt(about, 500)).toEqual({ text: about, cut: false });
  });

  it('cuts after the last whole sentence that fits, with an ellipsis', () => {
    expect(excerpt(about, 150)).toEqual({
      text: 'Northwind makes electric bikes for people who want to move through cities without a car. Founded in Amsterdam in 2017, it runs a network of hubs. …',
      cut: true,
    });
  });

  it('cuts at a word when no sentence ends in the second half, never inside one', () => {
    const { text, cut } = excerpt(about, 60);
    expect(cut).toBe(true);
    expect(text).toBe('Northwind makes electric bikes for people who want to move…');
    expect(text.length).toBeLessThanOrEqual(60);
    expect(excerpt('Supercalifragilisticexpialidocious', 10)).toEqual({ text: 'Supercali…', cut: true });
  });
});
