/**
 * The build day end to end, registered into test/build/builds.test.ts (whose builds run one after
 * another: two Astro builds of one checkout must never overlap) and reusing its demo snapshot and
 * the two builds it makes of it at two hours of one day (the same bytes): a build the next day
 * differs from them only in the day-bound files; and the offline archive's event pages classify by the reader's clock from file://.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectWebinarPhases } from '../browser/event-phases.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const run = promisify(execFile);

/** Files whose bytes follow the build day (docs/site.md, Events and time): every other file is the same on any day. */
export const DAY_BOUND = [
  /^\.pressroom-build\.json$/,
  /^sitemap-news(-\d+)?\.xml$/,
  // Names the news sitemap only on days that have one.
  /^robots\.txt$/,
  /^events\/.*\.ics$/,
  /^events\/index\.html$/,
  /^index\.html$/,
];

async function hashes(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(
      path.relative(dir, file).split(path.sep).join('/'),
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return out;
}

const epoch = (iso: string) => String(Date.parse(iso) / 1000);

/**
 * Two build clocks of one build day: the demo press room's zone is Amsterdam, so 00:30 and 23:30
 * there on 1 November. builds.test.ts builds its demo snapshot at both (into `a` and `b`, which it
 * proves byte-identical); the tests here add a build on the morning after.
 */
export const SAME_DAY_EPOCHS = { early: epoch('2026-10-31T23:30:00Z'), late: epoch('2026-11-01T22:30:00Z') } as const;

/** Registers the build-day tests; `setup()` gives the project root, a temp folder and the demo snapshot recorded earlier in the file. */
export function buildDayTests(setup: () => { root: string; tmp: string; snapshot: string }): void {
  describe('the build day', () => {
    it('writes the same bytes all day, and the next day changes only the day-bound files', async () => {
      const { root, tmp, snapshot } = setup();
      // The snapshot test's two builds of one day (SAME_DAY_EPOCHS).
      const built = async (name: string) => ({ out: path.join(tmp, name), files: await hashes(path.join(tmp, name)) });
      const early = await built('a');
      const late = await built('b');
      const nextOut = path.join(tmp, 'day-next');
      const env = { ...process.env, PRESSROOM_SNAPSHOT: snapshot, PRESSROOM_API_URL: '', SOURCE_DATE_EPOCH: epoch('2026-11-02T08:00:00Z') };
      await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', nextOut], {
        cwd: root,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
      const next = { out: nextOut, files: await hashes(nextOut) };

      expect(early.files.size).toBeGreaterThan(500);
      expect(late.files).toEqual(early.files);

      const changed = [...new Set([...early.files.keys(), ...next.files.keys()])]
        .filter((f) => early.files.get(f) !== next.files.get(f))
        .sort();
      expect(changed.filter((f) => !DAY_BOUND.some((pattern) => pattern.test(f)))).toEqual([]);
      // The record and every calendar stamp move with the day; the webinar of 1 November is past on the 2nd.
      expect(changed).toEqual(expect.arrayContaining(['.pressroom-build.json', 'events/calendar.ics', 'events/index.html', 'index.html']));
      expect(JSON.parse(await readFile(path.join(next.out, '.pressroom-build.json'), 'utf8'))).toMatchObject({
        day: '2026-11-02',
        timeZone: 'Europe/Amsterdam',
      });
      const section = (html: string, group: string) => html.slice(html.indexOf(`data-event-group="${group}"`)).split('</section>')[0]!;
      const webinar = '/events/700033-';
      expect(section(await readFile(path.join(early.out, 'events', 'index.html'), 'utf8'), 'upcoming')).toContain(webinar);
      expect(section(await readFile(path.join(next.out, 'events', 'index.html'), 'utf8'), 'past')).toContain(webinar);
    }, 600_000);

    it('refuses a SOURCE_DATE_EPOCH that is not seconds, naming it, and keeps the previous site', async () => {
      const { root, tmp, snapshot } = setup();
      const out = path.join(tmp, 'day-next');
      const before = await hashes(out);
      const env = { ...process.env, PRESSROOM_SNAPSHOT: snapshot, PRESSROOM_API_URL: '', SOURCE_DATE_EPOCH: '2026-11-01' };
      const failed = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out], { cwd: root, env }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      // A configuration error, found before anything runs (docs/configuration.md, Commands: exit 2).
      expect((failed as { code: number }).code).toBe(2);
      expect((failed as { stderr: string }).stderr).toMatch(/^build: SOURCE_DATE_EPOCH="2026-11-01" is not a whole number of seconds/);
      expect(await hashes(out)).toEqual(before);
    }, 120_000);
  });
}

/** The archive's /events/ and the webinar's page, opened from file:// before, during and after the webinar. */
export async function expectArchiveEventPhases(browser: Browser, siteDir: string): Promise<void> {
  const webinar = (await readdir(path.join(siteDir, 'events'))).find((name) => name.startsWith('700033-'));
  expect(webinar).toBeDefined();
  await expectWebinarPhases(
    browser,
    pathToFileURL(path.join(siteDir, 'events', 'index.html')).href,
    pathToFileURL(path.join(siteDir, 'events', webinar!, 'index.html')).href,
  );
}
