/**
 * The upstream data policy end to end, registered into test/build/builds.test.ts (whose builds run
 * one after another): a press room with broken items among the good ones, recorded as a snapshot,
 * builds and publishes the good items with a warning naming each broken one; with `--strict` the
 * first warning fails the build and the previous output stays byte-identical.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FLAWS, startEmulator } from '../../emulator/server.ts';
import { TEST_MEDIA_CACHE } from '../helpers/emulator.ts';
import { fileDigests } from '../helpers/file-tree.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const run = promisify(execFile);

const tree = fileDigests;

export function dataPolicyBuildTests(setup: () => { root: string; tmp: string }): void {
  describe('the upstream data policy, end to end', () => {
    it('publishes the good items with a warning naming each broken one; --strict fails and leaves the previous output byte-identical', async () => {
      const { root, tmp } = setup();
      const api = await startEmulator({ flaws: true, frozenClock: true, cacheDir: TEST_MEDIA_CACHE });
      const snapshot = path.join(tmp, 'flawed-snapshot');
      try {
        const env = { ...process.env, PRESSROOM_API_URL: api.url, PRESSROOM_ID: String(api.pressroom.id), PRESSROOM_SNAPSHOT: '' };
        await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/snapshot.ts', '--out', snapshot], { cwd: root, env });
      } finally {
        await api.close();
      }

      const out = path.join(tmp, 'flawed-site');
      const env = {
        ...process.env,
        PRESSROOM_SNAPSHOT: snapshot,
        PRESSROOM_API_URL: '',
        SOURCE_DATE_EPOCH: String(Date.parse('2026-11-01T09:00:00Z') / 1000),
      };
      const built = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out], {
        cwd: root,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
      const log = built.stdout + built.stderr;
      for (const flaw of FLAWS) expect(log, `${flaw.collection} ${flaw.id}`).toContain(`${flaw.collection}: item ${flaw.id} from `);
      expect(log).toMatch(/data policy: \d+ fields? dropped, 1 item skipped, \d+ fields? replaced/);
      const before = await tree(out);
      expect(Object.keys(before).length).toBeGreaterThan(500);
      const skipped = FLAWS.find((f) => f.expect === 'item-skipped')!;
      expect(Object.keys(before).some((f) => f.startsWith(`${skipped.id}`))).toBe(false);

      const strict = await run(process.execPath, [SOURCE_CONDITION_FLAG, 'scripts/build.ts', '--out', out, '--strict'], {
        cwd: root,
        env,
        maxBuffer: 64 * 1024 * 1024,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(strict.code).toBe(1);
      expect(strict.stderr).toMatch(/build failed: \w+: item \d+ from .*PRESSROOM_STRICT is on/);
      expect(strict.stderr).toContain('was left exactly as it was');
      expect(await tree(out)).toEqual(before);
      const report = JSON.parse(await readFile(`${out}.data-report.json`, 'utf8')) as { strict: boolean; warnings: unknown[] };
      expect(report).toMatchObject({ strict: true });
      expect(report.warnings).toHaveLength(1);
    }, 600_000);
  });
}
