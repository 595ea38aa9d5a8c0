/**
 * The warm renderer: a child process of the webhook receiver (`child_process.fork`, IPC) that runs
 * the build command in its own process (partial when the site in `--out` allows it, as a plain build
 * would be; the no-change check aside: this process needs the Astro it runs), keeps Astro's App and
 * content layer, and then makes each `change` message live by rendering only the routes it touches
 * (change.ts), in 1–3 s at the demo instead of a new build process's 10–12 s floor. Whatever it
 * cannot prove (other code or configuration, an embargo lifting, a damaged site, an error, memory
 * past its bound) it answers `full` and ends: the receiver then starts a new child, whose first
 * build decides for itself, as the build command does. An
 * Astro internal of another shape is said after the first build: the receiver then runs the build
 * command for each delivery, as without `--warm`. Protocol: webhook-receiver/warm-protocol.ts.
 *
 *   node --conditions=source scripts/warm/renderer.ts --out DIR   (forked; not a command of its own)
 */
import path from 'node:path';
import { exitUnlessSourceCondition } from '../../src/config/source-condition.ts';
import { loadConfig, upstreamOf } from '../../src/config/environment.ts';
import { runBuildCommand } from '../build-command.ts';
import { codeInputs, configurationOf } from '../build-inputs.ts';
import { firstLine } from '../cli.ts';
import { internalsMissing, keepContentLayer } from './astro-internals.ts';
import { warmChange, type ChangeOutcome, type WarmSite } from './change.ts';
import { keptApp } from './kept-app.ts';
import { keepSearchablePages } from '../../src/search/searchable-pages.ts';
import { releaseFreedMemory } from '../../src/lib/freed-memory.ts';
import { keepAdmissionMemo } from '../../src/config/admission-memo.ts';
import type { ChangeRequest, RendererMessage } from '../../webhook-receiver/warm-protocol.ts';

exitUnlessSourceCondition('warm renderer');
const root = path.resolve(import.meta.dirname, '..', '..');
/** Past this resident size between changes the child ends (the next delivery starts a new one): twice a demo build's. */
const MAX_RSS_MIB = 2048;

const send = (message: RendererMessage): Promise<void> =>
  new Promise((resolve) => (process.send ? process.send(message, undefined, {}, () => resolve()) : resolve()));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const out = path.resolve(args[args.indexOf('--out') + 1] ?? path.join(root, 'dist'));
  const code = await codeInputs(root);
  const layer = await keepContentLayer();
  keepSearchablePages();
  keepAdmissionMemo();
  const app = keptApp();
  const exitCode = await runBuildCommand(['--out', out], {
    integrations: [app.integration],
    observer: app.observer,
    keep: (prerenderers) => app.keep(prerenderers),
  });
  const kept = 'missing' in layer ? undefined : layer.layer();
  const why =
    'missing' in layer
      ? layer.missing
      : internalsMissing({ layer: kept, inner: app.inner(), sitemap: app.sitemap(), lazyImports: app.lazyImports() });
  if (exitCode !== 0 || why) {
    if (exitCode === 0) console.log(`build: warm: WARNING: no warm renderer (${why}); each delivery runs the build command`);
    await send({ type: 'built', exitCode, warm: false, ...(why ? { why } : {}) });
    process.exit(exitCode);
  }
  const config = loadConfig(process.env);
  const site: WarmSite = {
    root,
    out,
    config,
    configuration: configurationOf(process.env, upstreamOf(process.env, { publish: true, config }), config),
    code,
    waitMs: 600_000,
    log: (line) => console.log(line),
  };
  await send({ type: 'built', exitCode, warm: true });
  /** A change that is live while it writes its record: an end asked for then waits for it (the next build would render in full). */
  let recording: Promise<unknown> | undefined;
  const endOnceRecorded = (code: number) => void (recording ?? Promise.resolve()).finally(() => process.exit(code));
  let queue = Promise.resolve();
  process.on('message', (message: ChangeRequest) => {
    if (message?.type !== 'change') return;
    queue = queue.then(async () => {
      let answered = false;
      const change: Promise<ChangeOutcome> = warmChange(
        site,
        app,
        kept!,
        async (summary) => {
          answered = true;
          recording = change;
          await send({ type: 'changed', summary });
        },
        message.scope,
      ).catch((error: unknown) => ({ full: `the warm change failed (${firstLine(error)})` }));
      const outcome = await change;
      recording = undefined;
      if ('full' in outcome && answered) {
        console.log(`build: warm: the change is live, but ${outcome.full} after it: the next build renders in full; this renderer ends`);
        process.exit(1);
      }
      if ('full' in outcome) {
        console.log(`build: warm: rendering in full: ${outcome.full}`);
        await send({ type: 'full', why: outcome.full });
        process.exit(0);
      }
      // Its record written: the change the receiver queues now plans from it.
      if (outcome.stale) await send({ type: 'stale', why: outcome.stale });
      // Measured once the change's garbage is collected and handed back (the delivery is answered by then):
      // what this process keeps between changes, not the peak of the last one.
      const { afterMiB } = releaseFreedMemory();
      if (afterMiB > MAX_RSS_MIB) {
        console.log(
          `build: warm: ${afterMiB} MiB resident, past ${MAX_RSS_MIB} MiB: this renderer ends, the next delivery starts a new one`,
        );
        process.exit(0);
      }
    });
  });
  process.on('disconnect', () => endOnceRecorded(0));
  process.on('SIGTERM', () => endOnceRecorded(143));
}

await main();
