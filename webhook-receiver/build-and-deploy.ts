/**
 * What a webhook sets off: `scripts/build.ts --out <out>` in a child process
 * (a fresh Astro each time; it swaps the new site in only when it succeeds, so
 * a failed build keeps the previous one), then PRESSROOM_DEPLOY_COMMAND in a
 * shell with PRESSROOM_SITE_DIR set to the site, when the build succeeded.
 * The build's route-by-route lines are left out of the log; its summary lines
 * (loading, images, search, pages built, failure) are passed through. Each
 * child gets only the secrets it needs: the build the API key, the deploy
 * command neither the key nor the webhook secret.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BuildOutcome } from './build-queue.ts';

export interface BuildAndDeployOptions {
  root: string;
  out: string;
  deployCommand?: string | undefined;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

const SUMMARY_LINE = /loaded \d+ collections|images: |search: |page\(s\) built|build failed|left exactly as it was|nothing was written/;

export function buildAndDeploy({ root, out, deployCommand, env, log }: BuildAndDeployOptions): () => Promise<BuildOutcome> {
  const buildEnv = without(env, ['PRESSROOM_WEBHOOK_SECRET']);
  const deployEnv = { ...without(env, ['PRESSROOM_WEBHOOK_SECRET', 'PRESSROOM_API_KEY']), PRESSROOM_SITE_DIR: out };
  return async () => {
    const started = performance.now();
    let failure: string | undefined;
    const build = await runChild(process.execPath, [path.join(root, 'scripts', 'build.ts'), '--out', out], { cwd: root, env: buildEnv, shell: false }, (line) => {
      if (/^build failed: /.test(line)) failure = line.slice('build failed: '.length);
      if (SUMMARY_LINE.test(line)) log(`build: ${line.replace(/^\S+ \[[^\]]+\] /, '')}`);
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (build.code !== 0) return { ok: false, summary: `build failed after ${seconds} s (${failure ?? build.lastError ?? `exit ${build.code}`}); the previous site was kept` };
    if (!deployCommand) return { ok: true, summary: `built ${out} in ${seconds} s (no PRESSROOM_DEPLOY_COMMAND)` };
    const deploy = await runChild(deployCommand, [], { cwd: root, env: deployEnv, shell: true }, (line) => log(`deploy: ${line}`));
    if (deploy.code !== 0) return { ok: false, summary: `built ${out} in ${seconds} s, but PRESSROOM_DEPLOY_COMMAND failed (exit ${deploy.code})` };
    return { ok: true, summary: `built ${out} in ${seconds} s and deployed` };
  };
}

function without(env: NodeJS.ProcessEnv, names: string[]): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of names) delete copy[name];
  return copy;
}

function runChild(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; shell: boolean },
  onLine: (line: string) => void,
): Promise<{ code: number; lastError: string | undefined }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let lastError: string | undefined;
    const lines = (stream: NodeJS.ReadableStream, isError: boolean) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        const parts = (rest + text).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd()).filter(Boolean)) {
          if (isError) lastError = line;
          onLine(line);
        }
      });
    };
    lines(child.stdout!, false);
    lines(child.stderr!, true);
    child.on('error', (error) => resolve({ code: 127, lastError: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, lastError }));
  });
}
