/**
 * The build session: the PRESSROOM_* configuration parsed once per process, and
 * the little state one build shares between the parts Astro loads apart.
 *
 * Astro evaluates astro.config.mjs with its integrations, the content config
 * (src/content.config.ts) and the pages in separate Vite module graphs: each
 * has its own instance of every module, so a module-level variable set by an
 * integration is not the one a page reads. The session is therefore the one
 * object this project keeps on `globalThis`, under one key; nothing else is.
 *
 * - `config`: parsed by whoever starts the build (astro.config.mjs, or a script
 *   such as scripts/build.ts before it runs Astro, which astro.config.mjs then
 *   reuses) and handed to every integration as an option. Parts that cannot be
 *   given options (the content config, pages) read it with `sessionConfig()`,
 *   which fails with one line when no build opened the session.
 * - `state`: what a build's parts hand each other (the demo upstream, the
 *   loaders' runtime, the build clock, the image pipeline, the caches' folders
 *   and counters). Each module owns its entry and declares its type by
 *   augmenting `SessionState`, so this module imports none of them.
 */
import type { PressroomConfig } from './environment.ts';

/** Filled in by the modules that keep state in the session (`declare module '…/session.ts'`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by each owner module
export interface SessionState {}

export interface BuildSession {
  /** The configuration of this process's build, once parsed. */
  config?: PressroomConfig;
  /** A script opened the session (astro.config.mjs then reuses its configuration instead of parsing again). */
  openedByScript: boolean;
  /** The build command's `--wait`: how long this build waits on others (another build's lock, the image workers). */
  waitMs?: number | undefined;
  state: Partial<SessionState>;
}

const SESSION = Symbol.for('pressroom-static.session');

/** This process's session (made empty on first use). */
export function buildSession(): BuildSession {
  const holder = globalThis as { [SESSION]?: BuildSession };
  return (holder[SESSION] ??= { openedByScript: false, state: {} });
}

/** A script that runs Astro programmatically: the configuration it parsed is the build's, not parsed again by astro.config.mjs. */
export function openBuildSession(config: PressroomConfig, waitMs?: number): BuildSession {
  const session = buildSession();
  session.config = config;
  session.waitMs = waitMs;
  session.openedByScript = true;
  return session;
}

/**
 * astro.config.mjs: the configuration a script opened the session with, else `parse()`'s
 * (parsed at each evaluation, so the dev server's restarts read the environment again).
 */
export function sessionConfigOr(parse: () => PressroomConfig): PressroomConfig {
  const session = buildSession();
  if (!session.openedByScript || !session.config) session.config = parse();
  return session.config;
}

/** The configuration of this build, for the parts Astro loads without options (content config, pages). */
export function sessionConfig(): PressroomConfig {
  const { config } = buildSession();
  if (!config)
    throw new Error(
      'pressroom-static: no build session: the PRESSROOM_* configuration is parsed by astro.config.mjs (or the script running Astro); build through `npm run build` or `astro build` in the project',
    );
  return config;
}

/** The owner module's entry of the session's state, made by `init` on first use. */
export function sessionState<K extends keyof SessionState>(key: K, init: () => SessionState[K]): SessionState[K] {
  const { state } = buildSession();
  return (state[key] ??= init()) as SessionState[K];
}

/** Forgets the configuration and every part's state (tests; a second build in one process opens a new one). */
export function closeBuildSession(): void {
  const session = buildSession();
  session.config = undefined;
  session.waitMs = undefined;
  session.openedByScript = false;
  session.state = {};
}
