/**
 * `npm run build [-- --out DIR]`: builds the site in a staging folder of the
 * project, checks it is complete, and only then swaps it in, so a build that
 * cannot finish leaves the previous site exactly as it was. One build per
 * project and per output folder at a time (build-lock.ts); a second one waits
 * for the first. Default output: `dist/`.
 *
 * Before rendering, the no-change check (no-change.ts) compares everything
 * that decides the site with the fingerprint beside it (`DIR.fingerprint.json`):
 * when nothing changed the site is confirmed as it is and nothing renders
 * (`--force` renders anyway). Every build that exits 0 writes its change
 * report beside the site (`DIR.changes.json`, change-report.ts). When something
 * changed and the route record beside the site (`DIR.routes.json`) can prove which
 * routes it touches, only those render (partial-build.ts); the rest is linked
 * from the previous site. A build that
 * changed the site then announces it (notify/: PRESSROOM_WEBSUB_HUB,
 * PRESSROOM_INDEXNOW_KEY), unless PRESSROOM_DEPLOY_COMMAND is set or --no-notify
 * given: the site is then not public until a deploy, which announces it (the
 * webhook receiver, or `npm run deploy -- --notify`).
 */
import { existsSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, upstreamOf, type PressroomConfig, type Upstream } from '../src/config/environment.ts';
import { openBuildSession } from '../src/config/session.ts';
import { loadDotEnv } from '../src/config/dot-env.ts';
import { demoRequested, requestDemo } from '../src/config/demo-upstream.ts';
import { assertSnapshotFolder, formatBytes } from '@pressroom-static/content-loaders';
import { acquireLocks, buildLocks, type HeldLocks } from './build-lock.ts';
import { EXIT, UsageError, firstLine, integerFlag, parseCommandLine } from './cli.ts';
import { BUILD_COMMAND, DEFAULT_WAIT_S } from './build-spec.ts';
import { checkSite, plannedOutput } from '../src/output/site-check.ts';
import { writeDataReport } from './data-report.ts';
import {
  assertReplaceable,
  createStaging,
  publish,
  removeFolder,
  removeFolderNow,
  runId,
  sweepBeside,
} from '../src/output/staged-output.ts';
import { startedBuildRuntime } from '../src/config/build-runtime.ts';
import { codeDigest, codeInputs, configurationOf, type CodeInputs } from './build-inputs.ts';
import markdownCache from '../src/integrations/markdown-cache.ts';
import { changeReport, changeReportPath, changeSummary, writeChangeReport, type ChangeReport } from './change-report.ts';
import {
  FINGERPRINT_FORMAT,
  carriedOriginals,
  builtDay,
  originalsRecorder,
  readFingerprint,
  removeFingerprint,
  unsettled,
  writeFingerprint,
  type Fingerprint,
} from './fingerprint.ts';
import { settledOrStalled } from '../src/lib/stall-guard.ts';
import { stopWorkersWait } from '../scale-out/build-wait.ts';
import { confirmUnchanged, type Verdict } from './no-change.ts';
import { loadTree, readTree, readTreeInBackground, storeTree, treeDifference, type Tree } from './output-tree.ts';
import { byPath } from '../src/lib/site-files.ts';
import { consoleLog, notifyAfterBuild } from '../notify/notify.ts';
import { routeRecorder, type KeptPrerenderers, type PartialRendering, type RecordedRoutes } from '../src/integrations/route-recorder.ts';
import { readRouteRecord, removeRouteRecord, routeRecordOf, writeRouteRecord, type RouteRecord } from './route-record-file.ts';
import { StaleKeptPage, partialBuild, reuseUnchangedSearchBundles } from './partial-build.ts';
import { reuseSearchBundles } from '../src/integrations/search.ts';

const root = path.resolve(import.meta.dirname, '..');
/** What every build of this site writes: an existing --out without them is not replaced. */
const SITE_SIGNATURE = ['index.html', '_astro'];

// Builds run in CI and cron jobs with no network; never phone home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

