/** What the pages keep of a release body (its lead) summarises it exactly as the whole text would. */
import { describe, expect, it } from 'vitest';
import { truncate } from '../../../src/lib/sanitize.ts';
import { BODY_LEAD_CHARS } from '../../../src/lib/site-paths.ts';

/** Every summary length the site writes: cards 150, rows 200, descriptions 200, the lead story 260, feeds 300. */
const SUMMARY_LENGTHS = [150, 200, 260, 300];

describe('a body lead', () => {
  it('gives the same summary at every length the site writes, wherever the words and spaces fall', () => {
    const words = ['Northwind', 'Mobility', 'a', 'bike-sharing', '–', 'rides,', 'in', 'Amsterdam.', 'Ümlaut', 'x'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let run = 0; run < 300; run++) {
      const parts: string[] = [];
      while (parts.join(' ').length < 320 + (next() % 200)) parts.push(words[next() % words.length]!);
      const text = parts.join(next() % 3 === 0 ? '  ' : ' ');
      const lead = text.slice(0, BODY_LEAD_CHARS);
      for (const max of SUMMARY_LENGTHS) expect(truncate(lead, max), `${max}: ${text}`).toBe(truncate(text, max));
    }
  });

  it('is the whole text when the text is short', () => {
    const text = 'A short body.';
    expect(text.slice(0, BODY_LEAD_CHARS)).toBe(text);
    for (const max of SUMMARY_LENGTHS) expect(truncate(text, max)).toBe(text);
  });
});
