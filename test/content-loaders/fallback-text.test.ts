/**
 * A title made from a body never stops the press room: character references
 * are decoded as HTML decodes them, one that names no character becomes U+FFFD.
 */
import { describe, expect, it } from 'vitest';
import { plainText, titleFromBody } from '../../content-loaders/data-policy/fallback-text.ts';

describe('titles from bodies', () => {
  it('decode references that name no character as U+FFFD instead of throwing', () => {
    expect(titleFromBody('<p>&#99999999999; Northwind opens a hub in Leipzig. More soon.</p>')).toBe(
      '\uFFFD Northwind opens a hub in Leipzig.',
    );
    expect(plainText('&#x110000;&#xD800;&#0;')).toBe('\uFFFD\uFFFD\uFFFD');
  });

  it('decode named and numeric references, and drop tags, scripts and styles', () => {
    expect(plainText('<p>Caf&eacute; &amp; bar&nbsp;<b>open</b></p><script>x()</script><style>p{}</style>&#65;&#x42;')).toBe(
      'Café & bar open AB',
    );
  });
});
