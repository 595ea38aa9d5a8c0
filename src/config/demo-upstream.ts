/**
 * The bundled demo press room as this process's upstream. The emulator is a
 * development package: it is loaded here with a dynamic `import()` only when
 * the demo is built (or recorded), so a build against a real API never loads
 * it or its generators (faker, pdf-lib, find-my-way).
 *
 * What a build needs from it (address, press room id, fetch) is kept on
 * globalThis because Astro loads the config, the integrations and the content
 * config in separate module graphs; the loaders' options are made from it
 * (loader-options.ts), never from variables written into the environment.
 */
import type { EmbeddedApi } from '@pressroom-static/emulator/embedded';

/** What the loaders are given to read the demo press room. */
export interface DemoUpstream {
  apiUrl: string;
  pressroomId: string;
  fetch: typeof fetch;
}

/** Variables that point a build at a press room; `--demo` clears them for its process. */
const UPSTREAM_VARIABLES = ['PRESSROOM_API_URL', 'PRESSROOM_ID', 'PRESSROOM_API_KEY', 'PRESSROOM_SNAPSHOT'];

const DEMO_REQUESTED = Symbol.for('pressroom-static.demo-requested');
const DEMO_UPSTREAM = Symbol.for('pressroom-static.demo-upstream');
/** Read by src/lib/demo.ts: pages mark themselves as a demo. */
const DEMO_BUILD = Symbol.for('pressroom-static.demo-build');
const OPEN = Symbol.for('pressroom-static.embedded-apis');

type Holder = {
  [DEMO_REQUESTED]?: boolean;
  [DEMO_UPSTREAM]?: DemoUpstream;
  [DEMO_BUILD]?: boolean;
  [OPEN]?: Set<EmbeddedApi>;
};
const holder = globalThis as Holder;
const open = (holder[OPEN] ??= new Set());

/** `--demo`: this process builds the demo press room whatever else is configured. */
export function requestDemo(env: Record<string, string | undefined> = process.env): void {
  for (const name of UPSTREAM_VARIABLES) delete env[name];
  holder[DEMO_REQUESTED] = true;
}

export function demoRequested(): boolean {
  return holder[DEMO_REQUESTED] === true;
}

/** The demo press room this process is building, if any. */
export function demoUpstream(): DemoUpstream | undefined {
  return holder[DEMO_UPSTREAM];
}

/** Marks this build as the demo (a snapshot recorded from the demo, too). */
export function markDemoBuild(): void {
  holder[DEMO_BUILD] = true;
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
    holder[DEMO_UPSTREAM] = upstream;
    markDemoBuild();
  }
  const api: EmbeddedApi = {
    ...started,
    async close() {
      if (!open.delete(api)) return;
      await started.close();
      if (upstream && holder[DEMO_UPSTREAM] === upstream) {
        delete holder[DEMO_UPSTREAM];
        delete holder[DEMO_BUILD];
      }
    },
  };
  open.add(api);
  return api;
}

/**
 * Closes every demo API still running in this process. A build that fails never reaches
 * `astro:build:done`, so the build script calls this to let the process exit instead of
 * hanging on the open server.
 */
export async function closeDemoApis(): Promise<void> {
  await Promise.all([...open].map((api) => api.close()));
}
