/**
 * Visibility fails closed: every spelling of "hidden" an upstream may use
 * hides the item, a signal in no known form hides it too (and says which
 * field), and only values that read as public let an item through. Dates are
 * read in every form the live API is known to send before one is called
 * unreadable.
 */
import { describe, expect, it } from 'vitest';
import { readFlag } from '../../content-loaders/data-policy/flags.ts';
import { readInstant } from '../../content-loaders/data-policy/instants.ts';
import { hiddenReason, isLockedKit, kitLock } from '../../content-loaders/data-policy/visibility.ts';
import { flag, isoDate } from '../../content-loaders/schemas/primitives.ts';
import { MAX_JSON_DEPTH, publicAnswer } from '../../content-loaders/snapshot/public-only.ts';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const HOUR = 3_600_000;
const base = { id: 1, title: 'A release', permalink: '/1-a-release' };

describe('readInstant', () => {
  const at = (value: unknown) => {
    const r = readInstant(value);
    return r.kind === 'instant' ? new Date(r.at).toISOString() : r.kind;
  };

  it('reads ISO 8601 in extended and basic form, with offsets with and without minutes', () => {
    expect(at('2026-12-01T12:00:00.000Z')).toBe('2026-12-01T12:00:00.000Z');
    expect(at('20261201T120000Z')).toBe('2026-12-01T12:00:00.000Z');
    expect(at('20261201T1200Z')).toBe('2026-12-01T12:00:00.000Z');
    expect(at('2026-12-01T12:00:00+02')).toBe('2026-12-01T10:00:00.000Z');
    expect(at('2026-12-01T12:00:00+0200')).toBe('2026-12-01T10:00:00.000Z');
    expect(at('2026-12-01T12:00:00-05:30')).toBe('2026-12-01T17:30:00.000Z');
    expect(at('20261201T120000+0100')).toBe('2026-12-01T11:00:00.000Z');
    expect(at(' 2026-12-01t12:00:00z ')).toBe('2026-12-01T12:00:00.000Z');
    expect(at('2026-12-01 12:00')).toBe('2026-12-01T12:00:00.000Z');
    expect(at('2026-12-01')).toBe('2026-12-01T00:00:00.000Z');
    expect(at('20261201')).toBe('2026-12-01T00:00:00.000Z');
  });

  it('reads epoch seconds and milliseconds, as numbers and as strings', () => {
    const ms = Date.parse('2026-12-01T12:00:00.000Z');
    expect(at(ms)).toBe('2026-12-01T12:00:00.000Z');
    expect(at(String(ms))).toBe('2026-12-01T12:00:00.000Z');
    expect(at(ms / 1000)).toBe('2026-12-01T12:00:00.000Z');
    expect(at(String(ms / 1000))).toBe('2026-12-01T12:00:00.000Z');
  });

  it('says absent for nothing and unreadable for every other form, never guessing like Date.parse', () => {
    for (const value of [undefined, null, '', '   ']) expect(at(value), String(value)).toBe('absent');
    for (const value of [
      '1 Dec 2026',
      'tomorrow',
      'soon',
      '2026-13-01',
      '2026-02-30',
      {},
      [],
      true,
      Number.NaN,
      Infinity,
      '1e+21',
      'x2026',
    ])
      expect(at(value), JSON.stringify(value)).toBe('unreadable');
    expect(Date.parse('1 Dec 2026')).not.toBeNaN(); // Date.parse guesses, in the machine's time zone
  });

  it('holds the latest instant a value can mean: a time without offset may be twelve hours west of UTC', () => {
    const zoned = readInstant('2026-12-01T12:00:00Z');
    const unzoned = readInstant('2026-12-01T12:00:00');
    expect(zoned).toMatchObject({ kind: 'instant', latest: Date.parse('2026-12-01T12:00:00Z') });
    expect(unzoned).toMatchObject({ kind: 'instant', at: Date.parse('2026-12-01T12:00:00Z'), latest: Date.parse('2026-12-02T00:00:00Z') });
  });
});

