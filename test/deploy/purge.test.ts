/**
 * `--purge cloudflare|fastly` after a deploy, against a local server that
 * answers the requests each CDN documents (Cloudflare: POST
 * /client/v4/zones/{zone}/purge_cache with `files` or `purge_everything`, a
 * Bearer token; Fastly: POST /purge/{host}/{path} and
 * /service/{id}/purge_all with Fastly-Key): batches within their limits, the
 * URLs of exactly what changed, a failed purge as one line and exit 1 after the
 * upload, and no credential in any line the command prints.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeReportPath, urlsOfFile } from '../../scripts/change-report.ts';
import { announcementOf, reportedChanges } from '../../notify/urls.ts';
import { startHub, startIndexNow } from '../notify/servers.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { SITE_URL, buildSite, firstVersion, secondVersion } from './site-versions.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
// s3rver knows one access key id (S3RVER) but takes any secret: the secret is what a signature hides.
const SECRETS = {
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-secret-never-shown',
  CF_API_TOKEN: 'cf-token-never-shown-0123456789',
  FASTLY_API_TOKEN: 'fastly-token-never-shown-abcdef',
};

interface CdnRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A CDN purge API on 127.0.0.1:0: answers as Cloudflare and Fastly document, or fails with `status` when set. */
async function startCdnApi() {
  const state = { requests: [] as CdnRequest[], status: 200, echo: false };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      state.requests.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.statusCode = state.status;
      // A careless API may echo what it was sent; the command must still print no token.
      const said = state.echo
        ? `bad credentials ${req.headers.authorization ?? ''}${req.headers['fastly-key'] ?? ''}`
        : 'Authentication error';
      if (req.url!.startsWith('/client/v4/'))
        res.end(
          JSON.stringify(
            state.status === 200
              ? { success: true, errors: [], messages: [], result: { id: 'x' } }
              : { success: false, errors: [{ code: 10000, message: said }] },
          ),
        );
      else res.end(JSON.stringify(state.status === 200 ? { status: 'ok', id: 'x' } : { msg: said }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let tmp: string;
let site: string;
let s3: S3Server;
let cdn: Awaited<ReturnType<typeof startCdnApi>>;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deploy-purge-'));
  site = path.join(tmp, 'dist');
  [s3, cdn] = await Promise.all([startS3Server(), startCdnApi()]);
});
afterEach(async () => {
  await Promise.all([s3.dispose(), cdn.close()]);
  await rm(tmp, { recursive: true, force: true });
});

function deploy(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^(AWS_|PRESSROOM_|CF_|FASTLY_)/.test(name)) delete env[name];
  Object.assign(env, s3.env, SECRETS, {
    CF_ZONE_ID: 'zone123',
    CF_API_URL: `${cdn.url}/client/v4`,
    FASTLY_SERVICE_ID: 'service456',
    FASTLY_API_URL: cdn.url,
    ...extraEnv,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [SOURCE_CONDITION_FLAG, path.join(root, 'scripts', 'deploy.ts'), `s3://${s3.bucket}/site`, '--from', site, ...args],
      {
        cwd: root,
        env,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: stdout + stderr, stderr }));
  });
}

const expectNoSecret = (output: string) => {
  for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
};

