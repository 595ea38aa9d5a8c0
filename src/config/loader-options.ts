/**
 * The loaders' options made from this site's configuration contract (the
 * PRESSROOM_* variables): the package reads no environment, the site does.
 * Error messages of the loaders name the variables a user of this site sets.
 */
import path from 'node:path';
import type { LoaderOptions, SettingNames } from '@pressroom-static/content-loaders';
import { ConfigError, type PressroomConfig } from './environment.ts';
import type { DemoUpstream } from './demo-upstream.ts';
import { cacheFolder } from './cache-folders.ts';

export const ENVIRONMENT_SETTING_NAMES: SettingNames = {
  apiUrl: 'PRESSROOM_API_URL',
  pressroomId: 'PRESSROOM_ID',
  apiKey: 'PRESSROOM_API_KEY',
  concurrency: 'PRESSROOM_CONCURRENCY',
  strict: 'PRESSROOM_STRICT',
};

/** The HTTP cache of a live build: `<PRESSROOM_CACHE_DIR or .cache>/pressroom-http`, from the working directory. */
export function httpCacheDir(config: Pick<PressroomConfig, 'cacheDir'>): string {
  return cacheFolder(process.cwd(), config, 'pressroom-http');
}

/** Release bodies, kept out of Astro's data store: `<PRESSROOM_CACHE_DIR or .cache>/bodies`, from the working directory. */
export function bodyDirOf(config: Pick<PressroomConfig, 'cacheDir'>): string {
  return cacheFolder(process.cwd(), config, 'bodies');
}

/**
 * Options for a build: a snapshot when PRESSROOM_SNAPSHOT is set, else the demo press room
 * when this process serves it, else PRESSROOM_API_URL and PRESSROOM_ID. `now` is the
 * build's clock for embargoes (publicationInstant).
 */
export function loaderOptionsOf(config: PressroomConfig, now: number, demo?: DemoUpstream): LoaderOptions {
  const common = {
    concurrency: config.concurrency,
    strict: config.strict,
    now,
    settingNames: ENVIRONMENT_SETTING_NAMES,
    bodyDir: bodyDirOf(config),
  };
  if (config.snapshotDir) return { ...common, snapshot: path.resolve(config.snapshotDir) };
  const cacheDir = httpCacheDir(config);
  if (demo) return { ...common, apiUrl: demo.apiUrl, pressroomId: demo.pressroomId, fetch: demo.fetch, cacheDir };
  if (!config.apiUrl) {
    throw new ConfigError('PRESSROOM_API_URL', [
      'PRESSROOM_API_URL is not set: give the Newsroom API base URL, or PRESSROOM_SNAPSHOT to build from a snapshot',
    ]);
  }
  if (!config.pressroomId) {
    throw new ConfigError('PRESSROOM_ID', ['PRESSROOM_ID is not set: give the press room numeric id or domain']);
  }
  return {
    ...common,
    apiUrl: config.apiUrl,
    pressroomId: config.pressroomId,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    cacheDir,
  };
}
