/**
 * publish-edit, publish-removed, publish-new: releases made live by the webhook receiver's warm
 * renderer (`npm run webhooks -- --warm`: webhook-receiver/build-and-deploy.ts with
 * scripts/warm/renderer.ts), each timed from the delivery's build request to the swap (the
 * receiver's `run()`, no deploy command), the build asked for what the delivery names (the release's
 * `press_release.updated`, `.unpublished` or `.published`: the release is loaded alone, every
 * collection synced once the change is live).
 * The renderer's first build is not timed; after each change a `--force` build of the same upstream
 * state must hold the same bytes (`compare`, as the bench compares its partial builds).
 */
import os from 'node:os';
import path from 'node:path';
import { warmReceiverBuilds } from '../test/helpers/warm-builds.ts';
import type { ChangeScope } from '../webhook-receiver/change-scope.ts';
import type { ForcedComparison } from './publish-check.ts';

export interface WarmChange {
  /** The goal's name, as `publish-edit`. */
  name: string;
  /** Makes the upstream change (through the management API). */
  make: () => Promise<void>;
  /** What the change's delivery names, as the receiver reads it (change-scope.ts). */
  named: ChangeScope;
}

export interface WarmPublish<C extends WarmChange> {
  change: C;
  ms: number;
  /** The renderer's line: `build: warm: N of M routes rendered (…) in S s; changes: …`. */
  line: string;
  loadAverage: number;
  /** The `--force` build of the same upstream state, and the files of the warm site that differ from it. */
  compared: ForcedComparison;
}

/** Makes each change live in turn through one warm renderer over `work/warm-site`. */
export async function publishWarm<C extends WarmChange>({
  env,
  work,
  changes,
  compare,
}: {
  env: NodeJS.ProcessEnv;
  work: string;
  changes: readonly C[];
  /** Builds the same upstream state with `--force` and compares `site` with it. */
  compare: (site: string, label: string) => Promise<ForcedComparison>;
}): Promise<Array<WarmPublish<C>>> {
  const site = path.join(work, 'warm-site');
  const lines: string[] = [];
  const receiver = warmReceiverBuilds(site, env, (line) => lines.push(line));
  try {
    const first = await receiver.run();
    if (!first.ok) throw new Error(`bench: the warm renderer's first build failed: ${first.summary}`);
    const published: Array<WarmPublish<C>> = [];
    for (const change of changes) {
      const { name, make, named } = change;
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
      published.push({ change, ms, line, loadAverage, compared: await compare(site, name) });
    }
    return published;
  } finally {
    receiver.stop();
  }
}
