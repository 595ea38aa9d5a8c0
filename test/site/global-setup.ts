/**
 * Builds the demo site ONCE per test run into a temporary folder and provides
 * its path and site URL to every site test (`inject('siteDir')`, `inject('siteUrl')`).
 *
 * Then a second site, from the press room the live API would send at its
 * worst (`inject('upstreamSite')`): the demo data in the older, sparser shapes,
 * with a fixed set of broken items among the good ones, and answered as to a
 * key with more rights than the public view (every hidden item leaked into
 * every route). It must publish completely, warn about each broken item and
 * publish nothing that is not public. It is served under a path
 * (`UPSTREAM_BASE`, PRESSROOM_SITE_URL `https://press.example.test/press/`), so
 * every test over it also covers a site under a base path.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { DEMO_NOW } from '../../emulator/defaults.ts';
import { startEmulator, type EmulatorOptions } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { dataReportPath } from '../../scripts/data-report.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

export const SITE_URL = 'https://press.example.test';
/** The base path the upstream site is served under. */
export const UPSTREAM_BASE = '/press/';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    siteUrl: string;
    buildMs: number;
    upstreamSite: { dir: string; log: string; report: string; siteUrl: string; base: string };
  }
}

/** The hostile upstream's emulator options (the site tests start the same one to know what to expect). */
export const UPSTREAM_OPTIONS = {
  shapes: 'legacy',
  flaws: true,
  leakHidden: true,
  frozenClock: true,
  seed: 1,
} as const satisfies EmulatorOptions;

interface BuiltSite {
  dir: string;
  outDir: string;
  buildMs: number;
  upstream: { dir: string; log: string; report: string; siteUrl: string; base: string };
}

/**
 * One build per run, shared by every project that lists this file (site,
 * browser): global setups run in vitest's main process, so the build is kept
 * on globalThis and the folder is removed when the last project tears down.
 */
const shared = globalThis as typeof globalThis & { __pressroomSite?: { build: Promise<BuiltSite>; users: number } };

export default async function setup(project: TestProject) {
  shared.__pressroomSite ??= { build: buildSite(), users: 0 };
  const state = shared.__pressroomSite;
  state.users++;
  let site: BuiltSite;
  try {
    site = await state.build;
  } catch (error) {
    state.users--;
    throw error;
  }
  project.provide('siteDir', site.outDir);
  project.provide('siteUrl', SITE_URL);
  project.provide('buildMs', site.buildMs);
  project.provide('upstreamSite', site.upstream);

  return async () => {
    if (--state.users > 0) return;
    delete shared.__pressroomSite;
    await rm(site.dir, { recursive: true, force: true });
  };
}

/** Runs test/site/build-site.ts into `outDir` (with `configFile` as Astro's config, if given); resolves with its exit code and output. */
export async function runBuild(
  outDir: string,
  env: NodeJS.ProcessEnv,
  configFile?: string,
): Promise<{ code: number | null; output: string }> {
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const args = [SOURCE_CONDITION_FLAG, path.join(import.meta.dirname, 'build-site.ts'), outDir, ...(configFile ? [configFile] : [])];
    const child = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('exit', resolve);
  });
  return { code, output: output.join('') };
}

/**
 * The environment of a test build: this process's, without any PRESSROOM_* the developer's shell has
 * set, and without the Vite variables a vitest worker adds (a build started from a test file would
 * otherwise take `BASE_URL=/` over the site's own base path).
 */
export function cleanBuildEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PRESSROOM_SITE_URL: SITE_URL };
  for (const name of [
    'PRESSROOM_API_URL',
    'PRESSROOM_ID',
    'PRESSROOM_API_KEY',
    'PRESSROOM_SNAPSHOT',
    'PRESSROOM_STRICT',
    'SOURCE_DATE_EPOCH',
    'BASE_URL',
    'MODE',
    'DEV',
    'PROD',
    'SSR',
  ])
    delete env[name];
  return env;
}

/** What the hostile upstream's site is built with, for the emulator `api` (pinned to the demo instant). */
export function upstreamBuildEnv(api: { url: string; pressroom: { id: number } }): NodeJS.ProcessEnv {
  return {
    ...cleanBuildEnv(),
    PRESSROOM_SITE_URL: `${SITE_URL}${UPSTREAM_BASE}`,
    PRESSROOM_API_URL: api.url,
    PRESSROOM_ID: String(api.pressroom.id),
    SOURCE_DATE_EPOCH: String(Math.floor(Date.parse(DEMO_NOW) / 1000)),
  };
}

async function buildSite(): Promise<BuiltSite> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-site-'));
  const outDir = path.join(dir, 'dist');
  // Always the bundled demo press room, whatever the developer's shell has set.
  const env = cleanBuildEnv();

  try {
    const started = performance.now();
    const demo = await runBuild(outDir, env);
    if (demo.code !== 0) throw new Error(`the demo site did not build (exit ${demo.code}):\n${demo.output.slice(-4000)}`);
    const buildMs = Math.round(performance.now() - started);

    // The emulator's clock stands still at the demo instant; the build's clock is pinned to it, so
    // what the emulator embargoes is still embargoed for the build.
    const api = await startEmulator({ ...UPSTREAM_OPTIONS, cacheDir: TEST_MEDIA_CACHE });
    const upstreamDir = path.join(dir, 'upstream');
    let upstream: { code: number | null; output: string };
    try {
      upstream = await runBuild(upstreamDir, upstreamBuildEnv(api));
    } finally {
      await api.close();
    }
    if (upstream.code !== 0)
      throw new Error(`the site of the hostile upstream did not build (exit ${upstream.code}):\n${upstream.output.slice(-4000)}`);
    return {
      dir,
      outDir,
      buildMs,
      upstream: {
        dir: upstreamDir,
        log: upstream.output,
        report: dataReportPath(upstreamDir),
        siteUrl: `${SITE_URL}${UPSTREAM_BASE}`,
        base: UPSTREAM_BASE,
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
