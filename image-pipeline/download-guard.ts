/**
 * The two clocks of one download: a deadline for the whole of it and a stall
 * timer re-armed on every chunk. Either aborts the download's signal with a
 * RefusedError; the first refusal is the one reported.
 */
import { RefusedError } from './errors.ts';

export interface DownloadGuard {
  signal: AbortSignal;
  /** The refusal that aborted the download, if one did. */
  reason(): RefusedError | undefined;
  abort(reason: RefusedError): void;
  /** (Re)starts the stall timer: when the body starts and after every chunk. */
  armStall(): void;
  stopStall(): void;
  /** Stops both timers. */
  dispose(): void;
}

export function createDownloadGuard(timeoutMs: number, stallTimeoutMs: number): DownloadGuard {
  const controller = new AbortController();
  let why: RefusedError | undefined;
  const abort = (reason: RefusedError) => {
    why ??= reason;
    controller.abort(reason);
  };
  const deadline = setTimeout(
    () => abort(new RefusedError('timeout', `no complete download within ${Math.round(timeoutMs / 1000)} s`, true)),
    timeoutMs,
  );
  let stall: ReturnType<typeof setTimeout> | undefined;
  const stopStall = () => {
    if (stall !== undefined) clearTimeout(stall);
  };
  return {
    signal: controller.signal,
    reason: () => why,
    abort,
    armStall() {
      stopStall();
      stall = setTimeout(
        () => abort(new RefusedError('timeout', `the download stalled (no bytes for ${Math.round(stallTimeoutMs / 1000)} s)`, true)),
        stallTimeoutMs,
      );
    },
    stopStall,
    dispose() {
      clearTimeout(deadline);
      stopStall();
    },
  };
}
