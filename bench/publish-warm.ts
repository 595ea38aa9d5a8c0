/**
 * publish-edit, publish-removed, publish-new: releases made live by the webhook receiver's warm
 * renderer (`npm run webhooks -- --warm`: webhook-receiver/build-and-deploy.ts with
 * scripts/warm/renderer.ts), each timed from the delivery's build request to the swap (the
 * receiver's `run()`, no deploy command), the build asked for what the delivery names (the release's
 * `press_release.updated`, `.unpublished` or `.published`: the release is loaded alone, every
 * collection synced once the change is live).
 * The renderer's first build is not timed; after each change a `--force` build of the same upstream
 * state into `forcedDir` must hold the same bytes.
 */
import os from 'node:os';
import path from 'node:path';
import { warmReceiverBuilds } from '../test/helpers/warm-builds.ts';
import { measure } from './measure.ts';
import { siteDifferences } from './publish-check.ts';
import type { ChangeScope } from '../webhook-receiver/change-scope.ts';

export interface WarmChange {
  /** The goal's name, as `publish-edit`. */
  name: string;
  /** Makes the upstream change (through the management API). */
  make: () => Promise<void>;
  /** What the change's delivery names, as the receiver reads it (change-scope.ts). */
  named: ChangeScope;
}

export interface WarmPublish {
  name: string;
  ms: number;
  /** The renderer's line: `build: warm: N of M routes rendered (…) in S s; changes: …`. */
  line: string;
  loadAverage: number;
  forcedMs: number;
  differing: string[];
}

/** Makes each change live in turn through one warm renderer over `work/warm-site`. */
export async function publishWarm({
  root,
  env,
  work,
  forcedDir,
  changes,
}: {
  root: string;
  env: NodeJS.ProcessEnv;
  work: string;
  forcedDir: string;
  changes: readonly WarmChange[];
}): Promise<WarmPublish[]> {
  const site = path.join(work, 'warm-site');
  const lines: string[] = [];
  const receiver = warmReceiverBuilds(site, env, (line) => lines.push(line));
  try {
    const first = await receiver.run();
    if (!first.ok) throw new Error(`bench: the warm renderer's first build failed: ${first.summary}`);
    const published: WarmPublish[] = [];
    for (const { name, make, named } of changes) {
      await make();
      const from = lines.length;
      const started = performance.now();
      const changed = await receiver.run(named);
      const ms = performance.now() - started;
      const loadAverage = os.loadavg()[0]!;
      if (!changed.ok) throw new Error(`bench: ${name}: the warm change failed: ${changed.summary}`);
      const line = lines.slice(from).find((l) => /^build: warm: \d+ of \d+ routes rendered/.test(l));
      // A child that ended after the last change (memory past its bound, a `full` answer) leaves this one to a new build.
      if (!line) throw new Error(`bench: ${name}: not made live warm: ${lines.slice(from).join(' | ')}`);
      console.log(`  ${name}: ${Math.round(ms)} ms at load ${loadAverage.toFixed(1)}; ${line}`);
      // Compared once the child's sync after the answer is done, and with it what that sync may have found.
      const deadline = Date.now() + 600_000;
      while (!lines.slice(from).some((l) => l.startsWith('build: warm: the previous site removed'))) {
        if (lines.slice(from).some((l) => / one more change follows$/.test(l)))
          throw new Error(`bench: ${name}: the upstream changed beyond the named release during the warm change`);
        if (Date.now() > deadline)
          throw new Error(`bench: ${name}: the warm renderer did not write its record within 10 minutes of the change`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const forced = await measure(['scripts/build.ts', '--out', forcedDir, '--force'], { cwd: root, env });
      published.push({ name, ms, line, loadAverage, forcedMs: forced.ms, differing: await siteDifferences(site, forcedDir) });
    }
    return published;
  } finally {
    receiver.stop();
  }
}