interface BuildPlan {
  out: string;
  waitMs: number;
  force: boolean;
  /** Tell the WebSub hub and IndexNow what changed (not with --no-notify). */
  notify: boolean;
  upstream: Upstream;
  /** The PRESSROOM_* configuration, parsed once: the build session's (src/config/session.ts), handed to the integrations. */
  config: PressroomConfig;
  configuration: Record<string, string | null>;
}

/** The command line and the environment, checked; a number is the exit code of a build that cannot start. */
async function planBuild(args: string[]): Promise<BuildPlan | number> {
  const parsed = parseCommandLine(BUILD_COMMAND, args);
  if ('exit' in parsed) return parsed.exit;
  const { values } = parsed;
  let waitMs: number;
  try {
    waitMs = integerFlag('wait', values.wait, DEFAULT_WAIT_S, 0, 86_400) * 1000;
  } catch (error) {
    console.error(`build: ${(error as UsageError).message}`);
    return EXIT.usage;
  }
  const out = path.resolve(typeof values.out === 'string' ? values.out : path.join(root, 'dist'));
  // A snapshot folder given in the environment is relative to where the command was started.
  if (process.env.PRESSROOM_SNAPSHOT?.trim()) process.env.PRESSROOM_SNAPSHOT = path.resolve(process.env.PRESSROOM_SNAPSHOT.trim());
  // Astro writes its prerender chunks under the output folder and imports packages from there:
  // only folders inside the working directory resolve this project's node_modules.
  process.chdir(root);
  loadDotEnv(root);
  if (values.strict) process.env.PRESSROOM_STRICT = '1';
  try {
    if (values.demo) requestDemo(process.env);
    const config = loadConfig(process.env);
    const upstream = upstreamOf(process.env, { demo: demoRequested(), publish: true, config });
    // Also checks what loadConfig does not, such as SOURCE_DATE_EPOCH.
    const configuration = configurationOf(process.env, upstream, config);
    if (upstream === 'demo') {
      const why = values.demo ? '--demo was given' : 'no PRESSROOM_* variable is set';
      console.log(
        `build: DEMO: building the bundled demo press room of a fictional company (${why}); every page is marked noindex and "demo". Set PRESSROOM_API_URL and PRESSROOM_ID to build yours.`,
      );
    }
    if (upstream === 'snapshot') await assertSnapshotFolder(process.env.PRESSROOM_SNAPSHOT!, 'PRESSROOM_SNAPSHOT');
    await assertReplaceable(out, SITE_SIGNATURE);
    return { out, waitMs, force: values.force === true, notify: values['no-notify'] !== true, upstream, config, configuration };
  } catch (error) {
    console.error(`build: ${(error as Error).message}`);
    return EXIT.usage;
  }
}

interface Recorded {
  plan: BuildPlan;
  code: CodeInputs;
  recorded: Fingerprint | { missing: string };
  siteUrl: string;
  started: number;
}

/**
 * The no-change check: true when the site in `out` was confirmed as it is (its change report
 * written); else false, or why no partial build can follow.
 */
async function confirmedUnchanged({ plan, code, recorded, siteUrl, started }: Recorded): Promise<boolean | { inFull: string }> {
  const { out, upstream, configuration } = plan;
  if (plan.force) {
    console.log('build: rendering: --force was given');
    return false;
  }
  // The check only ever saves work: whatever goes wrong in it, the build renders.
  const verdict = await confirmUnchanged({
    root,
    out,
    env: process.env,
    config: plan.config,
    upstream,
    code,
    configuration,
    recorded,
  }).catch((error: unknown): Verdict => ({ unchanged: false, reason: `the no-change check failed (${firstLine(error)})` }));
  if (verdict.unchanged) {
    await writeChangeReport(out, changeReport(verdict.tree, verdict.tree, siteUrl));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `build: nothing changed since ${verdict.since.replace(/\.\d+Z$/, 'Z')}: ${out} confirmed ` +
        `(${verdict.answers} API answers, ${verdict.originals} media originals, ${verdict.tree.size} files checked in ${seconds} s)`,
    );
    return true;
  }
  console.log(`build: rendering: ${verdict.reason}`);
  return verdict.inFull ? { inFull: verdict.inFull } : false;
}

