/**
 * Builds the demo site ONCE per test run into a temporary folder and provides
 * its path and site URL to every site test (`inject('siteDir')`, `inject('siteUrl')`).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export const SITE_URL = 'https://press.example.test';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    siteUrl: string;
    buildMs: number;
  }
}

interface BuiltSite { dir: string; outDir: string; buildMs: number }

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

  return async () => {
    if (--state.users > 0) return;
    delete shared.__pressroomSite;
    await rm(site.dir, { recursive: true, force: true });
  };
}

async function buildSite(): Promise<BuiltSite> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pressroom-site-'));
  const outDir = path.join(dir, 'dist');
  const env: NodeJS.ProcessEnv = { ...process.env, PRESSROOM_SITE_URL: SITE_URL };
  // Always the bundled demo press room, whatever the developer's shell has set.
  for (const name of ['PRESSROOM_API_URL', 'PRESSROOM_ID', 'PRESSROOM_API_KEY', 'PRESSROOM_SNAPSHOT']) delete env[name];

  const started = performance.now();
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'build-site.ts'), outDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`the demo site did not build (exit ${code}):\n${output.join('').slice(-4000)}`);
  }
  return { dir, outDir, buildMs: Math.round(performance.now() - started) };
}
