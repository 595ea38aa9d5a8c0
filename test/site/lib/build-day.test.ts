/** The build's clock and day (src/lib/build-day.ts): which clock, which day, and where an event stands. */
import { describe, expect, it } from 'vitest';
import { buildDayOf, buildRecord, canBeLive, chooseBuildClock, eventPhase, sourceDateEpoch } from '../../../src/lib/build-day.ts';

const DEMO = Date.parse('2026-11-01T09:00:00.000Z');

describe('the build clock', () => {
  it('is SOURCE_DATE_EPOCH when set, else the demo instant when building the demo, else the machine clock', () => {
    const machine = Date.parse('2026-11-23T21:00:00.000Z');
    expect(chooseBuildClock({ SOURCE_DATE_EPOCH: '1793574000' }, DEMO, machine)).toEqual({
      instant: 1793574000000,
      source: 'SOURCE_DATE_EPOCH',
    });
    expect(chooseBuildClock({ SOURCE_DATE_EPOCH: ' ' }, DEMO, machine)).toEqual({ instant: DEMO, source: 'demo' });
    expect(chooseBuildClock({}, undefined, machine)).toEqual({ instant: machine, source: 'system' });
  });

  it('refuses a SOURCE_DATE_EPOCH that is not whole seconds, in one line naming it', () => {
    for (const bad of ['1793574000.5', '-1', '2026-11-01', 'now', '1e9']) {
      expect(() => sourceDateEpoch({ SOURCE_DATE_EPOCH: bad }), bad).toThrow(
        /^SOURCE_DATE_EPOCH=".*" is not a whole number of seconds since 1970-01-01 UTC; set it like \$\(date \+%s\) or unset it$/,
      );
    }
    expect(sourceDateEpoch({})).toBeUndefined();
    expect(sourceDateEpoch({ SOURCE_DATE_EPOCH: '0' })).toBe(0);
  });
});

describe('the build day', () => {
  it("is the clock rounded down to the day in the press room's time zone", () => {
    expect(buildDayOf(DEMO, 'Europe/Amsterdam')).toEqual({
      date: '2026-11-01',
      start: Date.parse('2026-10-31T23:00:00.000Z'),
      timeZone: 'Europe/Amsterdam',
    });
    // 23:30 UTC is already the next day in Amsterdam, still the same day in New York.
    expect(buildDayOf(Date.parse('2026-11-01T23:30:00Z'), 'Europe/Amsterdam').date).toBe('2026-11-02');
    expect(buildDayOf(Date.parse('2026-11-01T23:30:00Z'), 'America/New_York')).toMatchObject({
      date: '2026-11-01',
      start: Date.parse('2026-11-01T04:00:00.000Z'),
    });
    // Summer time: Amsterdam's day starts at 22:00 UTC.
    expect(buildDayOf(Date.parse('2026-07-01T12:00:00Z'), 'Europe/Amsterdam').start).toBe(Date.parse('2026-06-30T22:00:00.000Z'));
  });

  it("starts at the first instant of a day that skips midnight (Santiago's spring change)", () => {
    expect(buildDayOf(Date.parse('2026-09-06T12:00:00Z'), 'America/Santiago')).toMatchObject({
      date: '2026-09-06',
      start: Date.parse('2026-09-06T04:00:00.000Z'),
    });
  });

  it("is the same for every moment of the day, so a day's builds give the same bytes", () => {
    const morning = buildDayOf(Date.parse('2026-10-31T23:00:00Z'), 'Europe/Amsterdam');
    const night = buildDayOf(Date.parse('2026-11-01T22:59:59Z'), 'Europe/Amsterdam');
    expect(night).toEqual(morning);
    expect(buildRecord(night)).toBe(buildRecord(morning));
    expect(JSON.parse(buildRecord(morning))).toEqual({
      format: 'pressroom-build/1',
      day: '2026-11-01',
      timeZone: 'Europe/Amsterdam',
      dayStart: '2026-10-31T23:00:00.000Z',
    });
  });
});

describe('where an event stands', () => {
  const webinar = { starts_at: '2026-11-01T07:00:00.000Z', ends_at: '2026-11-01T13:00:00.000Z' };
  it('is upcoming before its start, live until its end, then past', () => {
    expect(eventPhase(webinar, Date.parse('2026-11-01T06:59:59.999Z'))).toBe('upcoming');
    expect(eventPhase(webinar, Date.parse('2026-11-01T07:00:00.000Z'))).toBe('live');
    expect(eventPhase(webinar, Date.parse('2026-11-01T12:59:59.999Z'))).toBe('live');
    expect(eventPhase(webinar, Date.parse('2026-11-01T13:00:00.000Z'))).toBe('past');
    expect(canBeLive(webinar)).toBe(true);
  });

  it('ends an event without an end (or with one before its start) when it starts: never live', () => {
    for (const ends_at of [null, '2026-11-01T06:00:00.000Z', webinar.starts_at]) {
      const event = { starts_at: webinar.starts_at, ends_at };
      expect(eventPhase(event, Date.parse('2026-11-01T06:00:00Z'))).toBe('upcoming');
      expect(eventPhase(event, Date.parse(webinar.starts_at))).toBe('past');
      expect(canBeLive(event)).toBe(false);
    }
  });
});
