/**
 * The demo press room as the default upstream: when nothing is configured,
 * the build (and the snapshot and archive commands) start the emulator
 * in-process on a loopback port and point the loaders at it. The clock is
 * frozen at the demo instant, so every build sees the same data.
 *
 * For builds the demo is reached through a fixed origin (DEMO_ORIGIN) rather
 * than its port: requests to it are sent to whatever loopback port the
 * emulator got (4319 when free), and its answers name DEMO_ORIGIN, so media
 * URLs, and with them the HTTP and image caches, do not depend on which port
 * was free. The loaders' runtime finds that fetch on globalThis
 * (DEMO_UPSTREAM); nothing is imported from the emulator by a build against a
 * real API.
 */
import type { RunningEmulator } from './server.ts';

export interface EmbeddedApi {
  emulator: RunningEmulator;
  close(): Promise<void>;
}

/** Where builds reach the demo press room, whatever port it listens on. `.invalid` never resolves anywhere else. */
export const DEMO_ORIGIN = 'http://demo-press-room.invalid';
/** The fetch a build's runtime uses for DEMO_ORIGIN: `{ origin, fetch }` on globalThis. */
export const DEMO_UPSTREAM = Symbol.for('pressroom-static.demo-upstream');

/** Preferred loopback port of the embedded demo API; any free port when it is taken. */
const EMBEDDED_PORT = 4319;

/** Variables that point a build at a press room; `--demo` clears them for its process. */
const UPSTREAM_VARIABLES = ['PRESSROOM_API_URL', 'PRESSROOM_ID', 'PRESSROOM_API_KEY', 'PRESSROOM_SNAPSHOT'];
const DEMO_REQUESTED = Symbol.for('pressroom-static.demo-requested');

/** `--demo`: this process builds the demo press room whatever else is configured. */
export function requestDemo(env: Record<string, string | undefined> = process.env): void {
  for (const name of UPSTREAM_VARIABLES) delete env[name];
  (globalThis as Record<symbol, unknown>)[DEMO_REQUESTED] = true;
}

export function demoRequested(): boolean {
  return (globalThis as Record<symbol, unknown>)[DEMO_REQUESTED] === true;
}

/** Set while this process builds the demo press room: pages mark themselves as a demo (src/lib/demo.ts). */
const DEMO_BUILD = Symbol.for('pressroom-static.demo-build');

const OPEN = Symbol.for('pressroom-static.embedded-apis');
type Holder = { [OPEN]?: Set<EmbeddedApi>; [DEMO_UPSTREAM]?: { origin: string; fetch: typeof fetch }; [DEMO_BUILD]?: boolean };
const holder = globalThis as Holder;
const open = (holder[OPEN] ??= new Set());

/**
 * Closes every embedded API still running in this process. A build that
 * fails never reaches `astro:build:done`, so the build script calls this to
 * let the process exit instead of hanging on the open server.
 */
export async function closeEmbeddedApis(): Promise<void> {
  await Promise.all([...open].map((api) => api.close()));
}

/**
 * Starts the demo API and sets PRESSROOM_API_URL / PRESSROOM_ID in `env` for the loaders:
 * DEMO_ORIGIN with `stableOrigin` (builds), else the emulator's own URL (recording a snapshot,
 * which opens real connections).
 */
export async function startEmbeddedApi(env: Record<string, string | undefined> = process.env, { stableOrigin = false } = {}): Promise<EmbeddedApi> {
  // Loaded only when the demo is built: a build against a real API never loads the emulator (or its generators).
  const { startEmulator } = await import('./server.ts');
  const emulator = await startEmulator({ frozenClock: true, port: EMBEDDED_PORT }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    return startEmulator({ frozenClock: true, port: 0 });
  });
  const apiUrl = stableOrigin ? DEMO_ORIGIN : emulator.url;
  env.PRESSROOM_API_URL = apiUrl;
  env.PRESSROOM_ID = String(emulator.pressroom.id);
  if (stableOrigin) {
    holder[DEMO_UPSTREAM] = { origin: DEMO_ORIGIN, fetch: viaOrigin(emulator.url) };
    holder[DEMO_BUILD] = true;
  }
  const api: EmbeddedApi = {
    emulator,
    async close() {
      if (!open.delete(api)) return;
      await emulator.close();
      if (holder[DEMO_UPSTREAM]?.origin === apiUrl) {
        delete holder[DEMO_UPSTREAM];
        delete holder[DEMO_BUILD];
      }
      if (env.PRESSROOM_API_URL === apiUrl) {
        delete env.PRESSROOM_API_URL;
        delete env.PRESSROOM_ID;
      }
    },
  };
  open.add(api);
  return api;
}

/** A fetch that sends DEMO_ORIGIN requests to `actual` and writes DEMO_ORIGIN back into its answers. */
function viaOrigin(actual: string): typeof fetch {
  const toActual = (url: string) => (url.startsWith(`${DEMO_ORIGIN}/`) ? `${actual}${url.slice(DEMO_ORIGIN.length)}` : url);
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const response = await fetch(toActual(url), init);
    const headers = new Headers(response.headers);
    const location = headers.get('location');
    if (location?.startsWith(actual)) headers.set('location', `${DEMO_ORIGIN}${location.slice(actual.length)}`);
    if (!/json/i.test(headers.get('content-type') ?? '') || response.status === 304) {
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const text = (await response.text()).replaceAll(actual, DEMO_ORIGIN);
    headers.delete('content-length');
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  };
}
