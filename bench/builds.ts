/**
 * Builds of the site against the emulator in its own process, each timed
 * from outside with its peak RSS (every process of the build summed, tree-memory.ts):
 *   cold       empty caches (Astro's data store too), empty output folder
 *   no change  the same build again: the no-change check confirms the site
 *   profiled   `--force` into a folder of its own under `node --cpu-prof`: where
 *              route generation's time goes, by part (route-profile.ts); not timed
 *   warm       `--force`: everything renders again, caches warm
 *   changed    one release's title changed through the management API (partial-edit)
 *   removed    another release unpublished (sent back to draft)  (partial-removed)
 *   new        that release published again, now the newest      (partial-new)
 *   warm       the same three changes again (the first release retitled again), each made live by
 *              the receiver's warm renderer (publish-edit, publish-removed, publish-new;
 *              bench/publish-warm.ts: from the delivery's build to the swap)
 * The build command's changed, removed and new builds are partial builds (scripts/partial-build.ts),
 * timed from the start of the build to the swap against a `--force` build of the same upstream state
 * into another folder; the warm ones against the issue's budgets, which are the receiver's (a
 * publish reaches the site through its webhook). After each change the `--force` build must hold
 * the same bytes, or the bench fails, naming the files.
 * And page rendering: the warm build's route generation against bare Astro
 * writing the same bytes for the same routes (bare-astro.ts).
 * `node --conditions=source bench/builds.ts --scale demo|L|N`.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MANAGEMENT_KEY, DEMO_NOW } from '../emulator/defaults.ts';
import { parseCommandLine } from '../scripts/cli.ts';
import { routeFiles, writeBareProject } from './bare-astro.ts';
import { startEmulatorProcess } from './emulator-process.ts';
import { atMostGoal, type Goal } from './goals.ts';
import { measure, routeGenerationMs, type Measured } from './measure.ts';
import { profileOrExit } from './profiles.ts';
import { renderedRoutes, siteDifferences, type ForcedComparison } from './publish-check.ts';
import { publishWarm } from './publish-warm.ts';
import { buildRouteProfile } from './route-profile.ts';
import { writePart } from './results.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/builds.ts',
  summary:
    "Cold, no-change, warm and one-changed-release builds, publish-to-live (an edited, an unpublished, a new release: partial builds, then the receiver's warm renderer, each checked against --force), and page rendering against bare Astro writing the same bytes, with peak RSS.",
  flags: { scale: { type: 'string', value: 'demo|L|N', help: 'size of the emulated press room (default demo)' } },
  variables: {},
});
if ('exit' in parsed) process.exit(parsed.exit);
const profile = profileOrExit(parsed.values.scale);

const root = path.resolve(import.meta.dirname, '..');
const MIB_LIMIT = 1536;
/** Goals of the issue: at most these fractions of the cold build. */
const NO_CHANGE_TARGET = 0.05;
const CHANGED_TARGET = 0.3;
const PAGES_TARGET = 1.5;
/** Demo budgets, in ms. */
const DEMO_COLD_MS = 60_000;
const DEMO_WARM_MS = 15_000;
/**
 * Publish-to-live budgets of issue 31, from the delivery's build request to the swap, in ms. The issue
 * gives a new or removed release 30 s at L only; the demo keeps the same 30 s (a smaller press room
 * never earns a tighter budget than the issue's, and an edit's 3 s is its demo figure).
 */
const PUBLISH_BUDGET_MS = {
  demo: { edit: 3_000, new: 30_000, removed: 30_000 },
  L: { edit: 10_000, new: 30_000, removed: 30_000 },
} as const;

