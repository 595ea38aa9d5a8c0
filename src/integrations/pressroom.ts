/**
 * The site's build integration: takes the build's configuration as
 * astro.config.mjs parsed it (into the build session, or `pressroom(options, { config })`) and makes it
 * the one the content config and the pages read (src/config/session.ts); a
 * real press room built without PRESSROOM_SITE_URL is refused. Takes the
 * site's branding options (`pressroom({ theme, nav, footer, components }, …)`,
 * pressroom-options.ts) and hands them to the pages as modules
 * (virtual-modules.ts),
 * serves the bundled demo press room when nothing at all is configured (or
 * `--demo` asked for it; any other PRESSROOM_* alone is an error), keeps the dev server from
 * watching the caches and output the build writes into the project (dev-watch.ts), fixes the
 * build's clock (src/lib/build-day.ts), prints the one-line loading summary, and
 * once every page is rendered writes the build record (the build's day) and removes
 * HTTP cache entries and release body files no build has used for 30 days.
 */
import { writeFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { formatBytes } from '@pressroom-static/content-loaders';
import { fileURLToPath } from 'node:url';
import { upstreamOf, type PressroomConfig } from '../config/environment.ts';
import { configureImagePipeline } from '../lib/image-pipeline.ts';
import { checkPressroomOptions, resolvePressroomOptions, type PressroomOptionsInput } from './pressroom-options.ts';
import { pageOptionsOf, pressroomModules } from './virtual-modules.ts';
import { generatedFiles } from './dev-watch.ts';
import { buildRuntime } from '../config/build-runtime.ts';
import { buildSession, sessionConfig } from '../config/session.ts';
import { demoRequested, startDemoApi } from '../config/demo-upstream.ts';
import { BUILD_RECORD_FILE, buildRecord, chooseBuildClock, fixBuildClock, renderedBuildDay } from '../lib/build-day.ts';

/** HTTP cache entries and release body files no build has used for this long are removed. */
const UNUSED_CACHE_KEEP_DAYS = 30;

export type { PressroomOptionsInput as PressroomIntegrationOptions } from './pressroom-options.ts';

/** What astro.config.mjs may hand the integration besides a team's options: the build's configuration, parsed once. */
export interface PressroomBuild {
  config: PressroomConfig;
}

/**
 * `pressroom()` or `pressroom({ theme, nav, footer, components })`; without `build`, the configuration
 * astro.config.mjs parsed into the build session (one line when there is none).
 */
export default function pressroom(options: PressroomOptionsInput = {}, build?: PressroomBuild): AstroIntegration {
  const pressroomConfig = build?.config ?? sessionConfig();
  // Checked as astro.config.mjs is read: a wrong option stops everything with one line naming it.
  const checked = checkPressroomOptions(options);
  let embedded: Awaited<ReturnType<typeof startDemoApi>> | undefined;
  const close = async () => {
    await embedded?.close();
    embedded = undefined;
  };
  return {
    name: 'pressroom-static',
    hooks: {
      'astro:config:setup': async ({ config, command, logger, updateConfig }) => {
        // What the content config and the pages read: the configuration every integration was given.
        buildSession().config = pressroomConfig;
        const root = fileURLToPath(config.root);
        const resolved = resolvePressroomOptions(checked, root);
        // The dev server watches the project, not the caches and sites the build writes into it (in a list: Vite adds
        // a list to the project's own `ignored`, where a single value would replace it).
        const server =
          command === 'dev' ? { watch: { ignored: [generatedFiles(root, pressroomConfig, fileURLToPath(config.outDir))] } } : {};
        updateConfig({ vite: { plugins: [pressroomModules(resolved)], server } });
        // The one file: URL the image pipeline may read: the site's own logo (never one from the API).
        const logo = pageOptionsOf(resolved).logo;
        configureImagePipeline({ localOriginals: logo ? [logo] : [] });
        for (const note of pressroomConfig.notes) logger.info(note);
        if (upstreamOf(process.env, { demo: demoRequested(), publish: command === 'build', config: pressroomConfig }) === 'demo') {
          embedded = await startDemoApi({ stableOrigin: true });
          const { id, domain } = embedded.emulator.pressroom;
          logger.info(
            `building the DEMO press room ${id} (${domain}, a fictional company) from the bundled emulator; its pages are marked noindex and "demo"`,
          );
        }
        // The demo is arranged around its emulator's frozen instant: built at that instant, it keeps its upcoming / live / past mix.
        fixBuildClock(chooseBuildClock(process.env, embedded?.emulator.store().clock.now().getTime()));
      },
      'astro:build:start': async ({ logger }) => {
        const runtime = await buildRuntime();
        const r = runtime.reports;
        if (r.length > 0) {
          const s = runtime.client.stats();
          logger.info(
            `loaded ${r.length} collections, ${r.reduce((n, x) => n + x.entries, 0)} entries from ${runtime.mode === 'snapshot' ? 'the snapshot' : 'the API'}: ` +
              `${s.requests} requests, ${s.retries} retries, ${s.notModified} not modified, ${formatBytes(s.bytes)} ` +
              `in ${Math.round(performance.now() - runtime.startedAt)} ms`,
          );
          logger.info(runtime.issues.summary());
        }
      },
      'astro:build:done': async ({ dir, logger }) => {
        const day = renderedBuildDay();
        if (day) {
          await writeFile(new URL(BUILD_RECORD_FILE, dir), buildRecord(day));
          logger.info(`build day ${day.date} (${day.timeZone}): upcoming / past as built, the news sitemap and calendar stamps follow it`);
        }
        const runtime = await buildRuntime().catch(() => undefined);
        const keepMs = UNUSED_CACHE_KEEP_DAYS * 24 * 60 * 60 * 1000;
        const pruned = await runtime?.client.pruneCache(keepMs);
        if (pruned && pruned.files > 0)
          logger.info(
            `removed ${pruned.files} HTTP cache entries (${formatBytes(pruned.bytes)}) no build has used for ${UNUSED_CACHE_KEEP_DAYS} days`,
          );
        const bodies = await runtime?.bodies?.prune(keepMs);
        if (bodies && bodies.files > 0)
          logger.info(
            `removed ${bodies.files} release body files (${formatBytes(bodies.bytes)}) no build has used for ${UNUSED_CACHE_KEEP_DAYS} days`,
          );
        await close();
      },
      'astro:server:done': close,
    },
  };
}
