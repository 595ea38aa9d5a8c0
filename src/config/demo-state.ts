/**
 * Whether this build is the bundled demo press room, and the demo API it runs:
 * kept in the build session (session.ts), set by demo-upstream.ts and read by
 * the pages (src/lib/demo.ts), which need nothing of the module that starts
 * the emulator.
 */
import type { EmbeddedApi } from '@pressroom-static/emulator/embedded';
import { sessionState } from './session.ts';

/** What the loaders are given to read the demo press room. */
export interface DemoUpstream {
  apiUrl: string;
  pressroomId: string;
  fetch: typeof fetch;
}

interface DemoState {
  /** `--demo` was given. */
  requested: boolean;
  /** The demo press room this process is building, while its API runs. */
  upstream?: DemoUpstream | undefined;
  /** This build is the demo (read by src/lib/demo.ts: pages mark themselves as a demo). */
  build: boolean;
  /** Demo APIs still running in this process. */
  open: Set<EmbeddedApi>;
}

declare module './session.ts' {
  interface SessionState {
    demo: DemoState;
  }
}

export const demoState = (): DemoState => sessionState('demo', () => ({ requested: false, build: false, open: new Set() }));

/** Is this build the bundled demo press room (served in-process, or a snapshot recorded from it)? */
export function isDemoBuild(): boolean {
  return demoState().build;
}
