import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect, parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, upstreamOf } from '../../src/config/environment.ts';
import { loadDotEnv } from '../../src/config/dot-env.ts';

const KEY = 'sk_live_9f8e7d6c5b4a3210TOPSECRET';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(Object.keys(env))}`);
}

function expectOneLine(error: ConfigError, variable: string): void {
  expect(error.variable).toBe(variable);
  expect(error.message.startsWith(`${variable} must be `)).toBe(true);
  expect(error.message).not.toMatch(/[\r\n]/);
}

describe('loadConfig defaults', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      apiUrl: undefined,
      pressroomId: undefined,
      siteUrl: 'http://localhost:4321',
      snapshotDir: undefined,
      imageHosts: [],
      concurrency: 8,
      deployCommand: undefined,
      strict: false,
      warm: false,
      cacheDir: undefined,
      websubHub: undefined,
      indexNowEndpoint: 'https://api.indexnow.org/indexnow',
    });
    expect(config.indexNowKey).toBeUndefined();
    expect(config.apiKey).toBeUndefined();
    expect(config.webhookSecret).toBeUndefined();
  });

  it('reads PRESSROOM_WARM as on or off, and nothing else', () => {
    expect(loadConfig({ PRESSROOM_WARM: '1' }).warm).toBe(true);
    expect(loadConfig({ PRESSROOM_WARM: 'false' }).warm).toBe(false);
    expect(() => loadConfig({ PRESSROOM_WARM: 'yes' })).toThrow(/PRESSROOM_WARM/);
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PRESSROOM_API_URL: '', PRESSROOM_CONCURRENCY: '  ', PRESSROOM_SITE_URL: '' })).toMatchObject({
      apiUrl: undefined,
      concurrency: 8,
      siteUrl: 'http://localhost:4321',
    });
  });

  it('is pure over the record it is given', () => {
    const before = process.env.PRESSROOM_CONCURRENCY;
    process.env.PRESSROOM_CONCURRENCY = 'not a number';
    try {
      expect(loadConfig({}).concurrency).toBe(8);
    } finally {
      if (before === undefined) delete process.env.PRESSROOM_CONCURRENCY;
      else process.env.PRESSROOM_CONCURRENCY = before;
    }
  });
});

describe('loadConfig good values', () => {
  it('normalises every variable', () => {
    const config = loadConfig({
      PRESSROOM_API_URL: 'https://api.example.com/newsroom/',
      PRESSROOM_ID: 'acme.pr.example',
      PRESSROOM_API_KEY: KEY,
      PRESSROOM_SITE_URL: 'https://press.example.com/',
      PRESSROOM_SNAPSHOT: './snapshots/2026-11-01',
      PRESSROOM_IMAGE_HOSTS: ' Images.Example.com, cdn.example.net,,images.example.com ',
      PRESSROOM_CONCURRENCY: '16',
      PRESSROOM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PRESSROOM_DEPLOY_COMMAND: 'rsync -a dist/ host:/srv/press',
    });
    expect(config).toMatchObject({
      apiUrl: 'https://api.example.com/newsroom',
      pressroomId: 'acme.pr.example',
      siteUrl: 'https://press.example.com',
      snapshotDir: './snapshots/2026-11-01',
      imageHosts: ['images.example.com', 'cdn.example.net'],
      concurrency: 16,
      deployCommand: 'rsync -a dist/ host:/srv/press',
    });
    expect(config.apiKey).toBe(KEY);
    expect(config.webhookSecret).toBe(WEBHOOK_SECRET);
    expect(loadConfig({ PRESSROOM_ID: '4201' }).pressroomId).toBe('4201');
    expect(loadConfig({ PRESSROOM_API_URL: 'http://127.0.0.1:4010' }).apiUrl).toBe('http://127.0.0.1:4010');
    expect(loadConfig({ PRESSROOM_CONCURRENCY: '1' }).concurrency).toBe(1);
    expect(loadConfig({ PRESSROOM_CONCURRENCY: '64' }).concurrency).toBe(64);
  });

  it('never prints the secrets when the config is logged or serialised', () => {
    const config = loadConfig({ PRESSROOM_API_KEY: KEY, PRESSROOM_WEBHOOK_SECRET: WEBHOOK_SECRET });
    for (const text of [JSON.stringify(config), inspect(config, { depth: 5 }), String(Object.values(config))]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(WEBHOOK_SECRET);
    }
  });

  it('refuses unknown PRESSROOM_* variables, naming a likely meant one', () => {
    const error = configError({ PRESSROOM_API_UR: 'https://api.example.com', PRESSROOM_SOMETHING_ELSE_ENTIRELY: 'x', HOME: '/root' });
    expect(error.variable).toBe('PRESSROOM_API_UR');
    expect(error.message).toMatch(
      /^PRESSROOM_API_UR is not a pressroom-static setting; did you mean PRESSROOM_API_URL\? \(settings: PRESSROOM_API_URL, /,
    );
    expect(error.problems[1]).toMatch(/^PRESSROOM_SOMETHING_ELSE_ENTIRELY is not a pressroom-static setting \(settings: /);
    // Set by the webhook receiver for the deploy command: known, never read.
    expect(() => loadConfig({ PRESSROOM_SITE_DIR: '/srv/site' })).not.toThrow();
  });

  it('PRESSROOM_STRICT: 1/true on, 0/false/empty off, anything else an error; PRESSROOM_CACHE_DIR as given', () => {
    expect(['1', 'true', 'TRUE', '0', 'false', ''].map((v) => loadConfig({ PRESSROOM_STRICT: v }).strict)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const error = configError({ PRESSROOM_STRICT: 'yes' });
    expect(error.message).toBe('PRESSROOM_STRICT must be 1 or true (on), 0 or false (off), got "yes"');
    expect(loadConfig({ PRESSROOM_CACHE_DIR: '/var/cache/press' }).cacheDir).toBe('/var/cache/press');
  });
});

describe('which press room a build reads', () => {
  it('builds the demo only when nothing at all is configured, or when asked for', () => {
    expect(upstreamOf({ HOME: '/root', PRESSROOM_API_URL: '' })).toBe('demo');
    expect(upstreamOf({ PRESSROOM_SITE_URL: 'https://press.example.com' }, { demo: true })).toBe('demo');
    expect(upstreamOf({ PRESSROOM_API_URL: 'https://api.example.com', PRESSROOM_ID: '4201' })).toBe('api');
    expect(upstreamOf({ PRESSROOM_SNAPSHOT: 'snap' })).toBe('snapshot');
  });

  it('is a one-line error naming what is missing when something else is set', () => {
    // The cron typo: PRESSROOM_API_UR is caught as unknown first; with it fixed away, PRESSROOM_ID alone.
    expect(() => upstreamOf({ PRESSROOM_API_UR: 'https://api.example.com', PRESSROOM_ID: '1234' })).toThrow(
      /PRESSROOM_API_UR is not a pressroom-static setting; did you mean PRESSROOM_API_URL\?/,
    );
    const alone = (() => {
      try {
        upstreamOf({ PRESSROOM_ID: '1234', PRESSROOM_SITE_URL: 'https://press.example.com' });
      } catch (error) {
        return error as ConfigError;
      }
      throw new Error('no error');
    })();
    expect(alone.variable).toBe('PRESSROOM_API_URL');
    expect(alone.message).toBe(
      'PRESSROOM_API_URL is not set, but PRESSROOM_ID, PRESSROOM_SITE_URL are: set PRESSROOM_API_URL and PRESSROOM_ID (or PRESSROOM_SNAPSHOT) to build your press room, or use --demo for the demo press room',
    );
    expect(() => upstreamOf({ PRESSROOM_API_URL: 'https://api.example.com' })).toThrow(/^PRESSROOM_ID is not set/);
  });

  it('a real press room built to publish needs PRESSROOM_SITE_URL; the demo, a snapshot and a recording do not', () => {
    const api = { PRESSROOM_API_URL: 'https://api.example.com', PRESSROOM_ID: '4201' };
    const missing = (() => {
      try {
        upstreamOf(api, { publish: true });
      } catch (error) {
        return error as ConfigError;
      }
      throw new Error('no error');
    })();
    expect(missing.variable).toBe('PRESSROOM_SITE_URL');
    expect(missing.message).toMatch(
      /^PRESSROOM_SITE_URL is not set: give the public address the site is published at .*http:\/\/localhost:4321$/,
    );
    expect(upstreamOf({ ...api, PRESSROOM_SITE_URL: 'https://press.example.com' }, { publish: true })).toBe('api');
    expect(upstreamOf(api)).toBe('api');
    expect(upstreamOf({}, { publish: true })).toBe('demo');
    expect(upstreamOf(api, { demo: true, publish: true })).toBe('demo');
    expect(upstreamOf({ PRESSROOM_SNAPSHOT: 'snap' }, { publish: true })).toBe('snapshot');
  });

  it('the committed .env.example is a real press room configuration that passes every check', async () => {
    const example = parseEnv(await readFile(path.resolve(import.meta.dirname, '..', '..', '.env.example'), 'utf8'));
    expect(Object.keys(example).sort()).toEqual(['PRESSROOM_API_URL', 'PRESSROOM_ID', 'PRESSROOM_SITE_URL']);
    expect(upstreamOf(example, { publish: true })).toBe('api');
  });

  it('an API URL ending in /v1 is the base it means, said in one note', () => {
    for (const given of ['https://api.example.com/v1', 'https://api.example.com/v1/', 'https://api.example.com/V1']) {
      const config = loadConfig({ PRESSROOM_API_URL: given });
      expect(config.apiUrl).toBe('https://api.example.com');
      expect(config.notes).toEqual([
        'PRESSROOM_API_URL ends in /v1: using https://api.example.com as the API base (every request path starts with /v1/ itself)',
      ]);
    }
    expect(loadConfig({ PRESSROOM_API_URL: 'https://example.com/newsroom/v1' }).apiUrl).toBe('https://example.com/newsroom');
    expect(loadConfig({ PRESSROOM_API_URL: 'https://example.com/v10' })).toMatchObject({ apiUrl: 'https://example.com/v10', notes: [] });
  });
});

describe('loadConfig errors: one line naming the variable, the value and what is expected', () => {
  it('PRESSROOM_API_URL', () => {
    const bad = configError({ PRESSROOM_API_URL: 'ftp://api.example.com' });
    expectOneLine(bad, 'PRESSROOM_API_URL');
    expect(bad.message).toBe(
      'PRESSROOM_API_URL must be an http:// or https:// URL (the API base, e.g. https://api.example.com), got "ftp://api.example.com"',
    );
    expectOneLine(configError({ PRESSROOM_API_URL: 'not a url' }), 'PRESSROOM_API_URL');
    expect(configError({ PRESSROOM_API_URL: 'https://api.example.com/?x=1' }).message).toContain('without a query or fragment');
  });

  it('PRESSROOM_API_URL with credentials never echoes the password', () => {
    const bad = configError({ PRESSROOM_API_URL: 'https://user:hunter2pass@api.example.com' });
    expectOneLine(bad, 'PRESSROOM_API_URL');
    expect(bad.message).toContain('without a user name or password');
    expect(bad.message).not.toContain('hunter2pass');
    expect(bad.message).toContain('user:(hidden)@api.example.com');
  });

  it('PRESSROOM_ID', () => {
    const bad = configError({ PRESSROOM_ID: 'acme newsroom' });
    expectOneLine(bad, 'PRESSROOM_ID');
    expect(bad.message).toBe(
      'PRESSROOM_ID must be a numeric press room id (e.g. 4201) or the press room domain (e.g. acme.pr.example), got "acme newsroom"',
    );
    expectOneLine(configError({ PRESSROOM_ID: '../../etc' }), 'PRESSROOM_ID');
  });

  it('PRESSROOM_API_KEY (the value is hidden)', () => {
    const key = 'sk_live SECRET-with-space';
    const bad = configError({ PRESSROOM_API_KEY: key });
    expectOneLine(bad, 'PRESSROOM_API_KEY');
    expect(bad.message).toBe('PRESSROOM_API_KEY must be a single token of printable characters without spaces, got (hidden)');
    for (const text of [bad.message, bad.stack ?? '', JSON.stringify(bad), inspect(bad, { depth: 5 }), bad.problems.join('\n')]) {
      expect(text).not.toContain('SECRET-with-space');
    }
  });

  it('PRESSROOM_SITE_URL', () => {
    const bad = configError({ PRESSROOM_SITE_URL: 'press.example.com' });
    expectOneLine(bad, 'PRESSROOM_SITE_URL');
    expect(bad.message).toContain('got "press.example.com"');
  });

  it('PRESSROOM_SITE_URL with a path: the base the site is served under, with or without its trailing slash', () => {
    for (const value of ['https://example.com/press', 'https://example.com/press/']) {
      expect(loadConfig({ PRESSROOM_SITE_URL: value })).toMatchObject({
        siteUrl: 'https://example.com/press',
        siteOrigin: 'https://example.com',
        basePath: '/press',
      });
    }
    expect(loadConfig({ PRESSROOM_SITE_URL: 'http://example.com:8080/news/press-room/' })).toMatchObject({
      siteUrl: 'http://example.com:8080/news/press-room',
      siteOrigin: 'http://example.com:8080',
      basePath: '/news/press-room',
    });
    expect(loadConfig({ PRESSROOM_SITE_URL: 'https://press.example.com/' })).toMatchObject({
      siteOrigin: 'https://press.example.com',
      basePath: '/',
    });
    expect(loadConfig({})).toMatchObject({ siteOrigin: 'http://localhost:4321', basePath: '/' });
  });

  it('PRESSROOM_SITE_URL: a query, a fragment, dot segments, empty or encoded parts are one line each', () => {
    for (const value of ['https://example.com/press?lang=en', 'https://example.com/press/#top']) {
      const bad = configError({ PRESSROOM_SITE_URL: value });
      expectOneLine(bad, 'PRESSROOM_SITE_URL');
      expect(bad.message).toBe(
        `PRESSROOM_SITE_URL must be an http:// or https:// URL (the public site, e.g. https://press.example.com or https://example.com/press/) without a query or fragment, got "${value}"`,
      );
    }
    for (const value of [
      'https://example.com/a/../press/',
      'https://example.com/./press',
      'https://example.com/press/..',
      'https://example.com//press',
      'https://example.com/%2e%2e/press',
      'https://example.com/.well-known/',
      'https://example.com/pr ess/',
    ]) {
      const bad = configError({ PRESSROOM_SITE_URL: value });
      expectOneLine(bad, 'PRESSROOM_SITE_URL');
      expect(bad.message).toBe(
        `PRESSROOM_SITE_URL must be an http:// or https:// URL whose path, if any, is plain folder names (letters, digits, -, _, ., ~; no "..", no empty or encoded parts), e.g. https://example.com/press/, got ${JSON.stringify(value)}`,
      );
    }
  });

  it('PRESSROOM_SNAPSHOT', () => {
    const bad = configError({ PRESSROOM_SNAPSHOT: 'snap\0shot' });
    expectOneLine(bad, 'PRESSROOM_SNAPSHOT');
    expect(bad.message).toBe('PRESSROOM_SNAPSHOT must be a folder path, got "snap\\u0000shot"');
  });

  it('PRESSROOM_IMAGE_HOSTS', () => {
    const bad = configError({ PRESSROOM_IMAGE_HOSTS: 'images.example.com, https://cdn.example.net/' });
    expectOneLine(bad, 'PRESSROOM_IMAGE_HOSTS');
    expect(bad.message).toContain('a comma-separated list of host names');
    expect(bad.message).toContain('got "images.example.com, https://cdn.example.net/"');
  });

  it.each(['abc', '0', '65', '8.5', '-1'])('PRESSROOM_CONCURRENCY=%s', (value) => {
    const bad = configError({ PRESSROOM_CONCURRENCY: value });
    expectOneLine(bad, 'PRESSROOM_CONCURRENCY');
    expect(bad.message).toBe(`PRESSROOM_CONCURRENCY must be an integer from 1 to 64, got "${value}"`);
  });

  it('PRESSROOM_WEBHOOK_SECRET (the value is hidden)', () => {
    const bad = configError({ PRESSROOM_WEBHOOK_SECRET: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2' });
    expectOneLine(bad, 'PRESSROOM_WEBHOOK_SECRET');
    expect(bad.message).toBe('PRESSROOM_WEBHOOK_SECRET must be a secret starting with "whsec_" followed by its base64 key, got (hidden)');
    expect(bad.message).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2');
  });

  it('PRESSROOM_DEPLOY_COMMAND', () => {
    const bad = configError({ PRESSROOM_DEPLOY_COMMAND: 'deploy\0now' });
    expectOneLine(bad, 'PRESSROOM_DEPLOY_COMMAND');
  });

  it('PRESSROOM_WEBSUB_HUB: an http(s) URL kept as written, never with a password (every feed names it)', () => {
    expect(loadConfig({}).websubHub).toBeUndefined();
    expect(loadConfig({ PRESSROOM_WEBSUB_HUB: 'https://pubsubhubbub.appspot.com/' }).websubHub).toBe('https://pubsubhubbub.appspot.com/');
    expect(loadConfig({ PRESSROOM_WEBSUB_HUB: 'https://Hub.Example.com/publish' }).websubHub).toBe('https://hub.example.com/publish');
    const bad = configError({ PRESSROOM_WEBSUB_HUB: 'hub.example.com' });
    expectOneLine(bad, 'PRESSROOM_WEBSUB_HUB');
    expect(bad.message).toContain('WebSub hub');
    const withPassword = configError({ PRESSROOM_WEBSUB_HUB: 'https://me:hunter2pass@hub.example.com/' });
    expect(withPassword.message).toContain('without a user name or password');
    expect(withPassword.message).not.toContain('hunter2pass');
  });

  it('PRESSROOM_INDEXNOW_KEY: 8 to 128 of [a-zA-Z0-9-], never echoed nor serialised; the endpoint only with a key', () => {
    const key = 'a1b2c3d4-e5f6-SECRETISH';
    const config = loadConfig({ PRESSROOM_INDEXNOW_KEY: key });
    expect(config.indexNowKey).toBe(key);
    expect(config.indexNowEndpoint).toBe('https://api.indexnow.org/indexnow');
    expect(JSON.stringify(config)).not.toContain(key);
    expect(inspect(config, { depth: 5 })).not.toContain(key);
    expect(loadConfig({ PRESSROOM_INDEXNOW_KEY: 'x'.repeat(128) }).indexNowKey).toHaveLength(128);
    for (const wrong of ['short12', 'x'.repeat(129), 'has_underscore1', 'has space 123', 'ключ-ключ-ключ']) {
      const bad = configError({ PRESSROOM_INDEXNOW_KEY: wrong });
      expectOneLine(bad, 'PRESSROOM_INDEXNOW_KEY');
      expect(bad.message).toBe(
        'PRESSROOM_INDEXNOW_KEY must be an IndexNow key: 8 to 128 letters a-z, A-Z, digits 0-9 or dashes, got (hidden)',
      );
    }
    expect(
      loadConfig({ PRESSROOM_INDEXNOW_KEY: key, PRESSROOM_INDEXNOW_ENDPOINT: 'http://127.0.0.1:4011/indexnow' }).indexNowEndpoint,
    ).toBe('http://127.0.0.1:4011/indexnow');
    expectOneLine(
      configError({ PRESSROOM_INDEXNOW_KEY: key, PRESSROOM_INDEXNOW_ENDPOINT: 'api.indexnow.org' }),
      'PRESSROOM_INDEXNOW_ENDPOINT',
    );
    const alone = configError({ PRESSROOM_INDEXNOW_ENDPOINT: 'https://www.bing.com/indexnow' });
    expect(alone.message).toMatch(/^PRESSROOM_INDEXNOW_ENDPOINT is set but PRESSROOM_INDEXNOW_KEY is not: /);
  });

  it('reports the first wrong variable in contract order and lists all of them', () => {
    const bad = configError({ PRESSROOM_CONCURRENCY: 'many', PRESSROOM_API_URL: 'nope', PRESSROOM_API_KEY: `${KEY} x` });
    expect(bad.variable).toBe('PRESSROOM_API_URL');
    expect(bad.problems).toHaveLength(3);
    expect(bad.problems.map((p) => p.split(' ')[0])).toEqual(['PRESSROOM_API_URL', 'PRESSROOM_API_KEY', 'PRESSROOM_CONCURRENCY']);
    expect(JSON.stringify(bad)).not.toContain(KEY);
    expect(inspect(bad)).not.toContain(KEY);
  });
});

describe('the .env file', () => {
  it('fills in the variables the environment does not set, and never overrides one it does', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dot-env-'));
    try {
      const env: NodeJS.ProcessEnv = { PRESSROOM_ID: '4201' };
      expect(loadDotEnv(dir, env)).toEqual([]);
      await writeFile(
        path.join(dir, '.env'),
        [
          '# the press room',
          'PRESSROOM_SITE_URL=https://press.example.com',
          'PRESSROOM_ID=9999',
          'PRESSROOM_API_KEY="sk_live_quoted#value"',
          '',
        ].join('\n'),
      );
      expect(loadDotEnv(dir, env).sort()).toEqual(['PRESSROOM_API_KEY', 'PRESSROOM_SITE_URL']);
      expect(env).toEqual({
        PRESSROOM_ID: '4201',
        PRESSROOM_SITE_URL: 'https://press.example.com',
        PRESSROOM_API_KEY: 'sk_live_quoted#value',
      });
      expect(loadConfig({ ...env, PRESSROOM_API_URL: 'https://api.example.com' }).siteUrl).toBe('https://press.example.com');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
