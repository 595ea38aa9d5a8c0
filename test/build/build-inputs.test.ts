/**
 * What counts as a build input, without a build: which files are code, which
 * variables are configuration (never the API key), and how a difference is
 * named. The inputs checked against real builds: test/build/no-change.ts.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  CODE_PATHS,
  NOT_CODE,
  answersDifference,
  codeDifference,
  codeInputs,
  configurationDifference,
  configurationOf,
} from '../../scripts/build-inputs.ts';
import { readFingerprint } from '../../scripts/fingerprint.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('build inputs', () => {
  it('classes every top-level entry of the repository as code or as something that never changes a site', async () => {
    const tracked = (await promisify(execFile)('git', ['ls-files'], { cwd: root })).stdout.split('\n').filter(Boolean);
    const top = [...new Set(tracked.map((file) => file.split('/')[0]!))].sort();
    const classed = new Set<string>([...CODE_PATHS, ...NOT_CODE]);
    // A new folder of product code must be added to CODE_PATHS, or a change in it would not rebuild the site.
    expect(top.filter((entry) => !classed.has(entry))).toEqual([]);
  });

  it('fingerprints every code file and names the first one that changed', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'code-inputs-'));
    try {
      for (const entry of [...CODE_PATHS, 'test']) await cp(path.join(root, entry), path.join(copy, entry), { recursive: true });
      const here = await codeInputs(root);
      const there = await codeInputs(copy);
      expect(there).toEqual(here);
      expect(Object.keys(here.files)).toContain('package-lock.json');
      expect(Object.keys(here.files)).toContain('src/lib/build-day.ts');
      expect(Object.keys(here.files).some((file) => file.startsWith('test/'))).toBe(false);

      await writeFile(path.join(copy, 'test', 'note.txt'), 'tests never change a site');
      expect(codeDifference(here, await codeInputs(copy))).toBeUndefined();
      await writeFile(path.join(copy, 'src', 'lib', 'format.ts'), '\n// changed\n', { flag: 'a' });
      expect(codeDifference(here, await codeInputs(copy))).toBe('the code changed (src/lib/format.ts)');
      await rm(path.join(copy, 'src', 'lib', 'format.ts'));
      expect(codeDifference(here, await codeInputs(copy))).toBe('the code changed (src/lib/format.ts was removed)');
      expect(codeDifference(here, { ...here, node: 'v99.0.0' })).toBe(`Node changed (${process.version} → v99.0.0)`);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('takes the configuration that decides the site, never the API key or how the build runs', () => {
    const base = { PRESSROOM_API_URL: 'https://api.example.com/', PRESSROOM_ID: '4201', PRESSROOM_SITE_URL: 'https://press.example.com' };
    const plain = configurationOf(base, 'api');
    expect(plain).toEqual({
      upstream: 'api',
      PRESSROOM_API_URL: 'https://api.example.com',
      PRESSROOM_ID: '4201',
      PRESSROOM_SNAPSHOT: null,
      PRESSROOM_SITE_URL: 'https://press.example.com',
      PRESSROOM_IMAGE_HOSTS: null,
      PRESSROOM_STRICT: '0',
      PRESSROOM_WEBSUB_HUB: null,
      PRESSROOM_INDEXNOW_KEY: null,
      SOURCE_DATE_EPOCH: null,
    });
    const howItRuns = {
      ...base,
      PRESSROOM_API_KEY: 'sk_live_SECRET_1234',
      PRESSROOM_CONCURRENCY: '3',
      PRESSROOM_CACHE_DIR: '/var/cache/press',
      PRESSROOM_DEPLOY_COMMAND: 'true',
    };
    const withKey = { ...base, PRESSROOM_INDEXNOW_KEY: 'key-SECRET-0123456789' };
    // Where the IndexNow submissions go changes how, not what; the key names the key file the site serves.
    expect(configurationOf({ ...withKey, PRESSROOM_INDEXNOW_ENDPOINT: 'http://127.0.0.1:9/indexnow' }, 'api')).toEqual(
      configurationOf(withKey, 'api'),
    );
    expect(configurationDifference(plain, configurationOf(withKey, 'api'))).toBe('PRESSROOM_INDEXNOW_KEY changed');
    expect(JSON.stringify(configurationOf(withKey, 'api'))).not.toContain('SECRET');
    expect(configurationDifference(plain, configurationOf({ ...base, PRESSROOM_WEBSUB_HUB: 'https://hub.example.com/' }, 'api'))).toBe(
      'PRESSROOM_WEBSUB_HUB changed',
    );
    expect(configurationOf(howItRuns, 'api')).toEqual(plain);
    expect(JSON.stringify(configurationOf(howItRuns, 'api'))).not.toContain('SECRET');
    expect(configurationDifference(plain, configurationOf({ ...base, PRESSROOM_SITE_URL: 'https://news.example.com' }, 'api'))).toBe(
      'PRESSROOM_SITE_URL changed',
    );
    // A path is the base every URL is written under: a new path is a new site, a trailing slash is not.
    const underPath = configurationOf({ ...base, PRESSROOM_SITE_URL: 'https://press.example.com/press' }, 'api');
    expect(configurationDifference(plain, underPath)).toBe('PRESSROOM_SITE_URL changed');
    expect(
      configurationDifference(underPath, configurationOf({ ...base, PRESSROOM_SITE_URL: 'https://press.example.com/press/' }, 'api')),
    ).toBeUndefined();
    expect(configurationDifference(plain, configurationOf({ ...base, PRESSROOM_IMAGE_HOSTS: 'b.example.com,a.example.com' }, 'api'))).toBe(
      'PRESSROOM_IMAGE_HOSTS changed',
    );
    expect(configurationDifference(plain, configurationOf({ ...base, SOURCE_DATE_EPOCH: '1790000000' }, 'api'))).toBe(
      'SOURCE_DATE_EPOCH changed',
    );
    expect(configurationDifference(plain, configurationOf({ ...base, PRESSROOM_STRICT: '1' }, 'api'))).toBe('PRESSROOM_STRICT changed');
    expect(configurationDifference(plain, configurationOf({}, 'demo'))).toBe('the press room now comes from the demo');
  });

  it('names the API answers that differ', () => {
    const recorded = { '/v1/pressrooms/1': 'a', '/v1/pressrooms/1/tags?page=1&limit=100': 'b' };
    expect(answersDifference(recorded, new Map(Object.entries(recorded)))).toBeUndefined();
    expect(
      answersDifference(
        recorded,
        new Map([
          ['/v1/pressrooms/1', 'a'],
          ['/v1/pressrooms/1/tags?page=1&limit=100', 'c'],
        ]),
      ),
    ).toBe('the API answer /v1/pressrooms/1/tags?page=1&limit=100 changed');
    expect(answersDifference(recorded, new Map([['/v1/pressrooms/1', 'z']]))).toBe(
      '2 API answers differ (first: /v1/pressrooms/1 changed)',
    );
    expect(answersDifference({}, new Map([['/v1/pressrooms/1', 'a']]))).toBe('the API answer /v1/pressrooms/1 is new');
  });

  it('reads no fingerprint from a file that is missing, foreign or damaged, and says why', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fingerprint-'));
    try {
      const out = path.join(dir, 'site');
      expect(await readFingerprint(out)).toEqual({ missing: `no fingerprint beside ${out} (${out}.fingerprint.json)` });
      await writeFile(`${out}.fingerprint.json`, '{"format": "something/else"}');
      expect(await readFingerprint(out)).toEqual({ missing: `${out}.fingerprint.json is not a pressroom-fingerprint/1 file` });
      await writeFile(`${out}.fingerprint.json`, '{"format": "pressroom-fingerprint/1", "builtAt"');
      expect(((await readFingerprint(out)) as { missing: string }).missing).toMatch(/fingerprint\.json is unreadable \(/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
