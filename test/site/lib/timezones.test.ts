/** The press room's time zone (src/lib/timezones.ts): Rails zone names to IANA ones. */
import { describe, expect, it } from 'vitest';
import { ianaTimeZone } from '../../../src/lib/timezones.ts';

describe('time zones', () => {
  it('maps Rails zone names to IANA ones', () => {
    expect(ianaTimeZone('Amsterdam')).toBe('Europe/Amsterdam');
    expect(ianaTimeZone('Berlin')).toBe('Europe/Berlin');
    expect(ianaTimeZone('London')).toBe('Europe/London');
    expect(ianaTimeZone('Brussels')).toBe('Europe/Brussels');
    expect(ianaTimeZone('Copenhagen')).toBe('Europe/Copenhagen');
    expect(ianaTimeZone('Vienna')).toBe('Europe/Vienna');
    expect(ianaTimeZone('Zurich')).toBe('Europe/Zurich');
    expect(ianaTimeZone('Eastern Time (US & Canada)')).toBe('America/New_York');
    expect(ianaTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(ianaTimeZone('Atlantis')).toBe('UTC');
    expect(ianaTimeZone(null)).toBe('UTC');
  });
});
