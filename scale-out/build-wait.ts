/**
 * The build's wait for its workers runs beside the pages: a build that fails
 * while they render must stop it, or the process would go on polling Redis
 * for the workers after saying that it failed. The wait is kept in the build
 * session (the integration and the build command are separate module graphs).
 */
import { sessionState } from '../src/config/session.ts';

declare module '../src/config/session.ts' {
  interface SessionState {
    workersWait: { stop?: (() => Promise<unknown>) | undefined };
  }
}

const held = () => sessionState('workersWait', () => ({}));

/** The wait under way, stopped by `stopWorkersWait`. */
export function holdWorkersWait(stop: () => Promise<unknown>): void {
  held().stop = stop;
}

/** Stops the wait under way, if any (jobs still queued stay there for the workers); never throws. */
export async function stopWorkersWait(): Promise<void> {
  const { stop } = held();
  held().stop = undefined;
  await stop?.().catch(() => undefined);
}
