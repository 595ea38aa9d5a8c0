/**
 * The webhook receiver's warm renderer (scripts/warm/renderer.ts) as a build step: a child process
 * (`child_process.fork`, IPC) kept between deliveries. The first delivery starts it: its first
 * build is the build command's (partial when the site in `--out` allows it, else full). Each later
 * delivery is one `change` message, answered once the new site is swapped in. When the child
 * answers `full` (it cannot prove the change: other code or configuration, an embargo lifting, a
 * damaged site, an error), crashes, or passes its time bound (it is ended), a new child is started:
 * its first build, the build command's again, serves this delivery. When the child could not keep what a warm change needs (an Astro internal of
 * another shape, scripts/warm/astro-internals.ts), every later delivery runs the plain build
 * command instead (`plainBuild`: a partial build where it can prove one), as without the renderer.
 * The child's lines are passed through like a build's summary lines.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ChangeRequest, RendererMessage } from './warm-protocol.ts';
import type { ChangeScope } from './change-scope.ts';
import { forwardLines, killGroup } from './child-process-group.ts';

export interface WarmBuilderOptions {
  root: string;
  out: string;
  /** scripts/warm/renderer.ts */
  rendererScript: string;
  /** Node flags for the child (the project's `--conditions=source`). */
  nodeFlags?: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Each line of the child's output. */
  onLine: (line: string) => void;
  /** A full build past this is ended (default 30 minutes). */
  buildTimeoutMs?: number;
  /** A warm change past this is ended, and a full build follows (default 2 minutes). */
  changeTimeoutMs?: number;
  /** The build command in a child of its own: what a delivery runs once the renderer cannot be kept warm. */
  plainBuild: () => Promise<StepResult>;
  /** The child found, after a change made from the named releases alone, that the upstream changed beyond them: one more change is due. */
  onStale?: (why: string) => void;
}

/** A build step's result, as build-and-deploy.ts's child build gives it. */
export interface StepResult {
  code: number;
  lastError: string | undefined;
  timedOut: boolean;
}

export interface WarmBuilder {
  /**
   * Makes the upstream's state live in `out`: a warm change (of what `scope` names, when the child
   * can load just that), or the build command's build in a new child.
   */
  build(scope?: ChangeScope): Promise<StepResult>;
  /** Ends the child. */
  stop(): void;
}

interface Running {
  child: ChildProcess;
  messages: RendererMessage[];
  wake?: () => void;
  exited?: number;
}

export function warmBuilder(options: WarmBuilderOptions): WarmBuilder {
  const { buildTimeoutMs = 30 * 60_000, changeTimeoutMs = 120_000 } = options;
  let running: Running | undefined;
  let lastError: string | undefined;
  /** Why this Astro cannot be kept warm, once a first build found out. */
  let cannotKeep: string | undefined;

  const start = (): Running => {
    const child = fork(options.rendererScript, ['--out', options.out], {
      cwd: options.root,
      env: options.env,
      execArgv: [...(options.nodeFlags ?? [])],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group, as the receiver's build children: a Ctrl-C meant for the receiver does not cut a change short.
      detached: true,
    });
    const state: Running = { child, messages: [] };
    forwardLines(child, (line, isError) => {
      if (isError) lastError = line;
      options.onLine(line);
    });
    child.on('message', (message: RendererMessage) => {
      // Not an answer: it comes after one, whenever the child's sync after a change is done.
      if (message.type === 'stale') return options.onStale?.(message.why);
      state.messages.push(message);
      state.wake?.();
    });
    child.on('exit', (code, signal) => {
      state.exited = code ?? (signal ? 128 : 1);
      if (running === state) running = undefined;
      state.wake?.();
    });
    return state;
  };

  /** The child's next message; undefined when it exited first or passed `timeoutMs` (then it is ended). */
  const next = async (state: Running, timeoutMs: number): Promise<RendererMessage | undefined> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = state.messages.shift();
      if (message) return message;
      if (state.exited !== undefined) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) {
        end(state);
        return undefined;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        state.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      state.wake = undefined;
    }
  };

  const end = (state: Running): void => {
    if (running === state) running = undefined;
    killGroup(state.child, 'SIGTERM');
    setTimeout(() => state.exited === undefined && killGroup(state.child, 'SIGKILL'), 10_000).unref();
  };

  const newRenderer = async (): Promise<StepResult> => {
    lastError = undefined;
    const state = (running = start());
    const built = await next(state, buildTimeoutMs);
    if (built?.type === 'built') {
      if (!built.warm && built.why) cannotKeep = built.why;
      return { code: built.exitCode, lastError, timedOut: false };
    }
    return { code: state.exited ?? 1, lastError, timedOut: state.exited === undefined };
  };

  return {
    async build(scope) {
      if (cannotKeep) return options.plainBuild();
      const state = running;
      if (!state) return newRenderer();
      lastError = undefined;
      state.child.send({ type: 'change', ...(scope ? { scope } : {}) } satisfies ChangeRequest);
      const answer = await next(state, changeTimeoutMs);
      if (answer?.type === 'changed') return { code: 0, lastError, timedOut: false };
      if (answer?.type !== 'full') {
        options.onLine(
          `build: warm: the renderer ${state.exited === undefined ? `passed ${Math.round(changeTimeoutMs / 1000)} s and was ended` : `ended (exit ${state.exited})`}; a new one builds`,
        );
        end(state);
      }
      return newRenderer();
    },
    stop() {
      if (running) end(running);
    },
  };
}
