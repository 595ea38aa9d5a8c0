/**
 * The published packages as a project outside this repository gets them: `npm pack` (whose
 * `prepack` compiles dist/), each tarball unpacked into a temp project's node_modules, its
 * dependencies linked from this repository's node_modules (no network), and then
 *
 * - a plain `node` script (no `--conditions=source`, no type stripping: Node refuses it inside
 *   node_modules) imports both packages and calls them: the content-loaders client against the
 *   emulator over HTTP, the image-pipeline's zip writer;
 * - `tsc --noEmit` type-checks a consumer file against the shipped `.d.ts`, and fails where the
 *   types say it must (so types that silently turned `any` fail too).
 *
 * An Astro project building from the packed content-loaders is test/content-loaders/consumer-fixture.test.ts.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const PACKAGES = ['content-loaders', 'image-pipeline'] as const;

interface Manifest {
  name: string;
  license: string;
  files: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let tmp: string;
let project: string;
let api: RunningEmulator;
const packed = new Map<string, string[]>();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'packed-packages-'));
  project = path.join(tmp, 'consumer');
  api = await startEmulator({ scale: 8, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
  const workspaces = PACKAGES.flatMap((name) => ['--workspace', `@pressroom-static/${name}`]);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp, ...workspaces], {
    cwd: root,
    env: { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` },
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarballs = JSON.parse(stdout) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
  await mkdir(path.join(project, 'node_modules', '@pressroom-static'), { recursive: true });
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const linked = new Set<string>();
  for (const tarball of tarballs) {
    packed.set(tarball.name, tarball.files.map((file) => file.path).sort());
    const into = path.join(project, 'node_modules', tarball.name);
    await mkdir(into, { recursive: true });
    await run('tar', ['-xzf', path.join(tmp, tarball.filename), '-C', into, '--strip-components=1']);
    const manifest = JSON.parse(await readFile(path.join(into, 'package.json'), 'utf8')) as Manifest;
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) linked.add(dependency);
  }
  // Only what the manifests declare (and @types/node for tsc): an undeclared import fails below.
  for (const dependency of [...linked, '@types/node']) {
    if (dependency.startsWith('@pressroom-static/')) continue;
    const to = path.join(project, 'node_modules', dependency);
    await mkdir(path.dirname(to), { recursive: true });
    await symlink(path.join(root, 'node_modules', dependency), to, 'dir');
  }
}, 120_000);

afterAll(async () => {
  await api?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it.each(PACKAGES)('packs @pressroom-static/%s as compiled JavaScript with types, its licence and docs', async (name) => {
  const files = packed.get(`@pressroom-static/${name}`) ?? [];
  expect(files).toEqual(
    expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']),
  );
  expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  const manifest = JSON.parse(
    await readFile(path.join(project, 'node_modules', '@pressroom-static', name, 'package.json'), 'utf8'),
  ) as Manifest;
  expect(manifest.license).toBe('MIT');
  expect(await readFile(path.join(project, 'node_modules', '@pressroom-static', name, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  // Every compiled module imports its neighbours as .js: a .ts specifier would not resolve without the sources.
  const dist = path.join(project, 'node_modules', '@pressroom-static', name, 'dist');
  for (const file of (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.js')))
    expect(await readFile(path.join(dist, file), 'utf8'), file).not.toMatch(/from '\.{1,2}\/[^']*\.ts'/);
  // …and none is left in the checkout, where a command started without the source condition would run it stale.
  await expect(access(path.join(root, name, 'dist'))).rejects.toThrow(/ENOENT/);
});

it('imports both packages in a plain Node script and calls them', async () => {
  const script = path.join(project, 'use.mjs');
  await writeFile(
    script,
    `import { createNewsroomClient, formatBytes } from '@pressroom-static/content-loaders';
import { zipFiles } from '@pressroom-static/image-pipeline';
import { readFile } from 'node:fs/promises';

const [baseUrl, pressroomId, zipPath] = process.argv.slice(2);
const releases = await createNewsroomClient({ baseUrl, pressroomId }).list('press_releases');
await zipFiles(zipPath, [], [{ name: 'hello.txt', bytes: Buffer.from('hello') }]);
const zip = await readFile(zipPath);
console.log(JSON.stringify({ titles: releases.map((r) => r.title), size: formatBytes(2048), zip: zip.subarray(0, 2).toString('latin1') }));
`,
  );
  const zipPath = path.join(tmp, 'hello.zip');
  const { stdout } = await run(process.execPath, [script, api.url, String(api.pressroom.id), zipPath], { cwd: project });
  const result = JSON.parse(stdout) as { titles: string[]; size: string; zip: string };
  const upstream = (await (await fetch(`${api.url}/v1/pressrooms/${api.pressroom.id}/press_releases?limit=100`)).json()) as {
    data: Array<{ title: string }>;
  };
  expect(result.titles.length).toBeGreaterThan(0);
  expect(result.titles).toEqual(upstream.data.map((release) => release.title));
  expect(result.size).toBe('2 kB');
  expect(result.zip).toBe('PK');
});

it('type-checks a consumer against the shipped declarations, and rejects a wrong call', async () => {
  await writeFile(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2023',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['consumer.ts'],
    }),
  );
  await writeFile(
    path.join(project, 'consumer.ts'),
    `import { createNewsroomClient, pressroomLoaders, type NewsroomClient } from '@pressroom-static/content-loaders';
import { zipFiles, type ZipEntry } from '@pressroom-static/image-pipeline';

const client: NewsroomClient = createNewsroomClient({ baseUrl: 'http://127.0.0.1:1', pressroomId: 1 });
const titles: Promise<string[]> = client.list<{ title: string }>('press_releases').then((items) => items.map((item) => item.title));
const loaders = pressroomLoaders({ apiUrl: 'http://127.0.0.1:1', pressroomId: 1 });
const entries: ZipEntry[] = [{ file: 'a.jpg', name: 'a.jpg' }];
export const done: Promise<unknown> = Promise.all([titles, zipFiles('out.zip', entries), loaders.pressReleases.name]);

// @ts-expect-error: the client needs a base URL.
createNewsroomClient({ pressroomId: 1 });
// @ts-expect-error: a zip entry names its file.
zipFiles('out.zip', [{ name: 'a.jpg' }]);
`,
  );
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  const checked = await run(tsc, ['-p', 'tsconfig.json'], { cwd: project }).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
  expect(checked).toBe('');
});
