/**
 * The rules of the AI files (src/lib/llms-rules.ts): a noindex press room gets none of them, and
 * whether they exist always agrees with what robots.txt (read by robots-parser) allows; the size
 * budget keeps the newest items that fit; twins never take a path a page already has.
 */
import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../../src/lib/crawlers.ts';
import { aiFilesOffered, fitWithinBudget, twinPaths } from '../../../src/lib/llms-rules.ts';
import { llmsFullTxtHref, llmsTxtHref, markdownTwinHref, permalinkSegments } from '../../../src/lib/paths.ts';

const SITE = 'https://press.example.test';
const releases = [
  { id: 1, href: '/1-launch/' },
  { id: 2, href: '/2-award/' },
];

describe('which press rooms get AI files', () => {
  for (const noindex of [false, true]) {
    for (const nofollow of [false, true]) {
      it(`noindex ${noindex}, nofollow ${nofollow}: AI files exist exactly when robots.txt lets crawlers fetch them`, () => {
        const pressroom = { noindex, nofollow };
        const robots = robotsParser(`${SITE}/robots.txt`, robotsTxt({ ...pressroom, sitemaps: [`${SITE}/sitemap-index.xml`] }));
        const twins = twinPaths(pressroom, releases, []);
        const paths = [llmsTxtHref, llmsFullTxtHref, ...releases.map(markdownTwinHref)];
        for (const agent of ['GPTBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', '*']) {
          for (const path of paths) expect(robots.isAllowed(`${SITE}${path}`, agent), `${agent} ${path}`).toBe(aiFilesOffered(pressroom));
        }
        expect(aiFilesOffered(pressroom)).toBe(!noindex);
        expect(twins.size).toBe(noindex ? 0 : releases.length);
      });
    }
  }

  it('puts each twin in its page folder', () => {
    expect([...twinPaths({ noindex: false }, releases, []).values()]).toEqual(['/1-launch/index.md', '/2-award/index.md']);
  });

  it('gives no twin where a page already lives (a permalink that is another plus /index.md)', () => {
    const clash = [...releases, { id: 3, href: '/1-launch/index.md/' }];
    const twins = twinPaths({ noindex: false }, clash, [{ href: '/2-award/index.md/' }]);
    expect([...twins.keys()]).toEqual([3]);
  });

  it('keeps release permalinks off the AI files', () => {
    expect(permalinkSegments('/llms.txt')).toBeNull();
    expect(permalinkSegments('/LLMS-FULL.TXT')).toBeNull();
    expect(permalinkSegments('/100314-launch')).toEqual(['100314-launch']);
  });
});

describe('fitWithinBudget', () => {
  const render = (count: number) => `header\n${'x'.repeat(10).concat('\n').repeat(count)}footer\n`;

  it('keeps every item when they fit', () => {
    expect(fitWithinBudget(render, 5, 1000)).toEqual({ text: render(5), count: 5 });
  });

  it('keeps the most items that fit in the byte budget', () => {
    // 14 bytes of header and footer, 11 per item: 100 bytes hold 7 items (91 bytes), not 8 (102).
    const { text, count } = fitWithinBudget(render, 20, 100);
    expect(count).toBe(7);
    expect(text).toBe(render(7));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100);
  });

  it('counts bytes, not characters', () => {
    const wide = (count: number) => '€'.repeat(count); // 3 bytes each
    expect(fitWithinBudget(wide, 10, 10).count).toBe(3);
  });

  it('gives the frame alone when not even one item fits', () => {
    expect(fitWithinBudget(render, 3, 5)).toEqual({ text: render(0), count: 0 });
  });
});
