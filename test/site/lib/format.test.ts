/** Sizes and contact links on pages (src/lib/format.ts). */
import { describe, expect, it } from 'vitest';
import { formatFileSize, mailtoHref, telHref } from '../../../src/lib/format.ts';

describe('sizes and contact links', () => {
  it('formats sizes and contact links', () => {
    expect(formatFileSize(11_991_208, 'en')).toBe('11.9 MB'); // truncated: never bigger than it is
    expect(formatFileSize(2_035_510, 'de')).toBe('2 MB');
    expect(telHref('+31 20 794 1139')).toBe('tel:+31207941139');
    expect(telHref('call me')).toBeNull();
    expect(mailtoHref('press@northwind.example')).toBe('mailto:press@northwind.example');
    expect(mailtoHref('javascript:alert(1)//@x.y')).toBeNull();
  });
});
