/**
 * What decides a build's output, each gathered the way the no-change check
 * and the build itself both see it: the code (every product source file and
 * package-lock.json, with the Node version), the configuration (the
 * PRESSROOM_* values that change what is written; never the API key: the
 * answers it gets are fingerprinted themselves), the upstream (the demo
 * emulator, a snapshot or the API) with its answers, and the build's clock.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type PressroomConfig, type Upstream } from '../src/config/environment.ts';
import { SOURCES, fetchAll, type LoaderRuntime } from '@pressroom-static/content-loaders';
import { createSiteRuntime } from '../src/config/build-runtime.ts';
import { publicationInstant, sourceDateEpoch } from '../src/config/clock.ts';
import type { DemoUpstream } from '../src/config/demo-upstream.ts';
import { loaderOptionsOf } from '../src/config/loader-options.ts';
import { byPath } from '../src/lib/site-files.ts';

/** The project's own code: everything here can change what a build writes. */
export const CODE_PATHS = [
  'package.json',
  'package-lock.json',
  'astro.config.mjs',
  'tsconfig.json',
  'src',
  'content-loaders',
  'image-pipeline',
  'emulator',
  'public',
  'scripts',
  'offline-archive',
  // The build hands its image jobs to the workers through it (PRESSROOM_QUEUE_URL).
  'scale-out',
  'webhook-receiver',
] as const;

/** Top-level entries of the repository that never change a built site (tests, docs, benchmarks, CI). */
export const NOT_CODE = [
  '.ci',
  // The example a team copies to .env: the build reads .env, never this file.
  '.env.example',
  '.gitignore',
  '.prettierignore',
  '.prettierrc.json',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
  'LICENSE',
  'README.md',
  'bench',
  // The deploy command reads a built site and writes a bucket: it never changes what a build writes.
  'deploy',
  'docs',
  'eslint.config.js',
  // Tells a WebSub hub and IndexNow what a build changed: it reads the site, never writes it.
  'notify',
  'test',
  'vitest.config.ts',
] as const;

export interface CodeInputs {
  /** `process.version`: Intl data and the like come with Node. */
  node: string;
  /** Path → SHA-256, sorted. */
  files: Record<string, string>;
}

/** Every file of CODE_PATHS under `root`, hashed. */
export async function codeInputs(root: string): Promise<CodeInputs> {
  const names: string[] = [];
  for (const entry of CODE_PATHS) {
    const full = path.join(root, entry);
    const found = await readdir(full, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTDIR') return null;
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    if (found === null) names.push(entry);
    else
      for (const item of found)
        if (item.isFile()) names.push(path.relative(root, path.join(item.parentPath, item.name)).split(path.sep).join('/'));
  }
  const files: Record<string, string> = {};
  for (const name of names.sort(byPath))
    files[name] = createHash('sha256')
      .update(await readFile(path.join(root, name)))
      .digest('hex');
  return { node: process.version, files };
}

/** The code in 16 hex digits: names what it made in caches that must not outlive it. */
export function codeDigest(code: CodeInputs): string {
  return createHash('sha256').update(JSON.stringify(code)).digest('hex').slice(0, 16);
}

/**
 * The configuration that decides what is written, by variable name (values as the build reads
 * them). Left out: PRESSROOM_API_KEY (what it can read is in the answers), PRESSROOM_CONCURRENCY,
 * PRESSROOM_CACHE_DIR, PRESSROOM_WEBHOOK_SECRET, PRESSROOM_DEPLOY_COMMAND and
 * PRESSROOM_INDEXNOW_ENDPOINT (they change how, not what). The IndexNow key names the key file the
 * site serves; it is recorded as a digest, so the fingerprint beside the site never holds it.
 */
export function configurationOf(
  env: Record<string, string | undefined>,
  upstream: Upstream,
  config: PressroomConfig = loadConfig(env),
): Record<string, string | null> {
  return {
    upstream,
    PRESSROOM_API_URL: upstream === 'api' ? (config.apiUrl ?? null) : null,
    PRESSROOM_ID: upstream === 'api' ? (config.pressroomId ?? null) : null,
    PRESSROOM_SNAPSHOT: upstream === 'snapshot' && config.snapshotDir ? path.resolve(config.snapshotDir) : null,
    PRESSROOM_SITE_URL: config.siteUrl,
    PRESSROOM_IMAGE_HOSTS: [...config.imageHosts].sort().join(',') || null,
    PRESSROOM_STRICT: config.strict ? '1' : '0',
    PRESSROOM_WEBSUB_HUB: config.websubHub ?? null,
    PRESSROOM_INDEXNOW_KEY: config.indexNowKey ? `sha256:${createHash('sha256').update(config.indexNowKey).digest('hex')}` : null,
    SOURCE_DATE_EPOCH: sourceDateEpoch(env) === undefined ? null : String(sourceDateEpoch(env)! / 1000),
  };
}

/** The first variable whose value differs, in words. */
export function configurationDifference(recorded: Record<string, string | null>, now: Record<string, string | null>): string | undefined {
  // Where the press room comes from first: it explains the other differences.
  for (const name of ['upstream', ...[...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort(byPath)]) {
    if ((recorded[name] ?? null) !== (now[name] ?? null)) {
      return name === 'upstream'
        ? `the press room now comes from ${now[name] === 'api' ? 'the API' : `the ${now[name]}`}`
        : `${name} changed`;
    }
  }
  return undefined;
}

/** The first code file added, removed or changed, in words. */
export function codeDifference(recorded: CodeInputs, now: CodeInputs): string | undefined {
  if (recorded.node !== now.node) return `Node changed (${recorded.node} → ${now.node})`;
  for (const [name, sha] of Object.entries(now.files)) {
    if (!(name in recorded.files)) return `the code changed (${name} was added)`;
    if (recorded.files[name] !== sha) return `the code changed (${name})`;
  }
  for (const name of Object.keys(recorded.files)) if (!(name in now.files)) return `the code changed (${name} was removed)`;
  return undefined;
}

/**
 * Every answer the build's loaders would ask for, asked now through the HTTP cache (a 304 each
 * when nothing changed) by a runtime of its own: endpoint → SHA-256 of the body.
 */
export async function currentAnswers(runtime: LoaderRuntime): Promise<ReadonlyMap<string, string>> {
  const context = { now: runtime.now, issues: runtime.issues, log: () => {} };
  await Promise.all(Object.values(SOURCES).map((source) => fetchAll(source.fetch(runtime.client, context))));
  return runtime.client.answers();
}

/** The first endpoint whose answer differs, in words. */
export function answersDifference(recorded: Record<string, string>, now: ReadonlyMap<string, string>): string | undefined {
  const changed = [...new Set([...Object.keys(recorded), ...now.keys()])]
    .sort(byPath)
    .filter((endpoint) => recorded[endpoint] !== now.get(endpoint));
  if (changed.length === 0) return undefined;
  const first = changed[0]!;
  const what = !(first in recorded) ? 'is new' : !now.has(first) ? 'is no longer asked for' : 'changed';
  return changed.length === 1 ? `the API answer ${first} ${what}` : `${changed.length} API answers differ (first: ${first} ${what})`;
}

/** A loader runtime of its own for the check (its own client, counters and data-policy log; the same caches). */
export function checkRuntime(
  env: Record<string, string | undefined>,
  demo?: DemoUpstream,
  config: PressroomConfig = loadConfig(env),
): Promise<LoaderRuntime> {
  return createSiteRuntime(loaderOptionsOf(config, publicationInstant(env), demo));
}
