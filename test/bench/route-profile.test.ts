/** The route-generation breakdown of a CPU profile: the window it cuts and the part each sample is charged to. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRouteProfile } from '../../bench/route-profile.ts';

const CHUNKS = 'file:///site/.building/1/.prerender/chunks';
const frame = (functionName: string, url = '') => ({ functionName, url, scriptId: '0', lineNumber: 0, columnNumber: 0 });

// (root) → generatePathWithPrerenderer → a twin's serializer (mdast) and Astro's renderer;
// (root) → a Vite plugin before route generation; (root) → GC.
const nodes = [
  { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
  {
    id: 2,
    callFrame: frame('generatePathWithPrerenderer', 'file:///site/node_modules/astro/dist/core/build/generate.js'),
    children: [3, 5],
  },
  { id: 3, callFrame: frame('releaseMarkdown', `${CHUNKS}/llms_Ab12Cd34.mjs`), children: [4] },
  { id: 4, callFrame: frame('safe', 'file:///site/node_modules/mdast-util-to-markdown/lib/util/safe.js') },
  { id: 5, callFrame: frame('renderTemplate', `${CHUNKS}/server_Zz99Yy88.mjs`) },
  { id: 6, callFrame: frame('transform', 'file:///site/node_modules/vite/dist/node/chunk.js') },
  { id: 7, callFrame: frame('(garbage collector)') },
];
// Samples 1 ms apart: vite, then [markdown, markdown, GC, astro] inside the window, then vite again.
const samples = [6, 4, 3, 7, 5, 6];
const profile = { nodes, startTime: 0, endTime: 6000, samples, timeDeltas: samples.map(() => 1000) };

const dir = await mkdtemp(path.join(os.tmpdir(), 'route-profile-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('buildRouteProfile', () => {
  it('keeps only route generation and charges each sample to the first known part from its leaf up', async () => {
    const build = path.join(dir, 'one');
    await mkdir(build);
    await writeFile(path.join(build, 'build.cpuprofile'), JSON.stringify(profile));
    const { windowMs, parts } = await buildRouteProfile(build);
    // From the first to the last sample under generatePathWithPrerenderer: the GC sample between them counts, Vite's do not.
    expect(windowMs).toBe(4);
    expect(parts).toEqual([
      { part: 'Markdown (twins, llms files)', ms: 2, share: 0.5 },
      { part: 'garbage collection', ms: 1, share: 0.25 },
      { part: 'Astro rendering', ms: 1, share: 0.25 },
    ]);
  });

  it('finds the profile of the build among those its restart leaves, whatever their order', async () => {
    const build = path.join(dir, 'restarted');
    await mkdir(build);
    // The process before the restart (no route generation) is named first.
    await writeFile(
      path.join(build, 'CPU.20261126.145007.7562.0.001.cpuprofile'),
      JSON.stringify({ ...profile, samples: [6, 7], timeDeltas: [1000, 1000] }),
    );
    await writeFile(path.join(build, 'CPU.20261126.145008.7562.0.001.cpuprofile'), JSON.stringify(profile));
    expect((await buildRouteProfile(build)).windowMs).toBe(4);
    await rm(path.join(build, 'CPU.20261126.145008.7562.0.001.cpuprofile'));
    await expect(buildRouteProfile(build)).rejects.toThrow(/no profile .* holds route generation/);
  });
});