describe('deploy --purge', () => {
  it('cloudflare: everything after a first deploy, then the changed URLs in calls of 30 with the token as Bearer', async () => {
    await buildSite(site, firstVersion());
    const first = await deploy(['--purge', 'cloudflare']);
    expect(first.code).toBe(0);
    expect(cdn.state.requests.map((r) => [r.method, r.path, JSON.parse(r.body)])).toEqual([
      ['POST', '/client/v4/zones/zone123/purge_cache', { purge_everything: true }],
    ]);
    expect(cdn.state.requests[0]!.headers.authorization).toBe(`Bearer ${SECRETS.CF_API_TOKEN}`);

    const report = await buildSite(site, secondVersion(20));
    cdn.state.requests.length = 0;
    const second = await deploy(['--purge', 'cloudflare']);
    expect(second.code).toBe(0);
    const batches = cdn.state.requests.map((r) => (JSON.parse(r.body) as { files: string[] }).files);
    expect(batches.every((batch) => batch.length <= 30)).toBe(true);
    expect(batches.length).toBeGreaterThan(1);
    // What changed, less the old stylesheet: it is kept, serving the same bytes to pages still cached.
    const expected = [...report.added, ...report.changed, ...report.removed]
      .filter((entry) => entry.path !== '_astro/Base.AAAA1111.css')
      .flatMap((entry) => urlsOfFile(entry.path).map((url) => `${SITE_URL}${url}`));
    expect(batches.flat().sort()).toEqual([...new Set(expected)].sort());
    expectNoSecret(first.output + second.output);
  });

  it('fastly: one soft purge per changed URL with the Fastly-Key, the whole service after a first deploy', async () => {
    await buildSite(site, firstVersion());
    const first = await deploy(['--purge', 'fastly']);
    expect(first.output).not.toMatch(/failed/);
    expect(first.code).toBe(0);
    expect(cdn.state.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /service/service456/purge_all']);
    expect(cdn.state.requests[0]!.headers['fastly-key']).toBe(SECRETS.FASTLY_API_TOKEN);
    await buildSite(site, { ...firstVersion(), 'rss.xml': '<rss/>', 'index.html': '<h1>new</h1>' });
    cdn.state.requests.length = 0;
    const run = await deploy(['--purge', 'fastly']);
    expect(run.code).toBe(0);
    expect(cdn.state.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'POST /purge/press.example.com/',
      'POST /purge/press.example.com/index.html',
      'POST /purge/press.example.com/rss.xml',
    ]);
    expect(
      cdn.state.requests.every((r) => r.headers['fastly-soft-purge'] === '1' && r.headers['fastly-key'] === SECRETS.FASTLY_API_TOKEN),
    ).toBe(true);
  });

  it('a refused purge: one line and exit 1 after the upload, and no credential in any line', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([])).code).toBe(0);
    await buildSite(site, secondVersion());
    cdn.state.status = 403;
    cdn.state.echo = true;
    for (const cdnName of ['cloudflare', 'fastly']) {
      const run = await deploy(['--purge', cdnName]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^deploy: uploaded, but the purge failed: (Cloudflare|Fastly) purge of .+ failed: HTTP 403 \(.*\*\*\*/);
      expectNoSecret(run.output);
    }
    // The upload itself went through; the URLs stay due until a purge succeeds.
    cdn.state.status = 200;
    cdn.state.requests.length = 0;
    const retried = await deploy(['--purge', 'cloudflare']);
    expect(retried.code).toBe(0);
    expect(JSON.parse(cdn.state.requests[0]!.body).files).toContain(`${SITE_URL}/3-award/`);
    cdn.state.requests.length = 0;
    expect((await deploy(['--purge', 'cloudflare'])).code).toBe(0);
    expect(cdn.state.requests).toEqual([]);
    expect(s3.requests.some((r) => r.method === 'PUT' && r.key === 'site/3-award/index.html')).toBe(true);
    // Nor in the failure of the bucket itself.
    const missing = await new Promise<string>((resolve) => {
      const env = { ...process.env, ...s3.env, ...SECRETS };
      const child = spawn(
        process.execPath,
        [SOURCE_CONDITION_FLAG, path.join(root, 'scripts', 'deploy.ts'), 's3://no-such-bucket', '--from', site],
        {
          cwd: root,
          env,
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', () => resolve(output));
    });
    expect(missing).toMatch(/deploy failed/);
    expectNoSecret(missing);
  });
});

describe('deploy --notify', () => {
  it('tells the WebSub hub and IndexNow what the deploy changed once it is uploaded and purged (after a refused purge: by the deploy whose purge succeeds); nobody when the receiver runs it', async () => {
    const key = 'd3ploy-notify-key-2026';
    const purgedAtPing: boolean[] = [];
    const [hub, indexNow] = await Promise.all([startHub(() => purgedAtPing.push(cdn.state.requests.length > 0)), startIndexNow()]);
    const notifyEnv = { PRESSROOM_WEBSUB_HUB: hub.url, PRESSROOM_INDEXNOW_KEY: key, PRESSROOM_INDEXNOW_ENDPOINT: indexNow.url };
    try {
      await buildSite(site, firstVersion());
      expect((await deploy([])).code).toBe(0);
      const report = await buildSite(site, secondVersion());
      cdn.state.status = 403;
      const refused = await deploy(['--purge', 'cloudflare', '--notify'], notifyEnv);
      expect(refused.code).toBe(1);
      expect([hub.raw, indexNow.raw]).toEqual([[], []]);

      cdn.state.status = 200;
      cdn.state.requests.length = 0;
      const run = await deploy(['--purge', 'cloudflare', '--notify'], notifyEnv);
      expect(run.code).toBe(0);
      const told = announcementOf(reportedChanges(report));
      expect(told).toEqual({
        feeds: [`${SITE_URL}/rss.xml`],
        pages: [`${SITE_URL}/`, `${SITE_URL}/1-launch/`, `${SITE_URL}/2-results/`, `${SITE_URL}/3-award/`],
      });
      expect(hub.received).toEqual([told.feeds]);
      expect(purgedAtPing).toEqual([true]);
      expect(indexNow.received).toEqual([{ host: 'press.example.com', key, keyLocation: `${SITE_URL}/${key}.txt`, urlList: told.pages }]);
      expect(run.output).toMatch(/^notify: WebSub hub \S+ told of 1 changed feed$/m);
      expect(run.output).not.toContain(key);

      // As the webhook receiver's deploy command: the receiver tells them once the command succeeded.
      await buildSite(site, secondVersion(2));
      const asCommand = await deploy(['--notify'], { ...notifyEnv, PRESSROOM_SITE_DIR: site, PRESSROOM_CHANGES: changeReportPath(site) });
      expect(asCommand.code).toBe(0);
      expect(asCommand.output).toContain('deploy: --notify left to the webhook receiver');
      expect(hub.received).toHaveLength(1);
      expect(indexNow.received).toHaveLength(1);

      const nobody = await deploy(['--notify']);
      expect(nobody.code).toBe(2);
      expect(nobody.stderr.split('\n')[0]).toBe(
        'deploy: --notify needs PRESSROOM_WEBSUB_HUB or PRESSROOM_INDEXNOW_KEY (see docs/operating.md)',
      );
    } finally {
      await Promise.all([hub.close(), indexNow.close()]);
    }
  });
});