interface RenderRun {
  out: string;
  id: string;
  siteUrl: string;
  recorded: Fingerprint | { missing: string };
  locks: HeldLocks;
  /** The staging folder while there is one, for the signal handler to remove. */
  current: { staging?: string };
  code: CodeInputs;
  config: PressroomConfig;
  /** `--wait`, for the image workers too. */
  waitMs: number;
  /** Render only the routes a change touches, when the planner can prove which (partial-build.ts). */
  partial: ReturnType<typeof partialBuild> | undefined;
  /** The site in `out` as the partial build checked it (its previous files, for the change report). */
  before: Tree | undefined;
  hooks: BuildHooks;
}

/** What a renderer kept warm (scripts/warm/) adds to a build it runs in its own process. */
export interface BuildHooks {
  /** Integrations after the build's own. */
  integrations?: AstroIntegration[];
  /** Told each selection when the build renders in full (a warm renderer observes the recorder through it). */
  observer?: PartialRendering;
  /** Keeps Astro's prerenderer and the route recorder's wrapper after the build. */
  keep?: (prerenderers: KeptPrerenderers) => void;
}

interface Rendered {
  changes: ChangeReport;
  built: Tree;
  originals: () => OriginalOutcomes;
  /** What each route read and asked for; undefined when the build could not record it. */
  routes: RecordedRoutes | undefined;
}
type OriginalOutcomes = ReturnType<ReturnType<typeof originalsRecorder>['originals']>;

/** Renders into a staging folder, checks it and swaps it in; a number is the exit code of a failed build. */
async function renderAndPublish({
  out,
  id,
  siteUrl,
  recorded,
  locks,
  current,
  code,
  config,
  waitMs,
  partial,
  before,
  hooks,
}: RenderRun): Promise<Rendered | number> {
  const staging = (current.staging = await createStaging(root, id));
  const planned = plannedOutput();
  const media = originalsRecorder();
  const rendering = partial && hooks.observer ? partialThenObserver(partial, hooks.observer) : undefined;
  const routes = routeRecorder(rendering ?? partial ?? hooks.observer, hooks.keep);
  try {
    const { build } = await import('astro');
    // astro.config.mjs reuses this configuration instead of parsing the environment again.
    openBuildSession(config, waitMs);
    // A partial build takes the search bundles whose input did not change from the site it replaces.
    reuseSearchBundles(() => (partial?.plan() ? reuseUnchangedSearchBundles(out) : undefined));
    const integrations = [
      planned.integration,
      media.integration,
      routes.integration,
      markdownCache({ code: codeDigest(code), config }),
      ...(hooks.integrations ?? []),
    ];
    await settledOrStalled(build({ root, outDir: staging, integrations }), stalledBuild);
    rendering?.built();
    await partial?.finish(staging);
    await checkSite(staging, planned.files());
    // The build's last lines: what the data policy did, and where its report is.
    const report = await writeDataReport(out);
    if (report) console.log(`${report.summary}\ndata report: ${report.file}`);
    const built = (await readTree(staging)).tree;
    const previous =
      before ?? (existsSync(out) ? (await readTree(out, 'missing' in recorded ? undefined : loadTree(recorded.output))).tree : undefined);
    const changes = changeReport(previous, built, siteUrl);
    locks.assertHeld();
    // What described the previous site must never stand beside the new one.
    await removeFingerprint(out);
    await removeRouteRecord(out);
    await rm(changeReportPath(out), { force: true });
    await publish(staging, out, id);
    return { changes, built, originals: () => media.originals(), routes: routes.recorded() };
  } catch (error) {
    // A wrong pressroom() option in astro.config.mjs, found as Astro reads it: a usage error like a wrong variable.
    if (error instanceof Error && error.name === 'PressroomOptionsError') {
      console.error(`build: ${error.message}`);
      return EXIT.usage;
    }
    await writeDataReport(out).catch(() => undefined);
    // The record missed something a kept page shows: without it the next build renders in full.
    if (error instanceof StaleKeptPage) await removeRouteRecord(out).catch(() => undefined);
    await discardFailedBuildBodies();
    await stopWorkersWait();
    console.error(`\nbuild failed: ${firstLine(error)}`);
    console.error(existsSync(out) ? `${out} was left exactly as it was.` : `no site was published (${out} was not created).`);
    return EXIT.failed;
  } finally {
    const left = await removeFolder(staging);
    if (left) console.error(`build: could not remove the staging folder ${staging} (${firstLine(left)}); the next build removes it`);
  }
}

