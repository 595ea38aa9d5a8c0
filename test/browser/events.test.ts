/**
 * Upcoming, live and past decided by the reader's clock (Playwright's clock stands in for it) in
 * Chromium, over the built demo site: /events/, an event page and the home page's teaser before,
 * during and after an event, a page left open across an event's start and end, and the pages
 * without JavaScript, which call nothing live.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, hasChromium, launchChromium, noChromium, serveStatic, type StaticServer } from './helpers.ts';
import { contextAt, expectWebinarPhases, readBoard, readEventPage, WEBINAR, WEBINAR_AT } from './event-phases.ts';

const siteDir = inject('siteDir');
let browser: Browser;
let server: StaticServer;
let webinarPath: string;

beforeAll(async () => {
  if (!hasChromium) return;
  [browser, server] = await Promise.all([launchChromium(), serveStatic(siteDir)]);
  const html = readFileSync(path.join(siteDir, 'events', 'index.html'), 'utf8');
  webinarPath = /href="(\/events\/700033-[^"]+)"/.exec(html)![1]!;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)("events by the reader's clock", () => {
  it('shows the webinar under "Upcoming events", then "Live now" with its badge, then "Past events"', async () => {
    await expectWebinarPhases(browser, `${server.origin}/events/`, `${server.origin}${webinarPath}`);
  });

  it("decides by the instant, whatever the reader's time zone", async () => {
    await expectWebinarPhases(browser, `${server.origin}/events/`, `${server.origin}${webinarPath}`, 'Pacific/Auckland');
  });

  it('moves events on while the page stays open: live at the start, past at the end', async () => {
    const context = await contextAt(browser, '2026-11-01T06:59:00.000Z');
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/events/`);
      expect((await readBoard(page)).live).toEqual([]);
      await page.clock.runFor('01:30');
      expect(await readBoard(page)).toMatchObject({ live: [WEBINAR], sections: { 'Live now': [WEBINAR] } });
      await page.clock.runFor('06:00:00');
      const after = await readBoard(page);
      expect(after.live).toEqual([]);
      expect(after.sections['Live now']).toBeUndefined();
      expect(after.sections['Past events']?.[0]).toBe(WEBINAR);
    } finally {
      await context.close();
    }
  });

  it('lists every event under one heading and none twice, months later: all past, newest first, and no upcoming', async () => {
    const context = await contextAt(browser, '2027-06-01T00:00:00.000Z');
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/events/`);
      const { sections } = await readBoard(page);
      expect(Object.keys(sections)).toEqual(['Past events']);
      expect(sections['Past events']!.length).toBe(13);
      expect(await page.getByText('No upcoming events are planned at the moment.').isVisible()).toBe(true);
      // Year headings follow the moved events (2027 had only upcoming ones as built).
      expect(await page.locator('.year-heading').allTextContents()).toEqual(['2027', '2026', '2025', '2024', '2023']);
      await page.goto(`${server.origin}/`);
      expect(
        await page.getByRole('region', { name: 'Upcoming events' }).getByText('No upcoming events are planned at the moment.').isVisible(),
      ).toBe(true);
      expect((await readBoard(page)).sections['Upcoming events']).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it("keeps the home page's teaser to events not ended yet, the live one with its badge", async () => {
    for (const [moment, live, listed] of [
      ['during', [WEBINAR], true],
      ['after', [], false],
    ] as const) {
      const context = await contextAt(browser, WEBINAR_AT[moment]);
      try {
        const page = await context.newPage();
        await page.goto(`${server.origin}/`);
        const board = await readBoard(page);
        expect(board.live, moment).toEqual(live);
        expect(board.sections['Upcoming events']?.includes(WEBINAR), moment).toBe(listed);
        expect(board.sections['Upcoming events']?.length, moment).toBeGreaterThan(2);
      } finally {
        await context.close();
      }
    }
  });

  it('has no accessibility violation on /events/ with an event live', async () => {
    const context = await contextAt(browser, WEBINAR_AT.during);
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/events/`);
      expect((await readBoard(page)).live).toEqual([WEBINAR]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('calls nothing live without JavaScript, even during the event, and lists as built', async () => {
    const context = await contextAt(browser, WEBINAR_AT.during, { javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/events/`);
      const board = await readBoard(page);
      expect(board.live).toEqual([]);
      expect(board.sections['Live now']).toBeUndefined();
      // As built on the demo's day: the webinar had not ended when the day began.
      expect(board.sections['Upcoming events']?.[0]).toBe(WEBINAR);
      expect(board.sections['Past events']?.length).toBe(8);
      await page.goto(`${server.origin}${webinarPath}`);
      expect(await readEventPage(page)).toEqual({ liveBadges: 0, streamButton: true });
      await page.goto(`${server.origin}/`);
      expect((await readBoard(page)).live).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

it.skipIf(hasChromium)('browser tests need Chromium', noChromium);