describe('readFlag', () => {
  it('reads booleans, 1/0 and yes/no words in any case or spacing', () => {
    for (const value of [true, 1, 'true', ' TRUE ', 'True', 'yes', 'Y', 'on', '1', 't'])
      expect(readFlag(value), JSON.stringify(value)).toBe(true);
    for (const value of [false, 0, 'false', 'FALSE ', 'no', 'N', 'off', '0', 'f'])
      expect(readFlag(value), JSON.stringify(value)).toBe(false);
    for (const value of [undefined, null, '', '  ']) expect(readFlag(value)).toBe('absent');
    for (const value of ['maybe', 2, -1, {}, [], 'truee']) expect(readFlag(value), JSON.stringify(value)).toBe('unreadable');
  });
});

describe('hiddenReason fails closed', () => {
  const reason = (item: Record<string, unknown>, release = true) =>
    hiddenReason({ ...base, ...item }, NOW, { release })?.reason ?? 'public';

  it('hides every other spelling of draft and private', () => {
    for (const [field, value] of [
      ['state', 'Draft'],
      ['state', ' DRAFT '],
      ['state', 'unpublished'],
      ['published', 'false'],
      ['published', 'No'],
      ['published', 0],
      ['is_published', 'off'],
      ['draft', 'YES'],
      ['is_draft', ' true '],
      ['draft', 1],
    ] as const)
      expect(reason({ [field]: value }), `${field}: ${JSON.stringify(value)}`).toBe('draft');
    for (const [field, value] of [
      ['private', 'TRUE'],
      ['private', ' yes'],
      ['is_private', 'on'],
      ['private', '1'],
    ] as const)
      expect(reason({ [field]: value }), `${field}: ${JSON.stringify(value)}`).toBe('private');
  });

  it('hides an item whose signal cannot be read, naming the field and the value', () => {
    for (const [field, value] of [
      ['state', { name: 'draft' }],
      ['state', ['published']],
      ['state', 1],
      ['state', true],
      ['private', 'maybe'],
      ['private', 2],
      ['draft', {}],
      ['published', 'later'],
      ['release_date', 'next Tuesday'],
      ['embargo_date', { at: '2099-01-01' }],
    ] as const) {
      const hidden = hiddenReason({ ...base, [field]: value }, NOW, { release: true });
      expect(hidden, `${field}: ${JSON.stringify(value)}`).toMatchObject({ reason: 'unreadable', unreadable: { field, value } });
    }
  });

  it('holds an embargo given in any date form the live API sends', () => {
    const future = NOW + 48 * HOUR;
    for (const value of [
      new Date(future).toISOString(),
      new Date(future).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, ''),
      '2026-11-29T12:00:00+02',
      '2026-11-29T12:00:00+0530',
      future,
      String(future),
      future / 1000,
      String(future / 1000),
      '20261129',
    ])
      expect(reason({ release_date: value }), JSON.stringify(value)).toBe('embargoed');
    for (const field of ['publish_date', 'embargo_date', 'embargoed_until', 'embargo_until', 'publish_at', 'visible_from'])
      expect(reason({ [field]: future }, false), field).toBe('embargoed');
  });

  it('holds a time without offset until it has passed everywhere, and lifts it then', () => {
    const wallClock = '2026-11-27T06:00:00'; // six hours ago in UTC, still ahead west of UTC−6
    expect(hiddenReason({ ...base, release_date: wallClock }, NOW, { release: true })).toEqual({
      reason: 'embargoed',
      liftsAt: Date.parse('2026-11-27T18:00:00Z'),
    });
    expect(reason({ release_date: '2026-11-26T23:00:00' })).toBe('public');
  });

  it('publishes what reads as public, and says nothing about absent signals', () => {
    for (const item of [
      {},
      { state: 'published' },
      { state: ' Published ' },
      { state: 'LIVE' },
      { state: null, private: null, draft: '' },
      { published: 'yes', is_published: true, draft: 'no', private: 'False', is_private: 0 },
      { release_date: '2026-11-27T11:00:00.000Z' },
      { release_date: '' },
      { release_date: null },
    ])
      expect(reason(item), JSON.stringify(item)).toBe('public');
  });

  it('reads a clipping or an event date as theirs, never as an embargo', () => {
    expect(reason({ release_date: '2099-01-01T00:00:00Z', type: 'clipping' }, false)).toBe('public');
    expect(reason({ release_date: '2099-01-01T00:00:00Z', type: 'story' }, false)).toBe('embargoed');
  });
});

