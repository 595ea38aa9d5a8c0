/**
 * The no-change check, run by `npm run build` before anything renders: can
 * the site in `out` be confirmed as it is? Yes only when everything that
 * decided its bytes is what the fingerprint beside it recorded, cheapest
 * first, stopping at the first difference:
 *
 *   code (every product source file, package-lock.json, Node) → configuration
 *   → the site itself (its files, by size and mtime, re-hashed where those moved)
 *   → the embargo clock (no recorded embargo has lifted) → the build day
 *   → every API answer (the loaders' own requests, through the HTTP cache: 304s)
 *   → every media original (conditional requests: 304s)
 *
 * Any difference, or anything that cannot be checked (no fingerprint, the API
 * unreachable), is a reason to render; the check itself writes nothing.
 */
import { loadConfig, type PressroomConfig, type Upstream } from '../src/config/environment.ts';
import { publicationInstant } from '../src/config/clock.ts';
import { cacheFolder } from '../src/config/cache-folders.ts';
import type { LoaderRuntime } from '@pressroom-static/content-loaders';
import { startDemoApi } from '../src/config/demo-upstream.ts';
import { revalidateOriginals } from '@pressroom-static/image-pipeline';
import { buildDayOf, chooseBuildClock } from '../src/lib/build-day.ts';
import {
  answersDifference,
  checkRuntime,
  codeDifference,
  configurationDifference,
  currentAnswers,
  type CodeInputs,
} from './build-inputs.ts';
import type { Fingerprint } from './fingerprint.ts';
import { loadTree, readTree, treeDifference, type Tree } from './output-tree.ts';

export interface NoChangeCheck {
  root: string;
  out: string;
  env: Record<string, string | undefined>;
  /** `env` parsed (the build's session); parsed here when not given. */
  config?: PressroomConfig;
  upstream: Upstream;
  /** This checkout's code and this run's configuration, as the build records them. */
  code: CodeInputs;
  configuration: Record<string, string | null>;
  recorded: Fingerprint | { missing: string };
  /** The machine's clock, ms (default now; tests move it). */
  now?: number;
}

export type Verdict =
  | { unchanged: true; since: string; tree: Tree; answers: number; originals: number }
  | {
      unchanged: false;
      reason: string;
      /**
       * Set when no partial build can follow, with why: a media original changed under the same
       * address, and the route record knows the files each page asked for, not the originals
       * behind them, so it cannot tell which pages to render again.
       */
      inFull?: string;
    };

/** The image cache of a build run from `root` (src/integrations/images.ts puts it there too). */
export const imageCacheDir = (root: string, config: Pick<PressroomConfig, 'cacheDir'>): string => cacheFolder(root, config, 'images');

export async function confirmUnchanged({
  root,
  out,
  env,
  config = loadConfig(env),
  upstream,
  code,
  configuration,
  recorded,
  now = Date.now(),
}: NoChangeCheck): Promise<Verdict> {
  const render = (reason: string, inFull?: string): Verdict => ({ unchanged: false, reason, ...(inFull ? { inFull } : {}) });
  if ('missing' in recorded) return render(recorded.missing);

  const codeChange = codeDifference(recorded.code, code);
  if (codeChange) return render(codeChange);
  const configChange = configurationDifference(recorded.configuration, configuration);
  if (configChange) return render(configChange);

  let built: Tree;
  let tree: Tree;
  try {
    built = loadTree(recorded.output);
    tree = (await readTree(out, built)).tree;
  } catch (error) {
    return render(`${out} cannot be read back (${(error as Error).message})`);
  }
  if (tree.size === 0) return render(`there is no site in ${out}`);
  const damage = treeDifference(built, tree);
  if (damage) return render(`the site in ${out} is not as built: ${damage}`);

  if (recorded.nextEmbargoLift && Date.parse(recorded.nextEmbargoLift) <= publicationInstant(env, now)) {
    return render(`an embargo lifted at ${recorded.nextEmbargoLift}`);
  }

  // From here on the upstream is asked: the demo's own emulator, a snapshot, or the API.
  let embedded: Awaited<ReturnType<typeof startDemoApi>> | undefined;
  try {
    if (upstream === 'demo') embedded = await startDemoApi({ stableOrigin: true });
    if (recorded.buildDay) {
      const clock = chooseBuildClock(env, embedded?.emulator.store().clock.now().getTime(), now);
      const today = buildDayOf(clock.instant, recorded.buildDay.timeZone).date;
      if (today !== recorded.buildDay.day) return render(`the build day is ${today}, the site's is ${recorded.buildDay.day}`);
    }

    let runtime: LoaderRuntime;
    let answers: ReadonlyMap<string, string>;
    try {
      runtime = await checkRuntime(
        env,
        embedded && { apiUrl: embedded.apiUrl, pressroomId: embedded.pressroomId, fetch: embedded.fetch! },
        config,
      );
      answers = await currentAnswers(runtime);
    } catch (error) {
      return render(`the API answers could not be checked (${(error as Error).message.split('\n')[0]})`);
    }
    const answerChange = answersDifference(recorded.api, answers);
    if (answerChange) return render(answerChange);

    const media = await revalidateOriginals(recorded.media, {
      fetch: runtime.fetch,
      limit: (fn) => runtime.client.limit(fn),
      apiUrl: runtime.client.baseUrl,
      imageHosts: config.imageHosts,
      checkAddresses: runtime.mode === 'live',
      cacheDir: imageCacheDir(root, config),
    });
    if (media.difference)
      return render(
        media.difference,
        media.changed ? 'a media original changed under the same address; the route record cannot tell which pages show it' : undefined,
      );
    return { unchanged: true, since: recorded.builtAt, tree, answers: answers.size, originals: recorded.media.length };
  } finally {
    await embedded?.close();
  }
}