/**
 * A partial build's rendering while the build runs, then a warm renderer's observer: the kept
 * recorder's later getStaticPaths serve the renderer's own changes, which plan for themselves.
 */
function partialThenObserver(partial: PartialRendering, observer: PartialRendering): PartialRendering & { built(): void } {
  let now = partial;
  return {
    select: (selection) => now.select(selection),
    generated: (outDir) => now.generated(outDir),
    kept: () => now.kept(),
    built: () => void (now = observer),
  };
}

/**
 * The release body files a failed build wrote are used by nothing: removed, so a build that fails
 * again and again (a hostile answer of a million items) does not fill the cache disk.
 */
async function discardFailedBuildBodies(): Promise<void> {
  const runtime = await startedBuildRuntime()?.catch(() => undefined);
  const discarded = await runtime?.bodies?.discardWritten().catch(() => undefined);
  if (discarded && discarded.files > 0)
    console.error(`build: removed the ${discarded.files} release body files (${formatBytes(discarded.bytes)}) this failed build wrote`);
}

/** The build command with `args` (its command line); a warm renderer passes `hooks`. The exit code. */
export async function runBuildCommand(args: string[] = process.argv.slice(2), hooks: BuildHooks = {}): Promise<number> {
  const plan = await planBuild(args);
  if (typeof plan === 'number') return plan;
  const { out } = plan;
  let locks: HeldLocks;
  try {
    locks = await acquireLocks(buildLocks(root, out), { waitMs: plan.waitMs, command: 'build', log: (line) => console.log(line) });
  } catch (error) {
    console.error(`build: ${(error as Error).message}`);
    return EXIT.failed;
  }
  const id = runId();
  const current: { staging?: string } = {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (current.staging) removeFolderNow(current.staging);
    console.error(`build: stopped by ${signal}; ${existsSync(out) ? `${out} was left exactly as it was` : 'no site was published'}`);
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const note of await sweepBeside(out)) console.log(`build: ${note}`);
    const started = performance.now();
    const code = await codeInputs(root);
    const { siteUrl } = plan.config;
    const recorded = await readFingerprint(out);
    // A warm renderer keeps the Astro its build ran: it renders (nothing, when nothing changed) instead of confirming.
    const confirmed = hooks.keep ? false : await confirmedUnchanged({ plan, code, recorded, siteUrl, started });
    if (confirmed === true) return EXIT.ok;
    if (confirmed) console.log(`build: rendering in full: ${confirmed.inFull}`);
    const assembled = plan.force || confirmed ? undefined : await partialOf(out, recorded, code, plan);
    const rendered = await renderAndPublish({
      out,
      id,
      siteUrl,
      recorded,
      locks,
      current,
      code,
      config: plan.config,
      waitMs: plan.waitMs,
      partial: assembled?.partial,
      before: assembled?.before,
      hooks,
    });
    if (typeof rendered === 'number') return rendered;
    try {
      console.log(`build: changes: ${changeSummary(rendered.changes)}; report: ${await writeChangeReport(out, rendered.changes)}`);
    } catch (error) {
      console.error(
        `build: ${out} is the new site, but its change report could not be written (${firstLine(error)}); purge the whole site from the CDN`,
      );
      return EXIT.failed;
    }
    const originals = rendered.originals();
    await recordFingerprint(out, rendered.built, {
      code,
      configuration: plan.configuration,
      // A partial build's pipeline saw the rendered pages' originals only; the kept pages use the recorded ones.
      originals:
        originals && assembled?.partial.plan() && !('missing' in recorded) ? carriedOriginals(recorded.media, originals) : originals,
      routes: rendered.routes,
    }).catch((error: unknown) => console.error(`build: no fingerprint written (${firstLine(error)}); the next build renders again`));
    if (plan.notify)
      await notifyAfterBuild(rendered.changes, { config: plan.config, upstream: plan.upstream, siteDir: out, log: consoleLog });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ConfigError) return EXIT.usage;
    console.error(`build failed: ${firstLine(error)}`);
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await locks.release();
  }
}

