/** The served search's merge of several language bundles' newest-first lists (src/search/client/merge-results.ts). */
import { describe, expect, it } from 'vitest';
import { mergeNewestFirst } from '../../../src/search/client/merge-results.ts';
import type { ResultView } from '../../../src/search/client/backend.ts';

const view = (date: string | null): ResultView => ({
  href: `/${date}/`,
  title: String(date),
  type: 'release',
  lang: 'en',
  date,
  excerpt: [],
});

describe('mergeNewestFirst', () => {
  it('interleaves newest-first lists into one, loading only what each step compares', async () => {
    const en = ['2026-05-01', '2026-03-01', '2025-01-01'];
    const nl = ['2026-04-01T10:00:00+02:00', '2024-06-01'];
    const de = ['2026-06-01'];
    const loads: string[] = [];
    const merged = mergeNewestFirst([en, nl, de], async (date) => {
      loads.push(date);
      return view(date);
    });
    expect(merged).toHaveLength(6);
    // Asked all at once, as the result list asks for a page of results.
    const firstTwo = await Promise.all(merged.slice(0, 2).map((load) => load()));
    expect(firstTwo.map((v) => v.date)).toEqual(['2026-06-01', '2026-05-01']);
    // Two steps compare the lists' heads only: never the whole lists.
    expect(loads.sort()).toEqual(['2026-04-01T10:00:00+02:00', '2026-05-01', '2026-06-01']);
    const all = await Promise.all(merged.map((load) => load()));
    expect(all.map((v) => v.date)).toEqual([
      '2026-06-01',
      '2026-05-01',
      '2026-04-01T10:00:00+02:00',
      '2026-03-01',
      '2025-01-01',
      '2024-06-01',
    ]);
  });

  it('puts undated results last and keeps each list in its own order', async () => {
    const merged = mergeNewestFirst([[null, null], ['2020-01-01']], async (d) => view(d));
    expect((await Promise.all(merged.map((l) => l()))).map((v) => v.date)).toEqual(['2020-01-01', null, null]);
  });
});
