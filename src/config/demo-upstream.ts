/**
 * The bundled demo press room as this process's upstream. The emulator is a
 * development package: it is loaded here with a dynamic `import()` only when
 * the demo is built (or recorded), so a build against a real API never loads
 * it or its generators (faker, pdf-lib, find-my-way).
 *
 * What a build needs from it (address, press room id, fetch) is kept in the
 * build session (session.ts) because Astro loads the config, the integrations
 * and the content config in separate module graphs; the loaders' options are
 * made from it (loader-options.ts), never from variables written into the
 * environment.
 */
import type { EmbeddedApi } from '@pressroom-static/emulator/embedded';
import { demoState as demo, type DemoUpstream } from './demo-state.ts';

export type { DemoUpstream } from './demo-state.ts';

/** Variables that point a build at a press room; `--demo` clears them for its process. */
const UPSTREAM_VARIABLES = ['PRESSROOM_API_URL', 'PRESSROOM_ID', 'PRESSROOM_API_KEY', 'PRESSROOM_SNAPSHOT'];

/** `--demo`: this process builds the demo press room whatever else is configured. */
export function requestDemo(env: Record<string, string | undefined> = process.env): void {
  for (const name of UPSTREAM_VARIABLES) delete env[name];
  demo().requested = true;
}

export function demoRequested(): boolean {
  return demo().requested;
}

/** The demo press room this process is building, if any. */
export function demoUpstream(): DemoUpstream | undefined {
  return demo().upstream;
}

/** Marks this build as the demo (a snapshot recorded from the demo, too). */
export function markDemoBuild(): void {
  demo().build = true;
}

/**
 * Starts the demo API in-process. `stableOrigin` (builds): reached at the emulator's fixed
 * origin through its fetch, and made this build's upstream until closed; without it (recording
 * a snapshot, which opens real connections) the caller uses `apiUrl` itself.
 */
export async function startDemoApi({ stableOrigin = false } = {}): Promise<EmbeddedApi> {
  const { startEmbeddedApi } = await import('@pressroom-static/emulator/embedded');
  const started = await startEmbeddedApi({ stableOrigin });
  const upstream = started.fetch ? { apiUrl: started.apiUrl, pressroomId: started.pressroomId, fetch: started.fetch } : undefined;
  if (upstream) {
    demo().upstream = upstream;
    markDemoBuild();
  }
  const api: EmbeddedApi = {
    ...started,
    async close() {
      if (!demo().open.delete(api)) return;
      await started.close();
      const state = demo();
      if (upstream && state.upstream === upstream) {
        state.upstream = undefined;
        state.build = false;
      }
    },
  };
  demo().open.add(api);
  return api;
}

/**
 * Closes every demo API still running in this process. A build that fails never reaches
 * `astro:build:done`, so the build script calls this to let the process exit instead of
 * hanging on the open server.
 */
export async function closeDemoApis(): Promise<void> {
  await Promise.all([...demo().open].map((api) => api.close()));
}
