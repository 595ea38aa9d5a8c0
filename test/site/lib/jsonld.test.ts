/** JSON-LD for pages (src/lib/jsonld.ts): escaping inside its script tag, breadcrumb trails. */
import { describe, expect, it } from 'vitest';
import { breadcrumbList, serializeJsonLd } from '../../../src/lib/jsonld.ts';

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
