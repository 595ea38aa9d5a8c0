/**
 * Builds of the site against the emulator in its own process, each timed
 * from outside with its peak RSS (every process of the build summed, tree-memory.ts):
 *   cold       empty caches (Astro's data store too), empty output folder
 *   no change  the same build again: the no-change check confirms the site
 *   profiled   `--force` into a folder of its own under `node --cpu-prof`: where
 *              route generation's time goes, by part (route-profile.ts); not timed
 *   warm       `--force`: everything renders again, caches warm
 *   changed    one release's title changed through the management API
 * and page rendering: the warm build's route generation against bare Astro
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
import { buildRouteProfile } from './route-profile.ts';
import { writePart } from './results.ts';

const parsed = parseCommandLine({
  name: 'bench',
  invocation: 'node --conditions=source bench/builds.ts',
  summary:
    'Cold, no-change, warm and one-changed-release builds, and page rendering against bare Astro writing the same bytes, with peak RSS.',
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
  const build = async (label: string, extra: string[] = []): Promise<Measured> => {
    console.log(`bench builds (${profile.name}): ${label} build…`);
    const result = await measure(['scripts/build.ts', '--out', site, ...extra], { cwd: root, env });
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

  const [release] = (
    (await (await fetch(`${emulator.url}/v1/pressrooms/${emulator.pressroomId}/press_releases?limit=1`)).json()) as {
      data: Array<{ id: number; title: string }>;
    }
  ).data;
  if (!release) throw new Error('bench: the press room has no release to change');
  const changedTitle = `${release.title} (updated)`;
  const put = await fetch(`${emulator.url}/v1/campaigns/${release.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEFAULT_MANAGEMENT_KEY}` },
    body: JSON.stringify({ campaign: { title: changedTitle } }),
  });
  if (!put.ok) throw new Error(`bench: changing release ${release.id} failed: ${put.status}`);
  const changed = await build('one changed release');

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
  await writePart(profile.name, {
    bench: 'builds',
    goals,
    details: {
      emulatorStartMs: Math.round(emulator.startMs),
      cold: figures(cold),
      noChange: figures(noChange),
      warm: figures(warm),
      oneChanged: { ...figures(changed), release: release.id },
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
} finally {
  await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