const emulator = await startEmulatorProcess(profile);
const work = await mkdtemp(path.join(os.tmpdir(), `pressroom-bench-builds-${profile.name}-`));
try {
  const site = path.join(work, 'site');
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PRESSROOM_'))),
    PRESSROOM_API_URL: emulator.url,
    PRESSROOM_ID: String(emulator.pressroomId),
    PRESSROOM_SITE_URL: 'https://press.example.test',
    PRESSROOM_CACHE_DIR: path.join(work, 'cache'),
    // The emulator's clock is frozen at the demo instant: the build's day is that one too.
    SOURCE_DATE_EPOCH: String(Date.parse(DEMO_NOW) / 1000),
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  const build = async (label: string, extra: string[] = [], out = site): Promise<Measured> => {
    console.log(`bench builds (${profile.name}): ${label} build…`);
    const result = await measure(['scripts/build.ts', '--out', out, ...extra], { cwd: root, env });
    console.log(
      `  ${label}: ${Math.round(result.ms)} ms, peak RSS ${result.peakRssMiB} MiB (largest process ${result.largestProcessMiB} MiB)`,
    );
    return result;
  };

  // Astro keeps the content layer's store in its own cache folder, not in PRESSROOM_CACHE_DIR: without
  // this the "cold" build would start from the store an earlier build of this project left.
  await rm(path.join(root, 'node_modules', '.astro', 'data-store.json'), { force: true });
  const cold = await build('cold');
  const noChange = await build('no-change');
  if (!/nothing changed since/.test(noChange.log))
    throw new Error('bench: the no-change build rendered; the site is not confirmed as it is');
  // Profiled before the warm build and into a folder of its own, so that neither follows a build
  // that removed a site: on ext4 without a journal (this machine's) a new file skips the inodes
  // freed moments before, and writing the routes then waits on that (docs/performance.md).
  const profileDir = path.join(work, 'cpu-profile');
  console.log(`bench builds (${profile.name}): profiled warm build (--cpu-prof)…`);
  await measure(['--cpu-prof', '--cpu-prof-dir', profileDir, 'scripts/build.ts', '--out', path.join(work, 'profiled-site'), '--force'], {
    cwd: root,
    env,
  });
  const routeParts = await buildRouteProfile(profileDir);
  const warm = await build('warm (--force)', ['--force']);

  const releases = (
    (await (await fetch(`${emulator.url}/v1/pressrooms/${emulator.pressroomId}/press_releases?limit=2`)).json()) as {
      data: Array<{ id: number; title: string }>;
    }
  ).data;
  const [release, unpublished] = releases;
  if (!release || !unpublished) throw new Error('bench: the press room has fewer than two releases to change');
  const manage = async (what: string, route: string, body?: unknown): Promise<void> => {
    const response = await fetch(`${emulator.url}${route}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEFAULT_MANAGEMENT_KEY}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`bench: ${what} failed: ${response.status} ${await response.text()}`);
  };
  const forcedDir = path.join(work, 'forced');
  /** A forced build of the upstream state `siteDir` shows, into another folder, and the files of `siteDir` that differ from it. */
  const compareWithForced = async (siteDir: string, label: string): Promise<ForcedComparison> => {
    const forced = await build(`${label}: the same upstream state forced (--force) into another folder`, ['--force'], forcedDir);
    const differing = await siteDifferences(siteDir, forcedDir);
    if (differing.length > 0)
      console.error(
        `bench builds: ${label}: the site differs from a --force build of the same upstream state in ${differing.length} files: ${differing.slice(0, 10).join(', ')}`,
      );
    return { forcedMs: forced.ms, differing };
  };
  /** A partial build after one upstream change, then a forced build of the same state: what it rendered, and the files that differ. */
  const publish = async (label: string) => {
    const partial = await build(label);
    const rendered = renderedRoutes(partial.log);
    console.log(`  ${label}: ${rendered?.line ?? 'no plan line in the build log'}`);
    return { partial, rendered, compared: await compareWithForced(site, label) };
  };
  /** What each kind of change makes live, as the goals say it. */
  const CHANGE = {
    edit: 'an edited release (its title) made live',
    removed: 'an unpublished release taken off the site',
    new: 'a release published (the newest) made live',
  } as const;

  const unpublish = () => manage(`unpublishing release ${unpublished.id}`, `/v1/campaigns/${unpublished.id}/cancel`);
  const republish = () =>
    manage(`publishing release ${unpublished.id}`, `/v1/campaigns/${unpublished.id}`, { campaign: { publish_immediately: true } });
  await manage(`changing release ${release.id}`, `/v1/campaigns/${release.id}`, { campaign: { title: `${release.title} (updated)` } });
  const edit = await publish('one changed release (partial-edit)');
  const changed = edit.partial;
  await unpublish();
  const removed = await publish('one release unpublished (partial-removed)');
  await republish();
  const added = await publish('one release published (partial-new)');
  console.log(`bench builds (${profile.name}): the receiver's warm renderer (publish-edit, publish-removed, publish-new)…`);
  const budgets = profile.name === 'demo' ? PUBLISH_BUDGET_MS.demo : PUBLISH_BUDGET_MS.L;
  const warmChanges = [
    {
      name: 'publish-edit',
      what: CHANGE.edit,
      budget: budgets.edit,
      release: release.id,
      make: () =>
        manage(`changing release ${release.id} again`, `/v1/campaigns/${release.id}`, {
          campaign: { title: `${release.title} (updated again)` },
        }),
    },
    {
      name: 'publish-removed',
      what: CHANGE.removed,
      budget: budgets.removed,
      release: unpublished.id,
      make: unpublish,
    },
    {
      name: 'publish-new',
      what: CHANGE.new,
      budget: budgets.new,
      release: unpublished.id,
      make: republish,
    },
  ];
  const warmRuns = await publishWarm({
    env,
    work,
    changes: warmChanges.map((change) => ({ ...change, named: { pressReleases: [String(change.release)] } })),
    compare: compareWithForced,
  });

  const routes = await routeFiles(site, path.join(root, 'public'));
  let routeBytes = 0;
  for (const route of routes) routeBytes += (await stat(path.join(site, route))).size;
  const bareDir = path.join(work, 'bare');
  await writeBareProject(bareDir, path.join(root, 'node_modules'), site, routes);
  const astro = [path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'];
  await measure(astro, { cwd: bareDir, env }); // first build: Vite's caches, as the site's warm build has them
  const bare = await measure(astro, { cwd: bareDir, env });
  const siteRenderMs = routeGenerationMs(warm.log);
  const bareRenderMs = routeGenerationMs(bare.log);

  const goals: Goal[] = [
    atMostGoal({
      name: 'cold-rss',
      what: 'peak RSS of the cold build, its processes summed (MiB), against 1.5 GiB',
      measured: cold.peakRssMiB ?? Number.NaN,
      reference: MIB_LIMIT,
      against: 'limit',
      unit: 'MiB',
      target: 1,
      peakRssMiB: cold.peakRssMiB,
    }),
    atMostGoal({
      name: 'pages',
      what: 'route generation of the warm build against bare Astro writing the same bytes of the same routes',
      measured: siteRenderMs,
      reference: bareRenderMs,
      against: 'bare Astro',
      target: PAGES_TARGET,
      peakRssMiB: warm.peakRssMiB,
    }),
    atMostGoal({
      name: 'no-change',
      what: 'a rebuild with nothing changed against the cold build',
      measured: noChange.ms,
      reference: cold.ms,
      against: 'cold build',
      target: NO_CHANGE_TARGET,
      peakRssMiB: noChange.peakRssMiB,
    }),
    atMostGoal({
      name: 'one-changed',
      what: 'a rebuild after one release changed against the cold build',
      measured: changed.ms,
      reference: cold.ms,
      against: 'cold build',
      target: CHANGED_TARGET,
      peakRssMiB: changed.peakRssMiB,
    }),
  ];
  const atScale = profile.name === 'demo' ? 'the demo' : profile.name === 'L' ? 'L' : `${profile.name} releases (L's budget)`;
  const partialGoal = (name: string, what: string, run: Awaited<ReturnType<typeof publish>>) =>
    atMostGoal({
      name,
      what: `${what} by the build command (a partial build), from its start to the swap, against a --force build of the same upstream state`,
      measured: run.partial.ms,
      reference: run.compared.forcedMs,
      against: 'forced build',
      target: 1,
      peakRssMiB: run.partial.peakRssMiB,
    });
  const publishGoal = ({ change: { name, what, budget }, ms }: (typeof warmRuns)[number]) =>
    atMostGoal({
      name,
      what: `${what} by the receiver's warm renderer, from the delivery's build request to the swap, against ${budget / 1000} s at ${atScale}`,
      measured: ms,
      reference: budget,
      against: 'budget',
      target: 1,
      peakRssMiB: null,
    });
  goals.push(
    partialGoal('partial-edit', CHANGE.edit, edit),
    partialGoal('partial-removed', CHANGE.removed, removed),
    partialGoal('partial-new', CHANGE.new, added),
    ...warmRuns.map(publishGoal),
  );
  if (profile.name === 'demo') {
    goals.push(
      atMostGoal({
        name: 'demo-cold',
        what: 'the demo press room built cold against 60 s',
        measured: cold.ms,
        reference: DEMO_COLD_MS,
        against: 'budget',
        target: 1,
        peakRssMiB: cold.peakRssMiB,
      }),
      atMostGoal({
        name: 'demo-warm',
        what: 'the demo press room rebuilt with warm caches (--force) against 15 s',
        measured: warm.ms,
        reference: DEMO_WARM_MS,
        against: 'budget',
        target: 1,
        peakRssMiB: warm.peakRssMiB,
      }),
    );
  }
  const figures = (m: Measured) => ({
    ms: Math.round(m.ms),
    peakRssMiB: m.peakRssMiB,
    largestProcessMiB: m.largestProcessMiB,
    routeGenerationMs: Math.round(routeGenerationMs(m.log)) || null,
  });
  const comparedFigures = ({ forcedMs, differing }: ForcedComparison) => ({
    forcedMs: Math.round(forcedMs),
    sameBytesAsForced: differing.length === 0,
    differingFiles: differing.slice(0, 20),
  });
  const publishFigures = (run: Awaited<ReturnType<typeof publish>>) => ({
    ...figures(run.partial),
    routesRendered: run.rendered?.partial ? run.rendered.rendered : null,
    routes: run.rendered?.partial ? run.rendered.total : null,
    plan: run.rendered?.line ?? null,
    ...comparedFigures(run.compared),
  });
  await writePart(profile.name, {
    bench: 'builds',
    goals,
    details: {
      emulatorStartMs: Math.round(emulator.startMs),
      cold: figures(cold),
      noChange: figures(noChange),
      warm: figures(warm),
      oneChanged: { ...figures(changed), release: release.id },
      publish: {
        edit: { ...publishFigures(edit), release: release.id },
        removed: { ...publishFigures(removed), release: unpublished.id },
        new: { ...publishFigures(added), release: unpublished.id },
        warm: Object.fromEntries(
          warmRuns.map(({ change, ms, line, loadAverage, compared }) => [
            change.name,
            { ms: Math.round(ms), line, loadAverage, ...comparedFigures(compared), release: change.release },
          ]),
        ),
      },
      routes: routes.length,
      routeBytes,
      bareAstro: { ms: Math.round(bare.ms), routeGenerationMs: Math.round(bareRenderMs), peakRssMiB: bare.peakRssMiB },
      routeGenerationProfile: routeParts,
    },
  });
  console.log(
    `bench builds (${profile.name}): ${routes.length} routes; route generation ${Math.round(siteRenderMs)} ms vs bare Astro ${Math.round(bareRenderMs)} ms`,
  );
  console.log(`  where route generation goes (profiled, ${routeParts.windowMs} ms under the profiler):`);
  for (const { part, ms, share } of routeParts.parts)
    console.log(`    ${(share * 100).toFixed(1).padStart(5)} %  ${String(ms).padStart(6)} ms  ${part}`);
  const againstForced = ({ forcedMs, differing }: ForcedComparison) =>
    `--force of the same state ${Math.round(forcedMs)} ms; ${differing.length === 0 ? 'same bytes' : `${differing.length} files DIFFER: ${differing.slice(0, 10).join(', ')}`}`;
  for (const [label, run] of [
    ['partial-edit', edit],
    ['partial-removed', removed],
    ['partial-new', added],
  ] as const)
    console.log(
      `  ${label}: ${Math.round(run.partial.ms)} ms, ${run.rendered?.partial ? `${run.rendered.rendered} of ${run.rendered.total} routes rendered` : 'rendered in full'}; ${againstForced(run.compared)}`,
    );
  for (const { change, ms, loadAverage, compared } of warmRuns)
    console.log(`  ${change.name}: ${Math.round(ms)} ms (load ${loadAverage.toFixed(1)}); ${againstForced(compared)}`);
  const broken = [edit, removed, added, ...warmRuns].filter(({ compared }) => compared.differing.length > 0).length;
  if (broken > 0) {
    console.error(
      `bench builds (${profile.name}): FAILED: ${broken} partial or warm builds left a site that differs from a --force build of the same upstream state (files named above); a partial build must write the same bytes`,
    );
    process.exitCode = 1;
  }
} finally {
  await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
