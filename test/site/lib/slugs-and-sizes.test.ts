/**
 * One way to do each small thing: slugs transliterate non-ASCII names (and
 * leave ASCII ones byte-identical, so the demo's paths do not move), and one
 * byte formatter serves logs and pages alike (decimal units, truncated to one
 * decimal, the page's number format).
 */
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../content-loaders/format-bytes.ts';
import { contactSegment, slugify } from '../../../src/lib/paths.ts';
import { formatFileSize } from '../../../src/lib/format.ts';

describe('slugify', () => {
  it('transliterates names instead of mangling them', () => {
    expect(slugify('Søren Ødegård')).toBe('soren-odegard');
    expect(slugify('Straße')).toBe('strasse');
    expect(slugify('Łukasz Nowak')).toBe('lukasz-nowak');
    expect(slugify('Đorđe Ægir')).toBe('dorde-aegir');
    expect(slugify('Иван Петров')).toBe('ivan-petrov');
    expect(slugify('王小明')).toBe('wang-xiao-ming');
    expect(contactSegment({ id: 7, name: 'Иван Петров' })).toBe('7-ivan-petrov');
    expect(contactSegment({ id: 8, name: '🙂' })).toBe('8');
  });

  it('keeps ASCII names exactly as the earlier ASCII-only slugify did', () => {
    const asciiOnly = (text: string, max = 60) =>
      text
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, max)
        .replace(/^-+|-+$/g, '');
    const samples = [
      'Juda de Koning',
      "O'Brien & Sons",
      '  --Leading and trailing--  ',
      'a.b_c~d',
      'José Müller-Lüdenscheidt',
      'x'.repeat(80),
    ];
    for (let c = 32; c < 127; c++) samples.push(`a${String.fromCharCode(c)}b ${String.fromCharCode(c)}`);
    for (const sample of samples) expect(slugify(sample), sample).toBe(asciiOnly(sample));
  });
});

describe('byte sizes', () => {
  it('are the same on every page and in every log: decimal, one decimal at most, never rounded up', () => {
    expect(formatBytes(3950)).toBe('3.9 kB');
    expect(formatBytes(4000)).toBe('4 kB');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(11_991_208)).toBe('11.9 MB');
    for (const bytes of [0, 999, 1000, 3950, 1_048_576, 2_435_510]) expect(formatFileSize(bytes, 'en')).toBe(formatBytes(bytes));
  });

  it('use the page language for the number', () => {
    expect(formatFileSize(2_435_510, 'de')).toBe('2,4 MB');
    expect(formatFileSize(2_435_510, 'nl')).toBe('2,4 MB');
    expect(formatFileSize(2_435_510, 'not a language')).toBe('2.4 MB');
  });
});

describe('the one slug rule, for paths the site derives and paths the data policy makes safe', () => {
  it('reads currency signs as their codes, as the hosted newsroom does, and leaves ASCII alone', async () => {
    const { slugOf } = await import('../../../content-loaders/data-policy/safe-paths.ts');
    expect(slugify('Northwind raises €118 million')).toBe('northwind-raises-eur-118-million');
    expect(slugOf('Northwind raises €118 million')).toBe('northwind-raises-eur-118-million');
    expect(slugOf('東京 2026')).toBe(slugify('東京 2026'));
    expect(slugify('$3 off, 50% more')).toBe('3-off-50-more');
  });
});
