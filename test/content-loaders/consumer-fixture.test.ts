/**
 * @pressroom-static/content-loaders as another Astro project uses it: the
 * package packed with `npm pack`, installed from its tarball into a fresh
 * minimal project in a temp folder (astro from the registry, nothing else of
 * this repository), its ten-line content config pointed at an emulator on
 * 127.0.0.1, `astro build` with this repository's Node 24. The release titles
 * of the press room are in the built page, and the project's dependency tree
 * holds nothing of the site or the emulator.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
/** The Node this repository pins (the `node` devDependency). */
const node24 = path.join(root, 'node_modules', 'node', 'bin', 'node');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let tmp: string;
let api: RunningEmulator;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'loaders-consumer-'));
  api = await startEmulator({ scale: 8, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
});
afterAll(async () => {
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const CONTENT_CONFIG = (apiUrl: string, pressroomId: number) => `import { defineCollection } from 'astro:content';
import { pressroomLoaders } from '@pressroom-static/content-loaders';

const loaders = pressroomLoaders({ apiUrl: ${JSON.stringify(apiUrl)}, pressroomId: ${pressroomId}, cacheDir: '.cache/newsroom' });

export const collections = {
  pressroom: defineCollection({ loader: loaders.pressroom }),
  pressReleases: defineCollection({ loader: loaders.pressReleases }),
  events: defineCollection({ loader: loaders.events }),
};
`;

const INDEX_PAGE = `---
import { getCollection } from 'astro:content';
const releases = await getCollection('pressReleases');
---
<ul>{releases.map((r) => <li class="release">{r.data.title}</li>)}</ul>
`;

it('builds a fresh Astro project from the packed package against the emulator', async () => {
  const packed = await run(npm, ['pack', '--json', '--pack-destination', tmp, './content-loaders'], { cwd: root });
  const tarball = path.join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  const project = path.join(tmp, 'site');
  await mkdir(path.join(project, 'src', 'pages'), { recursive: true });
  const astroVersion = (JSON.parse(await readFile(path.join(root, 'node_modules', 'astro', 'package.json'), 'utf8')) as { version: string })
    .version;
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: { astro: astroVersion, '@pressroom-static/content-loaders': `file:${tarball}` },
      },
      null,
      2,
    ),
  );
  await writeFile(
    path.join(project, 'astro.config.mjs'),
    "import { defineConfig } from 'astro/config';\nexport default defineConfig({});\n",
  );
  await writeFile(path.join(project, 'src', 'content.config.ts'), CONTENT_CONFIG(api.url, api.pressroom.id));
  await writeFile(path.join(project, 'src', 'pages', 'index.astro'), INDEX_PAGE);

  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });
  await run(node24, [path.join('node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: project,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });

  const page = await readFile(path.join(project, 'dist', 'index.html'), 'utf8');
  const titles = [...page.matchAll(/<li class="release"[^>]*>([^<]*)<\/li>/g)].map((m) => m[1]);
  const upstream = (
    (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=100`)).json()) as {
      data: Array<{ title: string }>;
    }
  ).data;
  expect(titles.length).toBeGreaterThan(0);
  const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  for (const title of titles) expect(upstream.map((r) => escape(r.title))).toContain(title);

  // Nothing of the site or the emulator came along; sharp only as astro's own dependency.
  const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
  };
  const installed = Object.keys(lock.packages).map((key) => key.replace(/^.*node_modules\//, ''));
  expect(installed.filter((name) => ['pdf-lib', '@faker-js/faker', 'pagefind', 'find-my-way'].includes(name))).toEqual([]);
  const wantSharp = Object.entries(lock.packages)
    .filter(([, entry]) => 'sharp' in (entry.dependencies ?? {}) || 'sharp' in (entry.optionalDependencies ?? {}))
    .map(([key]) => key);
  expect(wantSharp.every((key) => key === 'node_modules/astro')).toBe(true);
  expect(await readdir(path.join(project, 'node_modules', '@pressroom-static'))).toEqual(['content-loaders']);
}, 180_000);

it('declares every package its modules import (a dependency astro happens to bring is not enough)', async () => {
  const manifest = JSON.parse(await readFile(path.join(root, 'content-loaders', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
  const files = (await readdir(path.join(root, 'content-loaders'), { recursive: true })).filter(
    (file) => file.endsWith('.ts') && !file.includes('node_modules'),
  );
  const imported = new Set<string>();
  for (const file of files) {
    const source = await readFile(path.join(root, 'content-loaders', file), 'utf8');
    const statements = /\bfrom\s+'([^'.][^']*)'|^\s*import\s+'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/gm;
    for (const [, fromStatement, sideEffect, dynamic] of source.matchAll(statements)) {
      const specifier = fromStatement ?? sideEffect ?? dynamic;
      if (!specifier || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      imported.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  }
  expect(imported.has('undici')).toBe(true);
  expect(
    [...imported].filter((name) => !declared.has(name)),
    [...imported].join(' '),
  ).toEqual([]);
});
