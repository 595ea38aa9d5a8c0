/**
 * This build's loader runtime (one client, one limiter, one data-policy log),
 * shared by the content config, the integrations and the image pipeline.
 * Astro loads those in separate module graphs, so the handle is kept in the
 * build session (session.ts), keyed by the options it was made from: a second
 * build in the same process with other settings gets a runtime of its own.
 */
import { createHash } from 'node:crypto';
import { LoaderOptionsError, createLoaderRuntime, type LoaderOptions, type LoaderRuntime } from '@pressroom-static/content-loaders';
import { ConfigError } from './environment.ts';
import { publicationInstant } from './clock.ts';
import { demoUpstream, markDemoBuild } from './demo-upstream.ts';
import { loaderOptionsOf } from './loader-options.ts';
import { buildSession, sessionConfig } from './session.ts';

interface RuntimeHandle {
  key: string;
  runtime: Promise<LoaderRuntime>;
}

declare module './session.ts' {
  interface SessionState {
    loaderRuntime: RuntimeHandle | undefined;
  }
}

const state = () => buildSession().state;

/** The loaders' options of this build, from the session's configuration (and the demo press room this process serves). */
export function buildLoaderOptions(env: Record<string, string | undefined> = process.env): LoaderOptions {
  return loaderOptionsOf(sessionConfig(), publicationInstant(env), demoUpstream());
}

/** What makes two runtimes interchangeable: every setting but the clock (read anew by each module graph) and functions. */
function runtimeKey(options: LoaderOptions): string {
  const { apiKey, now: _now, fetch: supplied, logger: _logger, settingNames: _names, ...settings } = options;
  return JSON.stringify({
    ...settings,
    apiKey: apiKey ? createHash('sha256').update(apiKey).digest('hex') : undefined,
    fetch: supplied ? 'supplied' : undefined,
  });
}

/** The site's own message for an option the package refused (the variable it came from). */
function asConfigError(error: unknown): unknown {
  if (error instanceof LoaderOptionsError && error.option === 'snapshot') {
    const cause = (error.cause as Error | undefined)?.message ?? error.message;
    return new ConfigError('PRESSROOM_SNAPSHOT', [`PRESSROOM_SNAPSHOT is not a readable snapshot: ${cause}`]);
  }
  return error;
}

/** A runtime for these options, with the site's messages and demo marking. */
export async function createSiteRuntime(options: LoaderOptions): Promise<LoaderRuntime> {
  try {
    const created = await createLoaderRuntime(options);
    // Recorded from the bundled demo press room: the site marks itself as a demo (src/lib/demo.ts).
    if (created.snapshot?.api.demo) markDemoBuild();
    return created;
  } catch (error) {
    throw asConfigError(error);
  }
}

/** The runtime of this build, created on first use. */
export function buildRuntime(env: Record<string, string | undefined> = process.env): Promise<LoaderRuntime> {
  let options: LoaderOptions;
  try {
    options = buildLoaderOptions(env);
  } catch (error) {
    return Promise.reject(error);
  }
  const key = runtimeKey(options);
  const existing = state().loaderRuntime;
  if (existing?.key === key) return existing.runtime;
  const runtime = createSiteRuntime(options).catch((error: unknown) => {
    if (state().loaderRuntime?.runtime === runtime) state().loaderRuntime = undefined;
    throw error;
  });
  state().loaderRuntime = { key, runtime };
  return runtime;
}

/** The runtime of this build if one was started (never creates one): for what a command reports after a build. */
export function startedBuildRuntime(): Promise<LoaderRuntime> | undefined {
  return state().loaderRuntime?.runtime;
}

/** Forget the runtime (tests, and a second build in the same process). */
export function resetBuildRuntime(): void {
  state().loaderRuntime = undefined;
}
