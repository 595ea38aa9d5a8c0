/**
 * A build against a configured API never loads the emulator, registered into
 * test/build/builds.test.ts (whose builds run one after another): a small
 * emulator press room over HTTP stands in for the real API, the build runs in a
 * child process with every module load recorded (record-modules.ts), and
 * nothing of the emulator or its generators (faker, pdf-lib, find-my-way) is
 * among them. A static import of the emulator anywhere on a build's path would
 * load them.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';

const execFileP = promisify(execFile);

export function emulatorFreeBuildTests(setup: () => { root: string; tmp: string }): void {
  describe('a build against a configured API', () => {
    let api: RunningEmulator;
    beforeAll(async () => {
      api = await startEmulator({ scale: 8, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
    });
    afterAll(async () => {
      await api?.close();
    });

    it('never loads the emulator or its dependencies (faker, pdf-lib, find-my-way)', async () => {
      const { root, tmp } = setup();
      const record = path.join(tmp, 'loaded-modules.txt');
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        RECORD_MODULES_TO: record,
        PRESSROOM_API_URL: api.url,
        PRESSROOM_ID: String(api.pressroom.id),
      };
      for (const name of Object.keys(env))
        if ((name.startsWith('PRESSROOM_') && name !== 'PRESSROOM_API_URL' && name !== 'PRESSROOM_ID') || name === 'SOURCE_DATE_EPOCH')
          delete env[name];
      // A real press room is published at an address of its own.
      env.PRESSROOM_SITE_URL = 'https://press.example.test';
      const hook = pathToFileURL(path.join(root, 'test', 'build', 'record-modules.ts')).href;
      const { stdout } = await execFileP(
        process.execPath,
        ['--import', hook, 'scripts/build.ts', '--out', path.join(tmp, 'emulator-free')],
        { cwd: root, env, maxBuffer: 64 * 1024 * 1024 },
      );
      expect(stdout).toMatch(/entries from the API/);
      const loaded = (await readFile(record, 'utf8')).split('\n');
      // The recording sees what Vite hands to Node: the loaders' own dependencies are there.
      expect(loaded.some((url) => url.includes('/node_modules/p-retry/'))).toBe(true);
      expect(loaded.some((url) => url.includes('/content-loaders/'))).toBe(true);
      const emulatorDir = pathToFileURL(path.join(root, 'emulator')).href + '/';
      const emulatorModules = loaded.filter(
        (url) => url.startsWith(emulatorDir) || /\/node_modules\/(@faker-js\/faker|pdf-lib|find-my-way)\//.test(url),
      );
      expect(emulatorModules).toEqual([]);
    });
  });
}