describe('kit locks fail closed', () => {
  it('locks a kit whose lock flag is in another spelling or cannot be read', () => {
    for (const value of ['YES', ' true', 'on', 1]) expect(isLockedKit({ is_locked: value }), JSON.stringify(value)).toBe(true);
    expect(kitLock({ is_password_protected: 'sometimes' })).toEqual({
      unreadable: { field: 'is_password_protected', value: 'sometimes', expected: expect.any(String) },
    });
    for (const value of [false, 'no', 'FALSE', 0, null, undefined, ''])
      expect(isLockedKit({ is_locked: value }), JSON.stringify(value)).toBe(false);
  });
});

describe('the schemas read dates and flags the same way', () => {
  it('normalises every readable date form to ISO 8601 UTC and refuses the rest, and years past 9999', () => {
    expect(isoDate.parse('20261201T120000+0100')).toBe('2026-12-01T11:00:00.000Z');
    expect(isoDate.parse(Date.parse('2026-12-01T12:00:00Z') / 1000)).toBe('2026-12-01T12:00:00.000Z');
    expect(isoDate.parse(isoDate.parse('2026-12-01T12:00:00+02'))).toBe('2026-12-01T10:00:00.000Z');
    expect(isoDate.safeParse('1 Dec 2026').success).toBe(false);
    // Calendars (RFC 5545), sitemaps and feeds write four-digit years: a date past 9999 is no date.
    expect(isoDate.safeParse('+275760-09-13T00:00:00.000Z').error?.issues[0]?.message).toBe('expected a date in the years 1–9999');
    expect(isoDate.safeParse(8.64e15).success).toBe(false);
    expect(isoDate.parse('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59.000Z');
  });

  it('reads flags in any spelling, falls back when absent, and refuses the unreadable', () => {
    expect(flag(false).parse('YES')).toBe(true);
    expect(flag(true).parse(' off ')).toBe(false);
    expect(flag(true).parse(undefined)).toBe(true);
    expect(flag(false).safeParse('maybe').success).toBe(false);
  });
});

describe("a snapshot's public part of an answer", () => {
  const now = Date.parse('2026-11-01T12:00:00Z');
  const answer = (data: unknown) => Buffer.from(JSON.stringify({ data }));
  const kept = (body: Uint8Array | null) =>
    body === null ? null : (JSON.parse(Buffer.from(body).toString('utf8')) as { data: unknown }).data;

  it('keeps public items as sent and removes hidden ones, with what hangs under them', () => {
    const items = [
      { id: 1, name: 'public', parent_id: null },
      { id: 2, name: 'draft', state: 'draft', parent_id: null },
      { id: 3, name: 'under the draft', parent_id: 2 },
    ];
    expect(kept(publicAnswer(answer(items), now))).toEqual([items[0]]);
    const body = answer([items[0]]);
    expect(publicAnswer(body, now)).toBe(body);
  });

  it('records a value nested past MAX_JSON_DEPTH as null instead of overflowing the stack', () => {
    // 100,000 levels: JSON.parse reads it; recursion and JSON.stringify over it would throw.
    const levels = 100_000;
    const deep = `${'{"a":'.repeat(levels)}{"state":"draft"}${'}'.repeat(levels)}`;
    const body = Buffer.from(`{"data":[{"id":1,"content_as_json":${deep}},{"id":2,"title":"fine"}]}`);
    const data = kept(publicAnswer(body, now)) as Array<{ id: number; content_as_json?: unknown }>;
    expect(data.map((item) => item.id)).toEqual([1, 2]);
    let value: unknown = data[0]!.content_as_json;
    let depth = 0;
    while (value && typeof value === 'object') {
      value = (value as { a?: unknown }).a;
      depth++;
    }
    expect(value).toBeNull();
    expect(depth).toBeLessThanOrEqual(MAX_JSON_DEPTH);
  });
});
