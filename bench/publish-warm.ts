/**
 * publish-edit-warm: an edited release made live by the webhook receiver's warm renderer
 * (`npm run webhooks -- --warm`: webhook-receiver/build-and-deploy.ts with scripts/warm/renderer.ts),
 * timed from the delivery's build request to the swap (the receiver's `run()`, no deploy command).
 * The renderer's first build (in full) is not timed; after the change a `--force` build of the same
 * upstream state into `forcedDir` must hold the same bytes.
 */
import os from 'node:os';
import path from 'node:path';
import { warmReceiverBuilds } from '../test/helpers/warm-builds.ts';
import { measure } from './measure.ts';
import { siteDifferences } from './publish-check.ts';

export interface WarmPublish {
  ms: number;
  /** The renderer's line: `build: warm: N of M routes rendered (…) in S s; changes: …`. */
  line: string | null;
  loadAverage: number;
  forcedMs: number;
  differing: string[];
}

export async function publishEditWarm({
  root,
  env,
  work,
  forcedDir,
  edit,
}: {
  root: string;
  env: NodeJS.ProcessEnv;
  work: string;
  forcedDir: string;
  /** Makes the upstream change (a retitle through the management API). */
  edit: () => Promise<void>;
}): Promise<WarmPublish> {
  const site = path.join(work, 'warm-site');
  const lines: string[] = [];
  const receiver = warmReceiverBuilds(site, env, (line) => lines.push(line));
  try {
    const first = await receiver.run();
    if (!first.ok) throw new Error(`bench: the warm renderer's first build failed: ${first.summary}`);
    await edit();
    const from = lines.length;
    const started = performance.now();
    const changed = await receiver.run();
    const ms = performance.now() - started;
    const loadAverage = os.loadavg()[0]!;
    if (!changed.ok) throw new Error(`bench: the warm change failed: ${changed.summary}`);
    const line = lines.slice(from).find((l) => /^build: warm: \d+ of \d+ routes rendered/.test(l)) ?? null;
    console.log(
      `  publish-edit-warm: ${Math.round(ms)} ms at load ${loadAverage.toFixed(1)}; ${line ?? 'NOT warm: ' + lines.slice(from).join(' | ')}`,
    );
    const forced = await measure(['scripts/build.ts', '--out', forcedDir, '--force'], { cwd: root, env });
    return { ms, line, loadAverage, forcedMs: forced.ms, differing: await siteDifferences(site, forcedDir) };
  } finally {
    receiver.stop();
  }
}
