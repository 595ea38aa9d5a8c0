/** What the publish-to-live benchmark reads off a build (its plan line) and the byte-for-byte check after it. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderedRoutes, siteDifferences } from '../../bench/publish-check.ts';
import { writeFiles } from '../helpers/file-tree.ts';

describe('the plan line of a build log', () => {
  it('a partial build: how many routes rendered of how many', () => {
    const log = 'astro: …\nbuild: partial: 7 of 396 routes rendered (1 changed items: release:100028)\nbuild: done\n';
    expect(renderedRoutes(log)).toEqual({
      rendered: 7,
      total: 396,
      partial: true,
      line: 'build: partial: 7 of 396 routes rendered (1 changed items: release:100028)',
    });
  });

  it('a full render, with its reason; no plan line at all', () => {
    expect(renderedRoutes('build: rendering in full: the code changed (src/lib/feeds.ts)\n')).toMatchObject({ partial: false });
    expect(renderedRoutes('build: rendering: --force was given\n')).toMatchObject({ partial: false });
    expect(renderedRoutes('nothing here\n')).toBeUndefined();
  });
});

describe('two built sites compared byte for byte', () => {
  let tmp: string;
  const site = (name: string, files: Record<string, string>) => writeFiles(path.join(tmp, name), files);
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'publish-check-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('names every file whose bytes differ or that only one site has, sorted', async () => {
    const same = { 'index.html': '<h1>Home</h1>', 'releases/a/index.html': 'A' };
    const a = await site('a', { ...same, 'feed.json': '{"items":[1]}', 'gone.html': 'x' });
    const b = await site('b', { ...same, 'feed.json': '{"items":[2]}', 'added/index.html': 'y' });
    expect(await siteDifferences(a, b)).toEqual(['added/index.html', 'feed.json', 'gone.html']);
    expect(await siteDifferences(a, await site('c', { ...same, 'feed.json': '{"items":[1]}', 'gone.html': 'x' }))).toEqual([]);
  });
});
