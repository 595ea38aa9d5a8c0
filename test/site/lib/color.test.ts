/** The press room's theme colours (src/lib/color.ts): contrast kept, anything not a hex colour ignored. */
import { describe, expect, it } from 'vitest';
import { contrast, ensureContrast, parseHex, themeFrom } from '../../../src/lib/color.ts';

describe('theme colours', () => {
  it('keeps a link colour with enough contrast and darkens one without', () => {
    const white = parseHex('#fff')!;
    expect(themeFrom({ link_color: '#0b5cad' }).link).toBe('#0b5cad');
    const pale = themeFrom({ link_color: '#7fd3ff' });
    expect(contrast(parseHex(pale.link)!, white)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(ensureContrast(parseHex('#ffff00')!, white), white)).toBeGreaterThanOrEqual(4.5);
  });
  it('reads on dark backgrounds and light headers', () => {
    const dark = themeFrom({ background_color: '#111111', link_color: '#0000aa', header_color: '#fafafa' });
    expect(contrast(parseHex(dark.link)!, parseHex(dark.background)!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(dark.text)!, parseHex(dark.background)!)).toBeGreaterThanOrEqual(7);
    expect(contrast(parseHex(dark.onHeader)!, parseHex(dark.header)!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(dark.onAccent)!, parseHex(dark.accent)!)).toBeGreaterThanOrEqual(4.5);
  });
  it('ignores anything that is not a hex colour', () => {
    expect(parseHex('red; background:url(x)')).toBeNull();
    expect(themeFrom({ link_color: 'expression(alert(1))' }).link).toBe('#0b5cad');
  });
});
