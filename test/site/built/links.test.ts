/** No internal link, image or stylesheet of any page is broken; fragments point at ids that exist. */
import { beforeAll, expect, inject, it } from 'vitest';
import { allElements, loadPages, resolveInternal, urlsOf, type BuiltPage } from '../helpers.ts';

const siteDir = inject('siteDir');
const siteUrl = inject('siteUrl');
let pages: BuiltPage[];

beforeAll(async () => {
  pages = await loadPages(siteDir);
});

it('builds a sizeable site', () => {
  expect(pages.length).toBeGreaterThan(100);
});

it('resolves every internal href, src and srcset to a file of the build', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const { url, where } of urlsOf(page.doc)) {
      if (url === '' || url.startsWith('#') || /^(mailto|tel):/i.test(url)) continue;
      let internal: string | null = null;
      if (url.startsWith('/') && !url.startsWith('//')) internal = url;
      else if (url.startsWith(`${siteUrl}/`)) internal = url.slice(siteUrl.length);
      else if (!/^https?:\/\//i.test(url)) {
        broken.push(`${page.path}: ${where} ${url} (relative or odd URL)`);
        continue;
      }
      if (internal === null) continue;
      checked++;
      if (!resolveInternal(siteDir, internal)) broken.push(`${page.path}: ${where} ${url}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(1000);
});

it('points every in-page fragment at an element that exists', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const ids = new Set(
      allElements(page.doc)
        .map((el) => el.attribs.id)
        .filter(Boolean),
    );
    for (const { url } of urlsOf(page.doc)) {
      if (url.startsWith('#') && url.length > 1 && !ids.has(url.slice(1))) broken.push(`${page.path}: ${url}`);
    }
  }
  expect(broken).toEqual([]);
});

it('uses each id once per page, and every aria-labelledby names an existing id', () => {
  const problems: string[] = [];
  for (const page of pages) {
    const seen = new Map<string, number>();
    const els = allElements(page.doc);
    for (const el of els) if (el.attribs.id) seen.set(el.attribs.id, (seen.get(el.attribs.id) ?? 0) + 1);
    for (const [id, n] of seen) if (n > 1) problems.push(`${page.path}: id ${id} used ${n} times`);
    for (const el of els) {
      for (const id of (el.attribs['aria-labelledby'] ?? '').split(/\s+/).filter(Boolean))
        if (!seen.has(id)) problems.push(`${page.path}: aria-labelledby ${id}`);
    }
  }
  expect(problems).toEqual([]);
});
