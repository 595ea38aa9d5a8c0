/**
 * One change in a warm renderer: the content loaded again in this process, only the routes the
 * planner (route-plan.ts) proves changed rendered through the kept App, and a new site assembled in
 * a staging folder from them and hard links of the live site's other files (partial-build.ts: never
 * written to; linked on another thread while the content loads, those the plan does not keep
 * unlinked before anything is written), then the sitemap from the route record, the search index
 * (the bundles whose pages it left alone linked from the live site, the others indexed again, most
 * of them by Pagefind's process while the routes still render: search-ahead.ts), the
 * site check, the swap, and the change report, fingerprint and route record written as a build
 * writes them. A change whose deliveries named a few releases loads only those before the swap and
 * every collection after it (content-refresh.ts): if that found more, the fingerprint claims no
 * upstream state (the next build or change renders what changed) and the outcome says `stale`. The
 * walks of the live and the new site (120,000 files at L) run on threads of their own while this
 * one waits on the API and on Pagefind. Anything it cannot prove is `{ full: why }`
 * before the live site is touched: the caller then builds in full.
 */
import { constants, existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegrationLogger } from 'astro';
import type { PressroomConfig } from '../../src/config/environment.ts';
import { publicationInstant } from '../../src/config/clock.ts';
import { fileOfPropsKey, pageNameOf, type RecordedRoutes } from '../../src/integrations/route-recorder.ts';
import { buildSearchIndex, writeSearchController } from '../../src/integrations/search.ts';
import { configureImagePipeline, currentImagePipeline } from '../../src/lib/image-pipeline.ts';
import type { UsedByRoute } from '../../src/lib/route-record.ts';
import { checkSite } from '../../src/output/site-check.ts';
import { PAGEFIND_DIR } from '../../src/search/vocabulary.ts';
import { forgetSiteIcons } from '../../src/lib/site-icons.ts';
import { writeSiteIcons } from '../../src/integrations/site-icons.ts';
import { createStaging, removeFolder, runId, swapIn } from '../../src/output/staged-output.ts';
import { acquireLocks, buildLocks } from '../build-lock.ts';
import { recordFingerprint, type RecordedSite } from '../build-command.ts';
import { codeDigest, codeInputs, type CodeInputs } from '../build-inputs.ts';
import { writeDataReport } from '../data-report.ts';
import { changeReport, changeReportPath, changeSummary, writeChangeReport, type ChangeReport } from '../change-report.ts';
import { carriedOriginals, fingerprintPath, readFingerprint, removeFingerprint, type Fingerprint } from '../fingerprint.ts';
import type { OriginalOutcome } from '@pressroom-static/image-pipeline';
import { loadTree, readTree, readTreeInBackground, subtree, treeDifference, withSubtree, type Tree } from '../output-tree.ts';
import { fileIdentity } from '../../src/lib/file-identity.ts';
import { linkOwnedFiles, partialBuild, readSearchMembership, reuseUnchangedSearchBundles } from '../partial-build.ts';
import { linkInto } from '../assembly/hard-links.ts';
import { readRouteRecord, removeRouteRecord, routeRecordPath, type RouteRecord } from '../route-record-file.ts';
import { sameConfiguration } from '../route-plan.ts';
import { keptDataStore, routeCacheOf, runBuildDone, type KeptContentLayer } from './astro-internals.ts';
import { refreshContent, type RefreshedContent } from './content-refresh.ts';
import { searchAhead, type SearchAhead } from './search-ahead.ts';
import type { KeptApp } from './kept-app.ts';
import { describeScope, type ChangeScope } from '../../webhook-receiver/change-scope.ts';
import { startedBuildRuntime } from '../../src/config/build-runtime.ts';

export interface WarmSite {
  root: string;
  out: string;
  config: PressroomConfig;
  /** The configuration the kept build was made with (build-inputs.ts `configurationOf`). */
  configuration: Record<string, string | null>;
  /** The code the kept build bundled. */
  code: CodeInputs;
  waitMs: number;
  log: (line: string) => void;
}

export type ChangeOutcome =
  | { full: string }
  /** `stale`: the full sync after a targeted load found changes the live site does not show yet (one line). */
  | { changes: ChangeReport; summary: string; stale?: string };

const MEDIA_DIR = '_media';

/**
 * `answer` is called once the new site is swapped in, with the summary (timed to the swap): the
 * delivery is answered then. What follows (removing the previous site's folder, writing the
 * fingerprint and route record) is bookkeeping for the next change, done under the same locks; if
 * it fails the site stays live without a record, and the next build renders in full.
 */
