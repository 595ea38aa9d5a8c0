/**
 * Every cache a build writes lives under PRESSROOM_CACHE_DIR (or `.cache/` in
 * the project), so a CI job that keeps that one folder keeps them all: the
 * HTTP answers, the image pipeline's originals, renditions and zips, the
 * site icons and the release bodies' Markdown. Read from the integrations as Astro configures them
 * with the build's one parsed configuration.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/environment.ts';
import { httpCacheDir } from '../../src/config/loader-options.ts';
import { buildSession, closeBuildSession } from '../../src/config/session.ts';
import imagePipeline from '../../src/integrations/images.ts';
import markdownCache from '../../src/integrations/markdown-cache.ts';
import siteIcons from '../../src/integrations/site-icons.ts';
import { imageCacheDir } from '../../scripts/no-change.ts';

const root = '/srv/project';

/** The cache folder each part of a build uses once Astro has configured it from `root`. */
function cacheFoldersOfABuild(): Record<string, string | undefined> {
  const config = loadConfig(process.env);
  const astroConfig = {
    root: pathToFileURL(`${root}/`),
    outDir: pathToFileURL(`${root}/dist/`),
    cacheDir: pathToFileURL(`${root}/node_modules/.astro/`),
    base: '/',
  };
  for (const integration of [imagePipeline({ config }), siteIcons({ config }), markdownCache({ code: 'c0de', config })])
    (integration.hooks['astro:config:done'] as any)({ config: astroConfig, logger: console });
  const { state } = buildSession();
  return {
    http: httpCacheDir(config),
    images: state.imagePipeline?.settings.cacheDir,
    noChangeImages: imageCacheDir(root, config),
    siteIcons: state.siteIcons?.cacheDir,
    markdown: state.markdownCache?.dir,
  };
}

describe('cache folders', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    closeBuildSession();
  });

  it('are all under PRESSROOM_CACHE_DIR when it is set', () => {
    vi.stubEnv('PRESSROOM_CACHE_DIR', '/mnt/ci-cache');
    expect(cacheFoldersOfABuild()).toEqual({
      http: '/mnt/ci-cache/pressroom-http',
      images: '/mnt/ci-cache/images',
      noChangeImages: '/mnt/ci-cache/images',
      siteIcons: '/mnt/ci-cache/site-icons',
      markdown: '/mnt/ci-cache/markdown/c0de',
    });
  });

  it('are under the project’s .cache/ when it is not', () => {
    vi.stubEnv('PRESSROOM_CACHE_DIR', undefined);
    const spy = vi.spyOn(process, 'cwd').mockReturnValue(root);
    try {
      expect(cacheFoldersOfABuild()).toEqual({
        http: path.join(root, '.cache', 'pressroom-http'),
        images: path.join(root, '.cache', 'images'),
        noChangeImages: path.join(root, '.cache', 'images'),
        siteIcons: path.join(root, '.cache', 'site-icons'),
        markdown: path.join(root, '.cache', 'markdown', 'c0de'),
      });
    } finally {
      spy.mockRestore();
    }
  });
});
