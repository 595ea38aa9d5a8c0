/** The one srcset parser (feeds, offline archive, sanitizer, tests): candidates split as browsers split them. */
import { describe, expect, it } from 'vitest';
import { formatSrcset, mapSrcset, parseSrcset } from '../../../src/lib/srcset.ts';

describe('parseSrcset', () => {
  it.each([
    [
      'a plain list',
      '/_media/a.webp 320w, /_media/b.webp 640w',
      [
        ['/_media/a.webp', '320w'],
        ['/_media/b.webp', '640w'],
      ],
    ],
    ['one URL, no descriptor', '/_media/only.webp', [['/_media/only.webp', '']]],
    [
      'a comma inside a data: URL',
      'data:image/png;base64,AAAA 1x,/_media/b.webp 2x',
      [
        ['data:image/png;base64,AAAA', '1x'],
        ['/_media/b.webp', '2x'],
      ],
    ],
    [
      'a comma inside a path',
      '/_media/a,b.webp 1x, /_media/c.webp 2x',
      [
        ['/_media/a,b.webp', '1x'],
        ['/_media/c.webp', '2x'],
      ],
    ],
    ['commas with no white space: one URL (as in a browser)', '/a.webp,/b.webp 2x', [['/a.webp,/b.webp', '2x']]],
    [
      'trailing commas end a candidate with no descriptor',
      '/a.webp,, /b.webp, /c.webp 2x',
      [
        ['/a.webp', ''],
        ['/b.webp', ''],
        ['/c.webp', '2x'],
      ],
    ],
    [
      'any white space, and extra separators',
      ' \n/a.webp\t100w ,\n/b.webp  200w , ',
      [
        ['/a.webp', '100w'],
        ['/b.webp', '200w'],
      ],
    ],
    [
      'a comma inside parentheses stays in the descriptor',
      '/a.webp 1x (a, b), /b.webp 2x',
      [
        ['/a.webp', '1x (a, b)'],
        ['/b.webp', '2x'],
      ],
    ],
    ['several descriptors', '/a.webp 100w 50h', [['/a.webp', '100w 50h']]],
    ['nothing', ' , ', []],
  ])('%s', (_label, value, expected) => {
    expect(parseSrcset(value).map((c) => [c.url, c.descriptors])).toEqual(expected);
  });
});

describe('mapSrcset', () => {
  it('rewrites every candidate URL and writes the list back', () => {
    expect(mapSrcset('/a,1.webp 1x,/b.webp 2x', (url) => `https://press.example${url}`)).toBe(
      'https://press.example/a,1.webp 1x, https://press.example/b.webp 2x',
    );
    expect(
      formatSrcset([
        { url: '/a.webp', descriptors: '' },
        { url: '/b.webp', descriptors: '2x' },
      ]),
    ).toBe('/a.webp, /b.webp 2x');
  });

  it('leaves the value exactly as written when no URL changes', () => {
    const value = 'https://cdn.example/a.webp   1x,https://cdn.example/b.webp 2x';
    expect(mapSrcset(value, (url) => url)).toBe(value);
  });
});
