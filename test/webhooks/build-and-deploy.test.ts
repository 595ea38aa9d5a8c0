/**
 * What a delivery sets off, with a stand-in build script: the build runs in a Node process started
 * with the Node flags it is given (the project's `--conditions=source`, without which the build
 * cannot import the workspace packages). The real build and deploy run in test/build/builds.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildAndDeploy } from '../../webhook-receiver/build-and-deploy.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'build-and-deploy-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it('starts the build with the Node flags it is given', async () => {
  // One of the build's summary lines, which the receiver passes through to its log.
  const buildScript = path.join(tmp, 'build.mjs');
  await writeFile(buildScript, "console.log('build: changes: flags ' + process.execArgv.join(' '));\n");
  const lines: string[] = [];
  const builder = buildAndDeploy({
    root: tmp,
    out: path.join(tmp, 'site'),
    buildScript,
    nodeFlags: [SOURCE_CONDITION_FLAG],
    changesFile: path.join(tmp, 'site.changes.json'),
    env: process.env,
    log: (line) => lines.push(line),
  });
  const outcome = await builder.run();
  expect(outcome.ok).toBe(true);
  expect(lines).toEqual([`build: changes: flags ${SOURCE_CONDITION_FLAG}`]);
});

it('passes through whether the build rendered part of the site or all of it, and why', async () => {
  const buildScript = path.join(tmp, 'partial.mjs');
  await writeFile(
    buildScript,
    [
      "console.log('12:00:01 [build] route 1 of 3');",
      "console.log('build: partial: 3 of 180 routes rendered (1 changed items: release:100028)');",
      "console.log('build: rendering in full: the configuration changed since the site was rendered');",
    ].join('\n'),
  );
  const lines: string[] = [];
  const outcome = await buildAndDeploy({
    root: tmp,
    out: path.join(tmp, 'site'),
    buildScript,
    changesFile: path.join(tmp, 'site.changes.json'),
    env: process.env,
    log: (line) => lines.push(line),
  }).run();
  expect(outcome.ok).toBe(true);
  expect(lines).toEqual([
    'build: partial: 3 of 180 routes rendered (1 changed items: release:100028)',
    'build: rendering in full: the configuration changed since the site was rendered',
  ]);
});
