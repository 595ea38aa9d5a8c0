/**
 * One build at a time, bursts coalesced: a request waits `debounceMs` for the
 * rest of its burst, then starts a build; requests that arrive while a build
 * runs ask for exactly one more build after it (they need the newest data,
 * which that one will fetch), however many there were. Each build is handed
 * what its requests named together (change-scope.ts): a few releases, or
 * anything.
 */
import { mergeScopes, type ChangeScope } from './change-scope.ts';

export interface BuildOutcome {
  ok: boolean;
  /** One line: what was built and deployed, or what failed. */
  summary: string;
}

export interface BuildRecord extends BuildOutcome {
  /** Requests this build answered. */
  requests: number;
  ms: number;
}

export interface BuildQueueStatus {
  state: 'idle' | 'scheduled' | 'building';
  /** A further build is due after the running one. */
  pending: boolean;
  builds: number;
  last: BuildRecord | null;
}

export interface BuildQueue {
  /** Asks for a build that starts after every request so far, of what `scope` names (none: anything). */
  request(scope?: ChangeScope): void;
  status(): BuildQueueStatus;
  /** Resolves when nothing is scheduled or building. */
  idle(): Promise<void>;
}

export function createBuildQueue(options: {
  run: (scope: ChangeScope | undefined) => Promise<BuildOutcome>;
  debounceMs: number;
  onBuilt?: (record: BuildRecord) => void;
}): BuildQueue {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let waiting = 0; // requests not yet answered by a build that started after them (during a build: the one more due)
  let scope: ChangeScope | undefined; // what those requests named together
  let builds = 0;
  let last: BuildRecord | null = null;
  const idlers: Array<() => void> = [];

  const settle = () => {
    if (timer === undefined && running === undefined) for (const resolve of idlers.splice(0)) resolve();
  };

  async function buildLoop(): Promise<void> {
    do {
      const requests = waiting;
      const asked = scope;
      waiting = 0;
      scope = undefined;
      const started = performance.now();
      let outcome: BuildOutcome;
      try {
        outcome = await options.run(asked);
      } catch (error) {
        outcome = { ok: false, summary: `the build could not run: ${(error as Error).message}` };
      }
      builds++;
      last = { ...outcome, requests, ms: Math.round(performance.now() - started) };
      try {
        options.onBuilt?.(last);
      } catch {
        // a reporting problem must not stop the queue
      }
    } while (waiting > 0);
  }

  function start(): void {
    timer = undefined;
    running = buildLoop().finally(() => {
      running = undefined;
      // A request that came after the loop's last check (same tick) still gets its build.
      if (waiting > 0) start();
      else settle();
    });
  }

  return {
    request(named) {
      scope = waiting === 0 ? named : mergeScopes(scope, named);
      waiting++;
      if (!running && timer === undefined) timer = setTimeout(start, options.debounceMs);
    },
    status() {
      return {
        state: running ? 'building' : timer !== undefined ? 'scheduled' : 'idle',
        pending: running !== undefined && waiting > 0,
        builds,
        last,
      };
    },
    idle() {
      return new Promise<void>((resolve) => {
        idlers.push(resolve);
        settle();
      });
    },
  };
}
