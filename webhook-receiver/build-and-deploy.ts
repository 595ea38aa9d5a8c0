/**
 * What a webhook sets off: the build script (`buildScript --out <out>`, the project's scripts/build.ts) in a child process
 * (a fresh Astro each time; it swaps the new site in only when it succeeds, so
 * a failed build keeps the previous one), then PRESSROOM_DEPLOY_COMMAND in a
 * shell with PRESSROOM_SITE_DIR set to the site and PRESSROOM_CHANGES to the
 * build's change report (`<out>.changes.json`: what to purge from a CDN), when
 * the build succeeded (also when it only confirmed an unchanged site: the
 * report then lists nothing). Once the deploy succeeded, the WebSub hub and
 * IndexNow are told what changed (notify/, when set): the site is online only
 * now. Without a deploy command the build itself told them after its swap.
 * The build's route-by-route lines are left out of the log; its summary lines
 * (loading, images, search, pages built, partial or full and why, failure) are passed through. Each
 * child gets only the secrets it needs: the build the API key, the deploy
 * command neither the key nor the webhook secret. Children run in their own
 * process group, so a Ctrl-C meant for the receiver does not cut a build or a
 * deploy short (`stop()` ends them on purpose), and each has a time limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { BuildOutcome } from './build-queue.ts';
import { notifyFromReport, type NotifySettings } from '../notify/notify.ts';
import { warmBuilder } from './warm-builder.ts';
import type { ChangeScope } from './change-scope.ts';
import { forwardLines, killGroup } from './child-process-group.ts';

export interface BuildAndDeployOptions {
  root: string;
  out: string;
  /** The build command's script, run by this Node with `--out <out>`. */
  buildScript: string;
  /** Node flags for the build, before its script (the project's `--conditions=source`). */
  nodeFlags?: readonly string[];
  /** Where the build writes its change report (handed to the deploy command as PRESSROOM_CHANGES). */
  changesFile: string;
  deployCommand?: string | undefined;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Each of the build and the deploy is ended past this. Default 30 minutes. */
  timeoutMs?: number;
  /** Who to tell what changed after a deploy succeeded (notify/); undefined: nobody. */
  notify?: NotifySettings | undefined;
  /** The warm renderer's script (scripts/warm/renderer.ts): builds go through a child kept between deliveries (warm-builder.ts). */
  warmRenderer?: string | undefined;
  /** The warm renderer found the upstream changed beyond what a change's deliveries named: one more build is due. */
  onStale?: (why: string) => void;
}

export interface BuildAndDeploy {
  /** `scope`: what the deliveries named, for a warm renderer (a plain build loads everything). */
  run(scope?: ChangeScope): Promise<BuildOutcome>;
  /** Ends a running build or deploy (its whole process group). */
  stop(): void;
}

const SUMMARY_LINE =
  /loaded \d+ collections|images: |search: |page\(s\) built|build failed|left exactly as it was|no site was published|waiting for another build|another build is running|nothing changed since|build: rendering: |build: rendering in full: |build: partial: |build: warm: |build: changes: |^notify: /;

