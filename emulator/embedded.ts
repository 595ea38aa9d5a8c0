/**
 * The demo press room as the default upstream: when no API URL and no
 * snapshot are configured, the build and the snapshot command start the
 * emulator in-process on a free loopback port and point the loaders at it.
 * The clock is frozen at the demo instant, and a fixed port is preferred
 * (media URLs carry the origin), so every build sees the same data: unchanged
 * entries keep their digests and the HTTP cache answers with 304s.
 */
import { startEmulator, type RunningEmulator } from './server.ts';

export interface EmbeddedApi {
  emulator: RunningEmulator;
  close(): Promise<void>;
}

/** Preferred loopback port of the embedded demo API; any free port when it is taken. */
const EMBEDDED_PORT = 4319;

export function needsEmbeddedApi(env: Record<string, string | undefined>): boolean {
  return !env.PRESSROOM_API_URL && !env.PRESSROOM_SNAPSHOT;
}

const OPEN = Symbol.for('pressroom-static.embedded-apis');
type Holder = { [OPEN]?: Set<EmbeddedApi> };
const open = ((globalThis as Holder)[OPEN] ??= new Set());

/**
 * Closes every embedded API still running in this process. A build that
 * fails never reaches `astro:build:done`, so the build script calls this to
 * let the process exit instead of hanging on the open server.
 */
export async function closeEmbeddedApis(): Promise<void> {
  await Promise.all([...open].map((api) => api.close()));
}

/** Starts the demo API and sets PRESSROOM_API_URL / PRESSROOM_ID in `env` for the loaders. */
export async function startEmbeddedApi(env: Record<string, string | undefined> = process.env): Promise<EmbeddedApi> {
  const emulator = await startEmulator({ frozenClock: true, port: EMBEDDED_PORT }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    return startEmulator({ frozenClock: true, port: 0 });
  });
  env.PRESSROOM_API_URL = emulator.url;
  env.PRESSROOM_ID = String(emulator.pressroom.id);
  const api: EmbeddedApi = {
    emulator,
    async close() {
      if (!open.delete(api)) return;
      await emulator.close();
      if (env.PRESSROOM_API_URL === emulator.url) {
        delete env.PRESSROOM_API_URL;
        delete env.PRESSROOM_ID;
      }
    },
  };
  open.add(api);
  return api;
}
