/**
 * One build session (src/config/session.ts): the PRESSROOM_* configuration is parsed once and the
 * same object reaches every integration of astro.config.mjs and the parts Astro loads without
 * options (content config, pages); the session is the only state the project keeps on globalThis.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/environment.ts';
import { buildSession, closeBuildSession, openBuildSession, sessionConfig } from '../../src/config/session.ts';
import { codeFiles, projectRoot as root } from '../helpers/code-files.ts';

/** A configuration no environment of a test run gives: what an integration reads can only come from it. */
function oneConfiguration() {
  const config = loadConfig({
    PRESSROOM_API_URL: 'https://api.session.example',
    PRESSROOM_ID: '4242',
    PRESSROOM_SITE_URL: 'https://press.session.example/news',
    PRESSROOM_CACHE_DIR: '/var/cache/session-test',
    PRESSROOM_IMAGE_HOSTS: 'cdn.session.example',
  });
  config.notes.push('the one configuration of this build');
  return config;
}

/** The project's astro.config.mjs, evaluated afresh (as Astro does for each build). */
async function projectAstroConfig() {
  vi.resetModules();
  return (await import(`${pathToFileURL(path.join(root, 'astro.config.mjs')).href}`)).default as {
    site: string;
    base: string;
    integrations: AstroIntegration[];
  };
}

function integration(integrations: AstroIntegration[], name: string): AstroIntegration {
  const found = integrations.find((i) => i.name === name);
  if (!found) throw new Error(`astro.config.mjs has no ${name} integration`);
  return found;
}

describe('the build session', () => {
  afterEach(() => closeBuildSession());

  it('hands the configuration a script parsed to astro.config.mjs and every integration that reads it', async () => {
    const config = oneConfiguration();
    openBuildSession(config);
    const astro = await projectAstroConfig();
    expect(astro.site).toBe('https://press.session.example');
    expect(astro.base).toBe('/news');

    const astroConfig = {
      root: pathToFileURL(`${root}/`),
      outDir: pathToFileURL('/srv/out/'),
      cacheDir: pathToFileURL(`${root}/node_modules/.astro/`),
      base: '/news',
    };
    for (const name of ['pressroom-static:images', 'pressroom-static:site-icons'])
      await (integration(astro.integrations, name).hooks['astro:config:done'] as any)({ config: astroConfig, logger: console });
    const { state } = buildSession();
    expect(state.imagePipeline?.settings).toMatchObject({
      cacheDir: '/var/cache/session-test/images',
      imageHosts: ['cdn.session.example'],
      publicPath: '/news/_media/',
    });
    expect(state.siteIcons?.cacheDir).toBe('/var/cache/session-test/site-icons');

    // The site's own integration: the configuration's notes, and the same object for the content config and pages.
    const lines: string[] = [];
    const logger = { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
    buildSession().config = undefined;
    await (integration(astro.integrations, 'pressroom-static').hooks['astro:config:setup'] as any)({
      config: astroConfig,
      command: 'dev',
      logger,
      updateConfig: () => undefined,
    });
    expect(lines).toContain('the one configuration of this build');
    expect(sessionConfig()).toBe(config);
  });

  it('tells in one line that no build opened it when a page reads the configuration outside a build', () => {
    expect(() => sessionConfig()).toThrow(/^pressroom-static: no build session: .*astro\.config\.mjs/);
  });
});

describe('no state on globalThis but the session', () => {
  it('names one Symbol.for key of the project, in src/config/session.ts', async () => {
    const keys: string[] = [];
    for (const file of await codeFiles())
      for (const match of (await readFile(path.join(root, file), 'utf8')).matchAll(/Symbol\.for\(\s*['"`](pressroom-static[^'"`]*)/g))
        keys.push(`${file}: ${match[1]}`);
    expect(keys).toEqual(['src/config/session.ts: pressroom-static.session']);
  });

  it('parses the configuration in astro.config.mjs only, of everything a build loads', async () => {
    const builds = (await codeFiles()).filter((f) => f === 'astro.config.mjs' || f.startsWith('src/') || f.startsWith('image-pipeline/'));
    const parsing: string[] = [];
    for (const file of builds) if (/\bloadConfig\(/.test(await readFile(path.join(root, file), 'utf8'))) parsing.push(file);
    // environment.ts defines it (and upstreamOf parses only when it is not given the parsed configuration).
    expect(parsing).toEqual(['astro.config.mjs', 'src/config/environment.ts']);
  });
});

describe('the libraries stand apart from the site', () => {
  it('content-loaders/ and image-pipeline/ import nothing of the site or its scripts, webhook-receiver/ nothing of scripts/', async () => {
    const site = /(?:from\s*|import\s*\(?\s*)'(?:\.\.\/)+(?:src|scripts)\//;
    const scripts = /(?:from\s*|import\s*\(?\s*)'(?:\.\.\/)+scripts\//;
    const walls: Record<string, RegExp> = { 'content-loaders': site, 'image-pipeline': site, 'webhook-receiver': scripts };
    const crossing: string[] = [];
    for (const file of await codeFiles()) {
      const wall = walls[file.split('/')[0]!];
      if (wall?.test(await readFile(path.join(root, file), 'utf8'))) crossing.push(file);
    }
    expect(crossing).toEqual([]);
  });
});
