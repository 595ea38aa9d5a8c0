/**
 * One build at a time: a lock on the project checkout (its Astro caches and
 * staging area are shared by every build of it) and one on the output folder
 * (two checkouts may publish to the same place). Both are `proper-lockfile`
 * locks: a folder created atomically beside what it guards, its mtime
 * refreshed every few seconds while the holder lives, so the lock of a build
 * that was killed (kill -9, a crash, a reboot) goes stale and is taken over
 * by the next build; no pid files, and it works on network file systems.
 *
 * A second build waits for the first up to `waitMs`, printing a line every few
 * seconds, then gives up with a LockBusyError (one line naming the folder).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** A lock not refreshed for this long belongs to a dead build. */
export const STALE_MS = 60_000;
const REFRESH_MS = 10_000;
const POLL_MS = 500;
const REPORT_EVERY_MS = 5_000;

export class LockBusyError extends Error {
  override name = 'LockBusyError';
}

export interface HeldLocks {
  /** Throws when a lock was lost (the process stalled past STALE_MS and another build took it over). */
  assertHeld(): void;
  release(): Promise<void>;
}

export interface LockRequest {
  /** What is guarded (need not exist). */
  target: string;
  /** The lock folder (default `<target>.lock`). */
  lockPath?: string;
  /** For messages: "the project /x" or "/srv/site". */
  label: string;
}

/** Takes every lock in order, waiting up to `waitMs` in all; releases what it took if it cannot take the rest. */
export async function acquireLocks(
  requests: readonly LockRequest[],
  { waitMs, log, command, staleMs = STALE_MS }: { waitMs: number; log: (line: string) => void; command: string; staleMs?: number },
): Promise<HeldLocks> {
  const started = Date.now();
  const releases: Array<() => Promise<void>> = [];
  let lost: Error | undefined;
  const releaseAll = async () => {
    for (const release of releases.splice(0).reverse()) await release().catch(() => undefined);
  };
  try {
    for (const request of requests) {
      const lockPath = request.lockPath ?? `${request.target}.lock`;
      await mkdir(path.dirname(lockPath), { recursive: true });
      let reported = 0; // say so at once, then every few seconds
      for (;;) {
        try {
          releases.push(
            await lockfile.lock(request.target, {
              realpath: false,
              lockfilePath: lockPath,
              stale: staleMs,
              update: Math.min(REFRESH_MS, staleMs / 2),
              onCompromised: (error) =>
                (lost ??= new Error(`lost the lock on ${request.label} (${error.message}); another build may have taken over`)),
            }),
          );
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
        }
        const waited = Date.now() - started;
        if (waited >= waitMs) {
          throw new LockBusyError(
            `another ${command} is running on ${request.label} (lock ${lockPath})${waitMs > 0 ? `; gave up after waiting ${Math.round(waited / 1000)} s` : ''}; try again when it has finished (--wait SECONDS waits for it)`,
          );
        }
        if (Date.now() - reported >= REPORT_EVERY_MS) {
          reported = Date.now();
          log(
            `${command}: waiting for another ${command} on ${request.label} to finish: ${Math.round(waited / 1000)} s of at most ${Math.round(waitMs / 1000)} s` +
              ` (the lock of one that crashed is taken over ${Math.round(staleMs / 1000)} s after its last sign of life)`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, waitMs - waited))));
      }
    }
  } catch (error) {
    await releaseAll();
    throw error;
  }
  return {
    assertHeld() {
      if (lost) throw lost;
    },
    release: releaseAll,
  };
}

/** The locks every command that builds the site takes: the checkout, then the output folder. */
export function buildLocks(root: string, out: string): LockRequest[] {
  return [
    { target: path.join(root, '.building'), label: `the project ${root}` },
    { target: out, label: out },
  ];
}
