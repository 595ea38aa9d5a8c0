/**
 * After a site is published, tell the places readers and crawlers watch what
 * changed (docs/operating.md, "Discovered in seconds"): the WebSub hub each
 * changed feed (websub.ts), IndexNow each added, changed or removed page
 * (indexnow.ts), from the build's change report or what a deploy changed
 * (urls.ts). Called by whatever puts the new site online, once: the build
 * command after its swap (not with --no-notify or PRESSROOM_DEPLOY_COMMAND),
 * the webhook receiver once its deploy command succeeded, `npm run deploy --
 * --notify` after its upload and purge. The hub fetches the feed at once, and
 * must find the new one.
 *
 * Never fails what it follows: each target that could not be told is one
 * warning line, and readers and crawlers still find the change on their next
 * visit. The IndexNow key is never in a line.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PressroomConfig, Upstream } from '../src/config/environment.ts';
import type { ChangeReport } from '../scripts/change-report.ts';
import { firstLine } from '../scripts/cli.ts';
import { indexNowSubmissions, submitToIndexNow } from './indexnow.ts';
import type { Failure } from './post.ts';
import { announcementOf, reportedChanges, type SiteChanges } from './urls.ts';
import { announceToHub } from './websub.ts';

export interface NotifySettings {
  websubHub?: string | undefined;
  indexNow?: { key: string; endpoint: string } | undefined;
  /** Each request is given up past this. Default 10 s. */
  timeoutMs?: number;
}

export interface NotifyLog {
  info(line: string): void;
  warn(line: string): void;
}

/** A command's own output: warnings on stderr. */
export const consoleLog: NotifyLog = { info: (line) => console.log(line), warn: (line) => console.warn(line) };

