/**
 * The site's build integration: validates the configuration before anything
 * runs (a wrong value stops the build with one line naming the variable),
 * serves the bundled demo press room when no upstream is configured, and
 * prints the one-line loading summary.
 */
import type { AstroIntegration } from 'astro';
import { loadConfig } from '../../content-loaders/config.ts';
import { getLoaderRuntime } from '../../content-loaders/runtime.ts';
import { formatBytes } from '../../content-loaders/format-bytes.ts';
import { needsEmbeddedApi, startEmbeddedApi, type EmbeddedApi } from '../../emulator/embedded.ts';

export default function pressroom(): AstroIntegration {
  let embedded: EmbeddedApi | undefined;
  const close = async () => {
    await embedded?.close();
    embedded = undefined;
  };
  return {
    name: 'pressroom-static',
    hooks: {
      'astro:config:setup': async ({ logger }) => {
        const config = loadConfig(process.env);
        for (const warning of config.warnings) logger.warn(warning);
        if (needsEmbeddedApi(process.env)) {
          embedded = await startEmbeddedApi(process.env);
          const { id, domain } = embedded.emulator.pressroom;
          logger.info(`no PRESSROOM_API_URL: building the demo press room ${id} (${domain}) from the bundled emulator`);
        }
      },
      'astro:build:start': async ({ logger }) => {
        const runtime = await getLoaderRuntime();
        const r = runtime.reports;
        if (r.length > 0) {
          // Totals from the client itself: collections that share a path group (events, liveEvents)
          // and run at once each count the other's requests, so their reports must not be summed.
          const s = runtime.client.stats();
          logger.info(
            `loaded ${r.length} collections, ${r.reduce((n, x) => n + x.entries, 0)} entries from ${runtime.mode === 'snapshot' ? 'the snapshot' : 'the API'}: ` +
              `${s.requests} requests, ${s.retries} retries, ${s.notModified} not modified, ${formatBytes(s.bytes)} ` +
              `in ${Math.round(performance.now() - runtime.startedAt)} ms`,
          );
        }
      },
      'astro:build:done': close,
      'astro:server:done': close,
    },
  };
}
