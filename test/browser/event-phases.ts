/**
 * What a reader sees of the demo's events at a given moment (Playwright's clock stands in for the
 * reader's): which events are under which heading of /events/, which carry a visible live badge, and
 * what an event page shows. Shared by test/browser/events.test.ts (served) and the offline archive's
 * check (test/build/builds.test.ts, from file://).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The demo's online event of its own day: 1 November 2026, 08:00–14:00 in Amsterdam. */
export const WEBINAR = 'Webinar: die Zukunft von Paketzustellung auf der letzten Meile';
export const WEBINAR_AT = {
  before: '2026-11-01T06:30:00.000Z',
  during: '2026-11-01T10:00:00.000Z',
  after: '2026-11-01T13:30:00.000Z',
} as const;

/** A context whose clock reads `time` (and runs on from there) before any page script runs. */
export async function contextAt(
  browser: Browser,
  time: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.clock.install({ time: new Date(time) });
  return context;
}

export interface Board {
  /** Visible section heading → the titles of the events a reader sees under it, in order. */
  sections: Record<string, string[]>;
  /** Titles of the events whose live badge a reader sees. */
  live: string[];
}

/** What /events/ (or any page with event items) shows now. */
export function readBoard(page: Page): Promise<Board> {
  return page.evaluate(() => {
    const visible = (el: Element) => el.checkVisibility();
    const titleOf = (el: Element) => el.querySelector('.event__title')?.textContent?.trim() ?? '';
    const sections: Record<string, string[]> = {};
    for (const section of document.querySelectorAll('main section')) {
      const heading = section.querySelector('h2');
      const items = [...section.querySelectorAll('article.event')].filter(visible);
      if (heading && visible(section) && items.length > 0) sections[heading.textContent!.trim()] = items.map(titleOf);
    }
    const live = [...document.querySelectorAll('article.event')]
      .filter((a) => [...a.querySelectorAll('.badge--live')].some(visible))
      .map(titleOf);
    return { sections, live };
  });
}

/** What an event page shows now: whether its live badges and its stream button are seen. */
export function readEventPage(page: Page): Promise<{ liveBadges: number; streamButton: boolean }> {
  return page.evaluate(() => ({
    liveBadges: [...document.querySelectorAll('main .badge--live')].filter((b) => b.checkVisibility()).length,
    streamButton: [...document.querySelectorAll('main .button-row a.external')].some((a) => a.checkVisibility()),
  }));
}

/**
 * The webinar before, during and after it, at `eventsUrl` and `webinarUrl` (an http or file URL):
 * under "Upcoming events", then "Live now" with its badge (the only one), then first under "Past events".
 */
export async function expectWebinarPhases(browser: Browser, eventsUrl: string, webinarUrl: string, timezoneId?: string): Promise<void> {
  const expected = {
    before: { heading: 'Upcoming events', live: [], liveBadges: 0, streamButton: true },
    during: { heading: 'Live now', live: [WEBINAR], liveBadges: 2, streamButton: true },
    after: { heading: 'Past events', live: [], liveBadges: 0, streamButton: false },
  } as const;
  for (const moment of ['before', 'during', 'after'] as const) {
    const context = await contextAt(browser, WEBINAR_AT[moment], timezoneId ? { timezoneId } : {});
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(eventsUrl);
      const board = await readBoard(page);
      const under = Object.entries(board.sections)
        .filter(([, titles]) => titles.includes(WEBINAR))
        .map(([heading]) => heading);
      expect(under, `${moment}: the webinar's heading`).toEqual([expected[moment].heading]);
      if (moment === 'during') expect(board.sections['Live now']).toEqual([WEBINAR]);
      if (moment === 'after') expect(board.sections['Past events']?.[0]).toBe(WEBINAR);
      expect(board.live, `${moment}: live badges on /events/`).toEqual(expected[moment].live);
      await page.goto(webinarUrl);
      const shown = await readEventPage(page);
      // During: the badge by "Events" above the title and the one by "Live updates".
      expect(shown, `${moment}: the webinar's page`).toEqual({
        liveBadges: expected[moment].liveBadges,
        streamButton: expected[moment].streamButton,
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }
}
