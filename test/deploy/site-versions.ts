/**
 * Small built sites for the deploy tests, written the way a build leaves them:
 * the folder replaced whole and its change report beside it, made by the
 * build's own code (scripts/change-report.ts over scripts/output-tree.ts)
 * against the folder it replaces. Pages name their hashed stylesheet and
 * images the way the real site does, so a test can check that every page in
 * a bucket finds every asset it names.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { changeReport, writeChangeReport, type ChangeReport } from '../../scripts/change-report.ts';
import { readTree } from '../../scripts/output-tree.ts';

export const SITE_URL = 'https://press.example.com';

export type SiteVersion = Record<string, string | Buffer>;

const page = (title: string, css: string, extra = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title><link rel="stylesheet" href="/_astro/${css}"></head><body><h1>${title}</h1>${extra}</body></html>\n`;

/** The first site: two releases, every kind of file the real site writes. */
export function firstVersion(): SiteVersion {
  const css = 'Base.AAAA1111.css';
  return {
    'index.html': page('Press room', css, '<a href="/1-launch/">Launch</a><a href="/2-results/">Results</a>'),
    '404.html': page('Not found', css),
    '1-launch/index.html': page('Launch', css, '<img src="/_media/1111aaaa-10x10.webp">'),
    '1-launch/index.md': '# Launch\n',
    '2-results/index.html': page('Results', css, '<a href="/_media/2222bbbb.zip">kit</a>'),
    [`_astro/${css}`]: 'body{color:#111}',
    '_astro/page.CCCC3333.js': 'console.log(1)',
    '_media/1111aaaa-10x10.webp': Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 fake image bytes'),
    '_media/2222bbbb.zip': Buffer.from('PK\u0003\u0004 fake zip'),
    'favicon.ico': Buffer.from([0, 0, 1, 0, 1, 0]),
    'icon-192.png': Buffer.from('\u0089PNG fake'),
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'site.webmanifest': '{"name":"Press"}',
    'events/calendar.ics': 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n',
    'contacts/1-ada.vcf': 'BEGIN:VCARD\r\nEND:VCARD\r\n',
    'pagefind/en/pagefind-entry.json': '{"version":"1"}',
    'pagefind/en/fragment/en_abc1234.pf_fragment': Buffer.from('fragment'),
    'pagefind/en/wasm.en.pagefind': Buffer.from('wasm'),
    'rss.xml': '<rss><item>Launch</item><item>Results</item></rss>',
    'feeds/en/feed.json': '{"items":[1,2]}',
    'sitemap-0.xml': '<urlset><url>/1-launch/</url><url>/2-results/</url></urlset>',
    'robots.txt': 'User-agent: *\n',
    'llms.txt': '# Press\n',
  };
}

/**
 * One release changed: the stylesheet rebuilt under a new hash (every page names the new one),
 * release 1 edited, release 2 unpublished, release 3 published, the feeds and sitemap updated.
 */
export function secondVersion(extraPages = 0): SiteVersion {
  const first = firstVersion();
  const css = 'Base.BBBB2222.css';
  const site: SiteVersion = { ...first };
  for (const file of ['_astro/Base.AAAA1111.css', '2-results/index.html']) delete site[file];
  Object.assign(site, {
    'index.html': page('Press room', css, '<a href="/1-launch/">Launch</a><a href="/3-award/">Award</a>'),
    '404.html': page('Not found', css),
    '1-launch/index.html': page('Launch, updated', css, '<img src="/_media/1111aaaa-10x10.webp">'),
    '3-award/index.html': page('Award', css),
    [`_astro/${css}`]: 'body{color:#222}',
    'rss.xml': '<rss><item>Launch</item><item>Award</item></rss>',
    'sitemap-0.xml': '<urlset><url>/1-launch/</url><url>/3-award/</url></urlset>',
  });
  for (let i = 0; i < extraPages; i++) site[`${100 + i}-extra/index.html`] = page(`Extra ${i}`, css);
  return site;
}

/** Replaces the site in `dir` with `files` and writes its change report, as a build does; returns the report. */
export async function buildSite(dir: string, files: SiteVersion): Promise<ChangeReport> {
  const previous = existsSync(dir) ? (await readTree(dir)).tree : undefined;
  await rm(dir, { recursive: true, force: true });
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const report = changeReport(previous, (await readTree(dir)).tree, SITE_URL);
  await writeChangeReport(dir, report);
  return report;
}
