/**
 * The demo press room as an in-process upstream: the build (and the snapshot
 * and archive commands) start the emulator on a loopback port and hand the
 * loaders its address. The clock is frozen at the demo instant, so every build
 * sees the same data.
 *
 * For builds the demo is reached through a fixed origin (DEMO_ORIGIN) rather
 * than its port: `fetch` sends requests for it to whatever loopback port the
 * emulator got (4319 when free), and its answers name DEMO_ORIGIN, so media
 * URLs, and with them the HTTP and image caches, do not depend on which port
 * was free. The application passes `apiUrl`, `pressroomId` and `fetch` to the
 * loaders as options; nothing here touches the environment or globals.
 */
import { startEmulator, type RunningEmulator } from './server.ts';

export interface EmbeddedApi {
  emulator: RunningEmulator;
  /** Where the loaders reach it: DEMO_ORIGIN with `stableOrigin`, else the emulator's own URL. */
  apiUrl: string;
  pressroomId: string;
  /** With `stableOrigin`: the fetch that serves DEMO_ORIGIN (give it to the loaders and downloads). */
  fetch: typeof fetch | undefined;
  close(): Promise<void>;
}

/** Where builds reach the demo press room, whatever port it listens on. `.invalid` never resolves anywhere else. */
export const DEMO_ORIGIN = 'http://demo-press-room.invalid';

/** Preferred loopback port of the embedded demo API; any free port when it is taken. */
const EMBEDDED_PORT = 4319;

/**
 * Starts the demo API: reached at DEMO_ORIGIN through `fetch` with `stableOrigin`
 * (builds), else at the emulator's own URL (recording a snapshot, which opens real connections).
 */
export async function startEmbeddedApi({ stableOrigin = false } = {}): Promise<EmbeddedApi> {
  const emulator = await startEmulator({ frozenClock: true, port: EMBEDDED_PORT }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    return startEmulator({ frozenClock: true, port: 0 });
  });
  let closed = false;
  return {
    emulator,
    apiUrl: stableOrigin ? DEMO_ORIGIN : emulator.url,
    pressroomId: String(emulator.pressroom.id),
    fetch: stableOrigin ? viaOrigin(emulator.url) : undefined,
    async close() {
      if (closed) return;
      closed = true;
      await emulator.close();
    },
  };
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