export function buildAndDeploy({
  root,
  out,
  buildScript,
  nodeFlags = [],
  changesFile,
  deployCommand,
  env,
  log,
  timeoutMs = 30 * 60_000,
  notify,
  warmRenderer,
  onStale,
}: BuildAndDeployOptions): BuildAndDeploy {
  const children = new Set<ChildProcess>();
  const buildEnv = without(env, ['PRESSROOM_WEBHOOK_SECRET']);
  const deployEnv = {
    ...without(env, ['PRESSROOM_WEBHOOK_SECRET', 'PRESSROOM_API_KEY']),
    PRESSROOM_SITE_DIR: out,
    PRESSROOM_CHANGES: changesFile,
  };
  let lineHandler: (line: string) => void = () => undefined;
  const plainBuild = () =>
    runChild(
      process.execPath,
      [...nodeFlags, buildScript, '--out', out],
      { cwd: root, env: buildEnv, shell: false, timeoutMs, children },
      (line) => lineHandler(line),
    );
  const warm = warmRenderer
    ? warmBuilder({
        root,
        out,
        rendererScript: warmRenderer,
        nodeFlags,
        env: buildEnv,
        onLine: (line) => lineHandler(line),
        buildTimeoutMs: timeoutMs,
        plainBuild,
        ...(onStale ? { onStale } : {}),
      })
    : undefined;
  const run = async (scope?: ChangeScope): Promise<BuildOutcome> => {
    const started = performance.now();
    let failure: string | undefined;
    let confirmed = false;
    const onLine = (line: string) => {
      if (/^build failed: /.test(line)) failure = line.slice('build failed: '.length);
      if (/^build: nothing changed since /.test(line)) confirmed = true;
      if (SUMMARY_LINE.test(line)) log(`build: ${line.replace(/^\S+ \[[^\]]+\] /, '').replace(/^build: /, '')}`);
    };
    lineHandler = onLine;
    const build = warm ? await warm.build(scope) : await plainBuild();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const built = confirmed ? `confirmed ${out} (nothing changed)` : `built ${out}`;
    if (build.timedOut)
      return {
        ok: false,
        summary: `build stopped after ${Math.round(timeoutMs / 60_000)} min (its time limit); the previous site was kept`,
      };
    if (build.code !== 0)
      return {
        ok: false,
        summary: `build failed after ${seconds} s (${failure ?? build.lastError ?? `exit ${build.code}`}); the previous site was kept`,
      };
    if (!deployCommand) return { ok: true, summary: `${built} in ${seconds} s (no PRESSROOM_DEPLOY_COMMAND)` };
    const deploy = await runChild(deployCommand, [], { cwd: root, env: deployEnv, shell: true, timeoutMs, children }, (line) =>
      log(`deploy: ${line}`),
    );
    if (deploy.timedOut)
      return {
        ok: false,
        summary: `${built} in ${seconds} s, but PRESSROOM_DEPLOY_COMMAND was stopped after ${Math.round(timeoutMs / 60_000)} min (its time limit)`,
      };
    if (deploy.code !== 0)
      return { ok: false, summary: `${built} in ${seconds} s, but PRESSROOM_DEPLOY_COMMAND failed (exit ${deploy.code})` };
    if (notify) await notifyFromReport(changesFile, notify, out, { info: log, warn: log });
    return { ok: true, summary: `${built} in ${seconds} s and deployed` };
  };
  return {
    run,
    stop() {
      warm?.stop();
      for (const child of children) killGroup(child, 'SIGTERM');
    },
  };
}

function without(env: NodeJS.ProcessEnv, names: string[]): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of names) delete copy[name];
  return copy;
}

/** Runs a command in its own process group, line by line, ended (the whole group) past `timeoutMs`. */
export function runChild(
  command: string,
  args: string[],
  {
    timeoutMs,
    children,
    ...options
  }: { cwd: string; env: NodeJS.ProcessEnv; shell: boolean; timeoutMs: number; children: Set<ChildProcess> },
  onLine: (line: string) => void,
): Promise<{ code: number; lastError: string | undefined; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let timedOut = false;
    let hardKill: ReturnType<typeof setTimeout> | undefined;
    const limit = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      hardKill = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
    }, timeoutMs);
    const done = (code: number, lastError: string | undefined) => {
      clearTimeout(limit);
      if (hardKill) clearTimeout(hardKill);
      children.delete(child);
      resolve({ code, lastError, timedOut });
    };
    let lastError: string | undefined;
    forwardLines(child, (line, isError) => {
      if (isError) lastError = line;
      onLine(line);
    });
    child.on('error', (error) => done(127, error.message));
    child.on('close', (code) => done(code ?? 1, lastError));
  });
}