export async function warmChange(
  site: WarmSite,
  app: KeptApp,
  layer: KeptContentLayer,
  answer: (summary: string) => Promise<void> = async () => {},
  scope?: ChangeScope,
): Promise<ChangeOutcome> {
  const { root, out, log } = site;
  const started = performance.now();
  const locks = await acquireLocks(buildLocks(root, out), { waitMs: site.waitMs, command: 'build', log });
  /** The synced data store, until its file is written. */
  let refreshed: RefreshedContent | undefined;
  try {
    const live = await liveSite(site);
    if ('full' in live) return live;
    const { recorded, previous, built: published } = live;
    log('build: warm: loading the change');

    const steps: Array<[string, number]> = [];
    let stepStarted = started;
    const step = (name: string) => {
      const now = performance.now();
      steps.push([name, now - stepStarted]);
      stepStarted = now;
    };
    step('checks');
    const id = runId();
    const staging = await createStaging(root, id);
    /** Every file the live site's routes own, linked into the staging folder on a thread while the content loads. */
    let linking: Promise<void> | undefined;
    /** The search bundles indexed while the routes render. */
    let ahead: SearchAhead | undefined;
    try {
      linking = linkOwnedFiles(previous, out, staging);
      // Handled now, awaited after the plan: a file missing from the live site fails it before then (the damage check says why).
      linking.catch(() => undefined);
      // The live site's files are listed on a thread of their own too, while the content loads and the plan is made
      // (at L 1.3-2.0 s, longer than loading the releases a delivery names); checked before anything is written.
      const liveListing = readTreeInBackground(out, published);
      liveListing.catch(() => undefined);
      refreshed = await refreshContent({ layer, store: keptDataStore(layer)!, routeCache: routeCacheOf(app.inner()!)!, scope });
      // The pages kept from the live site use the originals its fingerprint recorded; the pages rendered
      // now take them as recorded too, without a request each (a cron build's no-change check asks).
      configureImagePipeline({ trustedOriginals: recordedBytes(recorded.media) });
      forgetSiteIcons();
      const apiRequests = (await startedBuildRuntime())?.client.stats().requests ?? 0;
      step('content');
      const { selection, byFile } = await app.routes();
      let planSaid = '';
      const partial = partialBuild({
        previous,
        previousDir: out,
        // The files as published: the listing must find them so, or nothing below is written.
        previousFiles: published.keys(),
        code: codeDigest(site.code),
        configuration: site.configuration,
        site: { origin: site.config.siteOrigin, base: site.config.basePath },
        log: (line) => (planSaid = line),
      });
      const chosen = partial.select(selection);
      const plan = partial.plan();
      if (!chosen || !plan)
        return { full: planSaid.replace(/^build: rendering in full: /, '') || 'the planner cannot prove which routes changed' };
      step('plan');
      const before = (await liveListing).tree;
      const damage = treeDifference(published, before);
      if (damage) return { full: `the site in ${out} is not as built: ${damage}` };
      await linking;
      // What the routes write again is unlinked first: no write ever goes into a file the live site shares ('wx' below).
      partial.prune(staging);
      step('links');

      const uses = new Map<string, UsedByRoute>(partial.kept());
      // The live site's search bundles, read once for both: those indexed ahead and those kept as they are.
      const liveSearch = await readSearchMembership(out);
      ahead = await searchAhead({
        live: out,
        membership: liveSearch,
        staging,
        aside: `${staging}-search`,
        render: plan.render,
        own: new Set(plan.changed.map(fileOfPropsKey).filter((file) => file !== undefined)),
        fresh: plan.remove.length > 0 || plan.render.some((file) => !(file in previous.routes)),
      });
      for (const file of ahead.order) {
        const route = byFile.get(file);
        if (!route) throw new Error(`${file} is planned but no route gives it`);
        const { body, use } = await app.render(file, route);
        uses.set(file, use);
        await mkdir(path.dirname(path.join(staging, file)), { recursive: true });
        await writeFile(path.join(staging, file), body, { flag: 'wx' });
        ahead.written(file, body);
      }
      step('render');
      await emitNewMedia(staging, out, before);
      // Pages that render ask for the icons of this data's logo and colour; else the live site's stay (finish links them).
      await writeSiteIcons(staging, path.join(root, 'public'));
      step('assemble');
      // The previous site's other files (icons, the build record), and the check that no kept page names a removed route.
      await partial.finish(staging);
      await runBuildDone(app.sitemap()!, pathToFileURL(`${staging}/`), pagesOf(uses.keys()), quietLogger(log));
      await writeSearchController(staging);
      // The site but its search folder is complete: its files are listed on a thread of their own while Pagefind indexes.
      // The kept files are the live site's, hard-linked (same size and mtime): only what this change wrote is hashed.
      const [search, listed] = await both(
        // Its pages are the routes: the staging folder is not walked for them.
        reuseUnchangedSearchBundles(out, liveSearch).then(async (live) => {
          // The bundles indexed ahead are done first (at L before the render is): the index step closes Pagefind when it ends.
          await ahead!.indexed();
          return buildSearchIndex(staging, {
            reuse: async (bundle, dir) => (await live(bundle, dir)) || ahead!.reuse(bundle, dir),
            files: selection.routes,
          });
        }),
        readTreeInBackground(staging, before, { skipFolder: PAGEFIND_DIR }),
      );
      step('sitemap, search');
      const searchFiles = await readTree(path.join(staging, PAGEFIND_DIR), subtree(before, PAGEFIND_DIR));
      const built = withSubtree(listed.tree, PAGEFIND_DIR, searchFiles.tree);
      await checkSite(staging, selection.routes, built);
      const changes = changeReport(before, built, site.config.siteUrl);
      step('check');
      locks.assertHeld();
      await removeFingerprint(out);
      await removeRouteRecord(out);
      await rm(changeReportPath(out), { force: true });
      const replaced = await swapIn(staging, out, id);
      await writeChangeReport(out, changes);
      step('swap');
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const took = steps.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)}`).join(', ');
      const items = plan.changed.filter((key) => !/^(?:list|map|derived|site|props):/.test(key));
      const indexedAhead = ahead.taken();
      const searched = `search bundles: ${search.bundles - search.reusedBundles + indexedAhead} indexed (${indexedAhead} while rendering), ${search.reusedBundles - indexedAhead} kept; ${search.pagesRead} pages read`;
      const asked = `${scope ? `${describeScope(scope)} loaded alone, ` : ''}${apiRequests} API ${apiRequests === 1 ? 'request' : 'requests'}`;
      const summary = `${plan.render.length} of ${selection.routes.length} routes rendered (${items.length} changed items) in ${seconds} s (${took}; ${asked}; ${searched})`;
      log(`build: warm: ${summary}; changes: ${changeSummary(changes)}`);
      await answer(summary);

      const swapped = performance.now();
      // The fingerprint and the data report cover every collection, as a build's: the ones no page reads are synced now,
      // while the previous site's folder is removed (the one waits on the API, the other on the disk).
      const [stale] = await both(refreshed.syncTheRest(), replaced ? removeFolder(replaced) : Promise.resolve(undefined));
      if (stale) log(`build: warm: ${stale}: one more change follows`);
      await writeDataReport(out);
      const written = await recordFingerprint(out, built, {
        code: site.code,
        configuration: site.configuration,
        originals: carriedOriginals(recorded.media, await (await currentImagePipeline()?.catch(() => undefined))?.originals()),
        routes: recordOf(uses, selection.digest),
        // The site shows the named releases as they are now and the rest as they were: no state the API answered at once.
        unconfirmed: stale !== undefined,
      });
      lastWritten = written && { ...written, identity: recordIdentity(out) };
      await refreshed.writeStore();
      refreshed = undefined;
      log(
        `build: warm: the previous site removed, the fingerprint, route record and data store written in ${((performance.now() - swapped) / 1000).toFixed(1)} s`,
      );
      return { changes, summary, ...(stale ? { stale } : {}) };
    } finally {
      // Never removed under the linking thread; a failure to link is thrown above when it matters.
      await linking?.catch(() => undefined);
      await ahead?.close();
      await removeFolder(staging);
    }
  } finally {
    // A change that went no further still leaves the store file as a sync writes it (a new process reads it).
    await refreshed?.writeStore().catch(() => undefined);
    await locks.release();
  }
}

/**
 * The live site as recorded, read once: or why this change cannot be made warm, before anything
 * loads (what a new build process would see differently). Whether its files are still as built is
 * read while the content loads (`readTreeInBackground`).
 */
async function liveSite({ root, out, code, configuration }: WarmSite): Promise<{ full: string } | LiveSite> {
  const full = (why: string) => ({ full: why });
  const now = codeDigest(await codeInputs(root));
  if (now !== codeDigest(code)) return full(`the code changed since this renderer started (${codeDigest(code)} → ${now})`);
  // What this renderer wrote last, unless the files are no longer those it wrote.
  const kept =
    lastWritten?.record && lastWritten.identity !== undefined && lastWritten.identity === recordIdentity(out) ? lastWritten : undefined;
  lastWritten = undefined;
  const recorded = kept?.fingerprint ?? (await readFingerprint(out));
  if ('missing' in recorded) return full(recorded.missing);
  const previous = kept?.record ?? (await readRouteRecord(out));
  if ('missing' in previous) return full(previous.missing);
  if (previous.code !== now) return full('the site in --out was rendered by other code');
  if (!sameConfiguration(previous.configuration, configuration)) return full('the site in --out was rendered with another configuration');
  if (recorded.nextEmbargoLift && Date.parse(recorded.nextEmbargoLift) <= publicationInstant(process.env))
    return full(`an embargo lifted at ${recorded.nextEmbargoLift}`);
  return { recorded, previous, built: kept?.published ?? loadTree(recorded.output) };
}

/**
 * The fingerprint, route record and tree this renderer wrote after its last change, kept for the next
 * one instead of reading and parsing them again (at L 20 and 34 MB: 0.8 s): used only while both
 * files are the very ones it wrote (src/lib/file-identity.ts).
 */
let lastWritten: (RecordedSite & { identity: string | undefined }) | undefined;

/** The fingerprint's and route record's file identities; undefined when either is missing. */
function recordIdentity(out: string): string | undefined {
  const identities = [fingerprintPath(out), routeRecordPath(out)].map(fileIdentity);
  return identities.every(Boolean) ? identities.join(' ') : undefined;
}

interface LiveSite {
  recorded: Fingerprint;
  previous: RouteRecord;
  /** The site's files as the fingerprint says they were published. */
  built: Tree;
}

/** Every page of the site, as Astro hands them to `astro:build:done` (the sitemap lists them). */
const pagesOf = (files: Iterable<string>): Array<{ pathname: string }> =>
  [...files]
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => ({ pathname: pageNameOf(file) }));

/**
 * Brings into the staging folder the outputs this change's pipeline published that it does not have
 * (the others are there, linked from the live site: never written to). An output's name is a digest
 * of what it is made from, so one the live site has (a re-rendered page's picture zip) is linked from
 * it: not copied again nor hashed again by the site check. Only a new one (a new or replaced
 * picture) is copied from the cache, as the pipeline's emit would.
 */
async function emitNewMedia(staging: string, live: string, liveFiles: Tree): Promise<void> {
  const pipeline = await currentImagePipeline()?.catch(() => undefined);
  if (!pipeline) return;
  const fromLive: string[] = [];
  for (const [name, cached] of pipeline.published()) {
    const file = `${MEDIA_DIR}/${name}`;
    const target = path.join(staging, file);
    if (existsSync(target)) continue;
    if (liveFiles.has(file)) {
      fromLive.push(file);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(cached, target, constants.COPYFILE_FICLONE);
  }
  linkInto(live, staging, fromLive);
}

/**
 * Waits for both (neither is left running under what comes next), then throws the first one's
 * failure, else the second's.
 */
async function both<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}

/** URL → SHA-256 of each original the fingerprint lists with bytes. */
function recordedBytes(outcomes: readonly OriginalOutcome[]): Map<string, string> {
  const bytes = new Map<string, string>();
  for (const outcome of outcomes) if ('sha256' in outcome) bytes.set(outcome.url, outcome.sha256);
  return bytes;
}

/** The route record carried forward: kept routes as they were, rendered ones as they read now, every key digested now. */
function recordOf(uses: ReadonlyMap<string, UsedByRoute>, digest: (key: string) => string | undefined): RecordedRoutes {
  const digests = new Map<string, string>();
  for (const use of uses.values())
    for (const key of use.keys) {
      if (digests.has(key)) continue;
      const value = digest(key);
      if (value !== undefined) digests.set(key, value);
    }
  return { routes: new Map(uses), digests };
}

function quietLogger(log: (line: string) => void): AstroIntegrationLogger {
  const logger = {
    options: { dest: { write: () => true }, level: 'warn' },
    label: 'warm',
    fork: () => logger,
    info: () => undefined,
    debug: () => undefined,
    warn: (message: string) => log(`build: warm: ${message}`),
    error: (message: string) => log(`build: warm: ${message}`),
  };
  return logger as unknown as AstroIntegrationLogger;
}