/** The configuration's notification targets; undefined when none is set (the default). */
export function notifySettingsOf(config: PressroomConfig): NotifySettings | undefined {
  if (!config.websubHub && !config.indexNowKey) return undefined;
  return {
    websubHub: config.websubHub,
    indexNow: config.indexNowKey ? { key: config.indexNowKey, endpoint: config.indexNowEndpoint } : undefined,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line for everything a service was not told: how much of it, the first failure and what follows. */
function warning(target: string, failures: Failure[], missed: number, total: number, noun: string, after: string): string {
  const first = failures[0]!;
  return `notify: warning: ${target} was not told of ${missed} of ${plural(total, noun)} (first: ${first.subject}: ${first.reason}); ${after}`;
}

/**
 * Announces `changes`. `siteDir` is the published site: a site that asks not to be indexed (its
 * robots.txt disallows everything: a noindex press room, the demo) is never submitted to IndexNow.
 */
export async function notifyChanges(changes: SiteChanges, settings: NotifySettings, siteDir: string, log: NotifyLog): Promise<void> {
  if (changes.first) {
    log.info('notify: nothing announced: there was no earlier site to compare with (crawlers find a new site through its sitemap)');
    return;
  }
  const { feeds, pages } = announcementOf(changes);
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const hub = settings.websubHub;
  if (hub && feeds.length > 0) {
    const result = await announceToHub(hub, feeds, { timeoutMs });
    if (result.accepted > 0) log.info(`notify: WebSub hub ${hub} told of ${plural(result.accepted, 'changed feed')}`);
    if (result.failures.length > 0)
      log.warn(
        warning(
          `the WebSub hub ${hub}`,
          result.failures,
          result.failures.length,
          feeds.length,
          'changed feed',
          'subscribers get the change on their next poll',
        ),
      );
  }
  const indexNow = settings.indexNow;
  if (indexNow && pages.length > 0) {
    if (await asksNotToBeIndexed(siteDir, changes.site)) {
      log.info('notify: IndexNow not told: the site asks not to be indexed (robots.txt)');
    } else {
      const submissions = indexNowSubmissions(changes.site, indexNow.key, pages);
      const result = await submitToIndexNow(indexNow.endpoint, submissions, { timeoutMs });
      if (result.accepted > 0) log.info(`notify: IndexNow ${indexNow.endpoint} told of ${plural(result.accepted, 'changed page')}`);
      if (result.failures.length > 0)
        log.warn(
          warning(
            `IndexNow ${indexNow.endpoint}`,
            result.failures,
            pages.length - result.accepted,
            pages.length,
            'changed page',
            'search engines find the change on their next crawl',
          ),
        );
    }
  }
  if (feeds.length + pages.length === 0) log.info('notify: no feed or page changed; nothing to announce');
}

/** Whatever goes wrong while announcing, the build or deploy it follows stays a success: one warning line. */
function announceSafely(changes: SiteChanges, settings: NotifySettings, siteDir: string, log: NotifyLog): Promise<void> {
  return notifyChanges(changes, settings, siteDir, log).catch((error: unknown) =>
    log.warn(`notify: warning: nothing more announced (${firstLine(error)})`),
  );
}

/**
 * The build command, after its swap: announces what it changed, when told to. Not for the demo
 * press room (a fictional company), and not before a deploy: with PRESSROOM_DEPLOY_COMMAND the
 * site goes online only when the deploy succeeded, and the webhook receiver announces it then.
 */
export async function notifyAfterBuild(
  changes: ChangeReport,
  { config, upstream, siteDir, log }: { config: PressroomConfig; upstream: Upstream; siteDir: string; log: NotifyLog },
): Promise<void> {
  const settings = notifySettingsOf(config);
  if (!settings || upstream === 'demo') return;
  if (config.deployCommand) {
    log.info('notify: left to the webhook receiver, after PRESSROOM_DEPLOY_COMMAND has put the site online');
    return;
  }
  await announceSafely(reportedChanges(changes), settings, siteDir, log);
}

/**
 * `npm run deploy -- --notify`, once the bucket serves the site: announces the site files the deploy
 * uploaded or deleted (`files`, with those an earlier deploy left unannounced when its purge failed),
 * which is what the public sees change even where the build's change report cannot say (a fresh CI
 * checkout). A first deploy into an empty bucket announces nothing, like a first build.
 */
export async function notifyAfterDeploy(
  { site, files, first }: { site: string | undefined; files: string[]; first: boolean },
  settings: NotifySettings,
  siteDir: string,
  log: NotifyLog,
): Promise<void> {
  if (!site) {
    log.warn('notify: warning: nothing announced: no change report beside the site and no PRESSROOM_SITE_URL to make URLs from');
    return;
  }
  const present = files.filter((file) => existsSync(path.join(siteDir, file)));
  const removed = files.filter((file) => !present.includes(file));
  await announceSafely({ site, present, removed, first }, settings, siteDir, log);
}

/** Announces what the change report in `changesFile` lists (the webhook receiver, after the deploy). */
export async function notifyFromReport(changesFile: string, settings: NotifySettings, siteDir: string, log: NotifyLog): Promise<void> {
  let report: ChangeReport;
  try {
    report = JSON.parse(await readFile(changesFile, 'utf8')) as ChangeReport;
  } catch (error) {
    log.warn(`notify: warning: nothing announced: the change report ${changesFile} could not be read (${firstLine(error)})`);
    return;
  }
  await announceSafely(reportedChanges(report), settings, siteDir, log);
}

/** The site's robots.txt disallows all of it (src/lib/crawlers.ts writes `Disallow: <base>` for a noindex press room). */
async function asksNotToBeIndexed(siteDir: string, siteUrl: string): Promise<boolean> {
  const robots = await readFile(path.join(siteDir, 'robots.txt'), 'utf8').catch(() => '');
  const base = new URL(siteUrl.replace(/\/?$/, '/')).pathname;
  return robots.split('\n').some((line) => line.trim() === `Disallow: ${base}`);
}