/**
 * A partial build of the site in `out`, when its route record is there and the site is as built
 * (its unchanged files are taken from it); else why the build renders in full, logged.
 */
async function partialOf(
  out: string,
  recorded: Fingerprint | { missing: string },
  code: CodeInputs,
  { configuration, config }: Pick<BuildPlan, 'configuration' | 'config'>,
): Promise<{ partial: ReturnType<typeof partialBuild>; before: Tree } | undefined> {
  const full = (why: string) => void console.log(`build: rendering in full: ${why}`);
  if ('missing' in recorded) return full(recorded.missing);
  const previous = await readRouteRecord(out);
  if ('missing' in previous) return full(previous.missing);
  let before: Tree;
  try {
    const built = loadTree(recorded.output);
    before = (await readTree(out, built)).tree;
    const damage = treeDifference(built, before);
    if (damage) return full(`the site in ${out} is not as built: ${damage}`);
  } catch (error) {
    return full(`${out} cannot be read back (${firstLine(error)})`);
  }
  const partial = partialBuild({
    previous,
    previousDir: out,
    previousFiles: before.keys(),
    code: codeDigest(code),
    configuration,
    site: { origin: config.siteOrigin, base: config.basePath },
    log: (line) => console.log(line),
  });
  return { partial, before };
}

/**
 * Writes what this build was made from beside the site it published, unless it cannot vouch for it,
 * and with it what each route was made of (route-record-file.ts), when the build recorded that.
 */
export async function recordFingerprint(
  out: string,
  built: Tree,
  {
    code,
    configuration,
    originals,
    routes,
    unconfirmed = false,
  }: {
    code: CodeInputs;
    configuration: Fingerprint['configuration'];
    originals: Fingerprint['media'] | undefined;
    routes: RecordedRoutes | undefined;
    /**
     * The site is not known to show one state the API answered (a warm change made from some
     * releases alone, the rest found changed after): no API answer is recorded, so no check
     * finds the site unchanged, while the route record still lets the next build render only
     * what changed.
     */
    unconfirmed?: boolean;
  },
): Promise<RecordedSite | undefined> {
  const runtime = await startedBuildRuntime()?.catch(() => undefined);
  const why = runtime ? unsettled(originals) : 'the build did not load the press room';
  if (why) {
    console.log(`build: no fingerprint written: ${why}; the next build renders again`);
    return undefined;
  }
  // Published by a rename the files keep the mtimes hashed in staging; copied across file systems they are hashed again.
  // Listed on a thread of its own while the route record is made and written (at L 1 s each).
  const listing = readTreeInBackground(out, built);
  // Awaited below; until then its failure must not count as unhandled.
  listing.catch(() => undefined);
  const answers = [...runtime!.client.answers()].sort(([a], [b]) => byPath(a, b));
  const buildDay = await builtDay(out);
  const record = routes && routeRecordOf(routes, { code: codeDigest(code), configuration, buildDay });
  if (record) await writeRouteRecord(out, record);
  else console.log('build: no route record written: the build did not record what its routes read; the next change renders in full');
  const published = (await listing).tree;
  const fingerprint: Fingerprint = {
    format: FINGERPRINT_FORMAT,
    builtAt: new Date().toISOString(),
    code,
    configuration,
    buildDay,
    nextEmbargoLift: runtime!.issues.report().nextEmbargoLift,
    api: unconfirmed ? {} : Object.fromEntries(answers),
    media: originals!,
    output: storeTree(published),
  };
  await writeFingerprint(out, fingerprint);
  return { fingerprint, record, published };
}

/** What recordFingerprint wrote beside the site, as written. */
export interface RecordedSite {
  fingerprint: Fingerprint;
  record: RouteRecord | undefined;
  /** The site's files the fingerprint lists. */
  published: Tree;
}

/** Astro's build waited on something that can no longer answer (a child process or worker that died). */
function stalledBuild(): Error {
  return new Error(
    'the build stopped without finishing: a part of it waited on a process that is gone (any message of its own is above; a full disk or too little memory are the usual causes)',
  );
}
