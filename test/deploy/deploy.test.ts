/**
 * `npm run deploy` end to end against a real S3-compatible server (s3rver,
 * test/helpers/s3-server.ts) with the real AWS SDK: what lands in the bucket
 * (bytes, types, cache headers), what each deploy sends and in which order
 * (the server's own request log), a server killed midway, a bucket changed
 * behind the deploy's back, --dry-run, and secrets kept out of every line.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startS3Server, type LoggedRequest, type S3Server } from '../helpers/s3-server.ts';
import { decodeManifest, siteDigest } from '../../deploy/manifest.ts';
import { buildSite, firstVersion, secondVersion, type SiteVersion } from './site-versions.ts';
import { SOURCE_CONDITION_FLAG } from '../../src/config/source-condition.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const MANIFEST = 'site/.pressroom-deploy.json.gz';
const UNDER_WAY = 'site/.pressroom-deploy.under-way';

let tmp: string;
let site: string;
let s3: S3Server;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deploy-'));
  site = path.join(tmp, 'dist');
  s3 = await startS3Server();
});
afterEach(async () => {
  await s3.dispose();
  await rm(tmp, { recursive: true, force: true });
});

/** The command's environment: the server's AWS variables and nothing of the host's AWS or PRESSROOM_* settings. */
export function deployEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^(AWS_|PRESSROOM_|CF_|FASTLY_)/.test(name)) delete env[name];
  return { ...env, ...s3.env, ...extra };
}

export function deploy(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOURCE_CONDITION_FLAG, path.join(root, 'scripts', 'deploy.ts'), ...args], {
      cwd: root,
      env: deployEnv(extra),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const client = () =>
  new S3Client({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

/** Every object under `site/` (the manifest left out), by site path. */
async function bucketSite(): Promise<Map<string, StoredObject>> {
  const s3client = client();
  const listed = await s3client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'site/' }));
  const objects = new Map<string, StoredObject>();
  for (const { Key } of listed.Contents ?? []) {
    if (Key === MANIFEST) continue;
    const object = await s3client.send(new GetObjectCommand({ Bucket: s3.bucket, Key }));
    objects.set(Key!.slice('site/'.length), {
      body: Buffer.from(await object.Body!.transformToByteArray()),
      contentType: object.ContentType,
      cacheControl: object.CacheControl,
    });
  }
  s3client.destroy();
  return objects;
}

const asBuffer = (content: string | Buffer) => (typeof content === 'string' ? Buffer.from(content) : content);

/** The bucket serves exactly `version` (and, besides, the files in `alsoKept`). */
async function expectBucketToServe(version: SiteVersion, alsoKept: string[] = []) {
  const objects = await bucketSite();
  expect([...objects.keys()].sort()).toEqual([...Object.keys(version), ...alsoKept].sort());
  for (const [file, content] of Object.entries(version)) expect(objects.get(file)!.body.equals(asBuffer(content)), file).toBe(true);
}

/** Every page in the bucket finds every stylesheet, script and media file it names. */
async function expectCoherent() {
  const objects = await bucketSite();
  for (const [file, object] of objects) {
    if (!file.endsWith('.html')) continue;
    for (const [, named] of object.body.toString().matchAll(/(?:href|src)="\/(_astro\/[^"]+|_media\/[^"]+)"/g))
      expect(objects.has(named!), `${file} names ${named}`).toBe(true);
  }
}

/**
 * The manifest in the bucket records exactly `version` (each file's size, ETag and SHA-256, and the
 * site's digest) and `retired`: what a manifest made whole from the site would say.
 */
async function expectManifestOf(version: SiteVersion, retired: string[] = []) {
  const s3client = client();
  const stored = await s3client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: MANIFEST }));
  const manifest = decodeManifest(await stored.Body!.transformToByteArray())!;
  s3client.destroy();
  const entryOf = (content: string | Buffer) => {
    const bytes = asBuffer(content);
    return [bytes.length, createHash('md5').update(bytes).digest('hex'), createHash('sha256').update(bytes).digest('hex')];
  };
  const files = Object.fromEntries(Object.entries(version).map(([file, content]) => [file, entryOf(content)]));
  expect(manifest.files).toEqual(files);
  expect(Object.keys(manifest.files)).toEqual(Object.keys(files).sort());
  expect(manifest.site).toBe(siteDigest(Object.entries(files).map(([file, [, , sha256]]) => [file, sha256 as string])));
  expect(Object.keys(manifest.retired)).toEqual(retired);
}

const writes = (requests: LoggedRequest[]) => requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
const putKeys = (requests: LoggedRequest[]) => requests.filter((r) => r.method === 'PUT').map((r) => r.key.replace(/^site\//, ''));
const target = () => `s3://${s3.bucket}/site`;
/** A ListObjectsV2 request (a GET of the bucket itself). */
const isListing = (r: LoggedRequest) => r.method === 'GET' && r.key === '';

/** Every key in the bucket, the deploy's own objects too. */
async function bucketKeys(): Promise<string[]> {
  const s3client = client();
  const listed = await s3client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  s3client.destroy();
  return (listed.Contents ?? []).map(({ Key }) => Key!);
}

describe('npm run deploy', () => {
  it('a first deploy puts the whole site, each file with its Content-Type and Cache-Control', async () => {
    await buildSite(site, firstVersion());
    const run = await deploy([target(), '--from', site]);
    expect(run.stderr).toBe('');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no deploy manifest in the bucket');
    await expectBucketToServe(firstVersion());
    const objects = await bucketSite();
    const headers = (file: string) => [objects.get(file)!.contentType, objects.get(file)!.cacheControl];
    const immutable = 'public, max-age=31536000, immutable';
    const revalidated = 'public, max-age=60, must-revalidate';
    expect(headers('index.html')).toEqual(['text/html; charset=utf-8', revalidated]);
    expect(headers('1-launch/index.md')).toEqual(['text/markdown; charset=utf-8', revalidated]);
    expect(headers('_astro/Base.AAAA1111.css')).toEqual(['text/css; charset=utf-8', immutable]);
    expect(headers('_astro/page.CCCC3333.js')).toEqual(['text/javascript; charset=utf-8', immutable]);
    expect(headers('_media/1111aaaa-10x10.webp')).toEqual(['image/webp', immutable]);
    expect(headers('_media/2222bbbb.zip')).toEqual(['application/zip', immutable]);
    expect(headers('favicon.ico')).toEqual(['image/x-icon', revalidated]);
    expect(headers('icon-192.png')).toEqual(['image/png', revalidated]);
    expect(headers('logo.svg')).toEqual(['image/svg+xml; charset=utf-8', revalidated]);
    expect(headers('site.webmanifest')).toEqual(['application/manifest+json; charset=utf-8', revalidated]);
    expect(headers('events/calendar.ics')).toEqual(['text/calendar; charset=utf-8', revalidated]);
    expect(headers('contacts/1-ada.vcf')).toEqual(['text/vcard; charset=utf-8', revalidated]);
    expect(headers('pagefind/en/pagefind-entry.json')).toEqual(['application/json; charset=utf-8', revalidated]);
    expect(headers('pagefind/en/fragment/en_abc1234.pf_fragment')).toEqual(['application/octet-stream', immutable]);
    expect(headers('pagefind/en/wasm.en.pagefind')).toEqual(['application/octet-stream', revalidated]);
    expect(headers('rss.xml')).toEqual(['application/xml; charset=utf-8', revalidated]);
    expect(headers('robots.txt')).toEqual(['text/plain; charset=utf-8', revalidated]);
    // The manifest is the last write, then the marker of a deploy under way goes (written before the first page).
    expect(writes(s3.requests).at(-2)).toMatchObject({ method: 'PUT', key: MANIFEST });
    expect(writes(s3.requests).at(-1)).toMatchObject({ method: 'POST', query: expect.stringContaining('delete') });
    expect(await bucketKeys()).not.toContain(UNDER_WAY);
  });

  it('one changed release: only its files, assets before pages before feeds, deletions last, old hashed assets kept one deploy', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    const report = await buildSite(site, secondVersion());
    s3.requests.length = 0;
    const run = await deploy([target(), '--from', site]);
    expect(run.code, run.stderr).toBe(0);
    const changed = [...report.added, ...report.changed].map((entry) => entry.path);
    expect(run.stdout).toContain('compared through the change report');
    // The last deploy finished: the manifest and the under-way marker's absence are read, the bucket is not listed.
    expect(s3.requests.filter((r) => r.method === 'GET').map((r) => r.key)).toEqual(expect.arrayContaining([MANIFEST, UNDER_WAY]));
    expect(s3.requests.filter(isListing)).toEqual([]);
    expect(putKeys(s3.requests).sort()).toEqual([...changed, '.pressroom-deploy.json.gz', '.pressroom-deploy.under-way'].sort());
    // Order, from the server's log: hashed assets, the marker, pages, feeds and indexes, then the deletion, the manifest, the marker's removal.
    const order = writes(s3.requests).map((r) => (r.query.includes('delete') ? 'DELETE' : r.key.replace(/^site\//, '')));
    const at = (file: string) => order.indexOf(file);
    const pages = changed.filter((file) => file.endsWith('.html'));
    for (const file of pages) expect(at('_astro/Base.BBBB2222.css')).toBeLessThan(at(file));
    for (const file of pages) expect(at('.pressroom-deploy.under-way')).toBeLessThan(at(file));
    for (const file of pages) expect(at(file)).toBeLessThan(at('rss.xml'));
    expect(at('sitemap-0.xml')).toBeGreaterThan(Math.max(...pages.map(at)));
    expect(order.slice(-3)).toEqual(['DELETE', '.pressroom-deploy.json.gz', 'DELETE']);
    expect((await bucketKeys()).includes(UNDER_WAY)).toBe(false);
    // The unpublished page is gone; the old stylesheet stays for pages a CDN or browser still holds.
    await expectBucketToServe(secondVersion(), ['_astro/Base.AAAA1111.css']);
    await expectCoherent();
    // The manifest, patched where the report changed the site, records it as one made whole would.
    await expectManifestOf(secondVersion(), ['_astro/Base.AAAA1111.css']);

    // The next deploy that changes anything removes it.
    const third = { ...secondVersion(), 'index.html': '<h1>changed again</h1>', '0-first/index.html': '<h1>First</h1>' };
    await buildSite(site, third);
    const thirdRun = await deploy([target(), '--from', site]);
    expect(thirdRun.stdout).toContain('compared through the change report');
    await expectBucketToServe(third);
    await expectManifestOf(third);
  });

  it('a deploy with nothing changed reads the listing and the manifest and writes nothing', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    await buildSite(site, firstVersion());
    s3.requests.length = 0;
    const run = await deploy([target(), '--from', site]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('0 to upload, 0 to delete');
    // The listing and the manifest are read at once: in either order.
    expect(s3.requests.map((r) => `${r.method} ${r.key}`).sort()).toEqual(['GET ', `GET ${MANIFEST}`]);
  });

  it('a server stopped midway: exit 1 with one line, the bucket still coherent, and the next deploy completes it', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    await buildSite(site, secondVersion());
    let stopping: Promise<void> | undefined;
    s3.onRequest = (request) => {
      if (request.method === 'PUT' && request.key.endsWith('.html')) stopping ??= s3.stop();
    };
    const failed = await deploy([target(), '--from', site]);
    await stopping;
    expect(failed.code).toBe(1);
    // The marker of a deploy under way stays, so the next deploy lists the bucket.
    expect(putKeys(s3.requests)).toContain('.pressroom-deploy.under-way');
    expect(failed.stderr.split('\n')[0]).toMatch(/^deploy failed: uploading \S+ \(pages\) failed after \d+ of \d+ uploads: /);
    expect(failed.stderr).not.toMatch(/\n\s+at /);

    // The same bucket, served again: old pages with the assets they name, the new assets already there.
    s3 = await startS3Server({ directory: s3.directory });
    await expectCoherent();
    const between = await bucketSite();
    expect(between.has('_astro/Base.BBBB2222.css')).toBe(true);
    expect(between.get('rss.xml')!.body.toString()).toBe(firstVersion()['rss.xml']);
    expect(between.has('2-results/index.html')).toBe(true);

    const healed = await deploy([target(), '--from', site]);
    expect(healed.code).toBe(0);
    expect(healed.stdout).toContain('the bucket changed since the last deploy');
    await expectBucketToServe(secondVersion(), ['_astro/Base.AAAA1111.css']);
    await expectCoherent();
  });

  it('a bucket changed behind the deploy’s back is found through the listing and put right', async () => {
    await buildSite(site, secondVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    const s3client = client();
    await s3client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'site/3-award/index.html' }));
    await s3client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'site/rss.xml', Body: 'tampered' }));
    await s3client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'site/stray.html', Body: 'not ours' }));
    s3client.destroy();
    // The site did not change (its report lists nothing), but the bucket did.
    await buildSite(site, secondVersion());
    s3.requests.length = 0;
    const run = await deploy([target(), '--from', site]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('the bucket changed since the last deploy');
    // Put back as they were, the objects have the ETags the manifest records: it stands as it is.
    expect(putKeys(s3.requests).sort()).toEqual(['.pressroom-deploy.under-way', '3-award/index.html', 'rss.xml']);
    await expectBucketToServe(secondVersion());
  });

  it('drift behind the back of a deploy that trusts the manifest is put right by the next deploy with nothing to upload', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    const s3client = client();
    await s3client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'site/robots.txt', Body: 'tampered' }));
    s3client.destroy();
    await buildSite(site, secondVersion());
    s3.requests.length = 0;
    const changed = await deploy([target(), '--from', site]);
    expect(changed.stdout).toContain('compared through the change report');
    expect(s3.requests.filter(isListing)).toEqual([]);
    // The cron's next run, nothing changed: the listing finds the object the manifest does not record.
    await buildSite(site, secondVersion());
    const check = await deploy([target(), '--from', site]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('the bucket changed since the last deploy: robots.txt is not as the last deploy put it');
    // It changed the bucket, so the stylesheet retired one deploy ago goes too.
    await expectBucketToServe(secondVersion());
  });

  it('a site folder that is not as its change report says (a removed page put back by hand) is compared with the listing', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    await buildSite(site, secondVersion());
    // The manifest is trusted, so the folder is not walked: the files the report removed are looked for.
    await mkdir(path.join(site, '2-results'), { recursive: true });
    await writeFile(path.join(site, '2-results', 'index.html'), firstVersion()['2-results/index.html']!);
    s3.requests.length = 0;
    const run = await deploy([target(), '--from', site]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('compared with the bucket');
    expect(run.stdout).toContain('the site folder holds other files than its change report says');
    expect(s3.requests.filter(isListing)).not.toEqual([]);
    await expectBucketToServe({ ...secondVersion(), '2-results/index.html': firstVersion()['2-results/index.html']! }, [
      '_astro/Base.AAAA1111.css',
    ]);
  });

  it('--verify: uploads from the change report while the listing runs, and the drift the listing shows is still put right', async () => {
    await buildSite(site, firstVersion());
    expect((await deploy([target(), '--from', site])).code).toBe(0);
    const s3client = client();
    await s3client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'site/_media/1111aaaa-10x10.webp' }));
    await s3client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'site/robots.txt', Body: 'tampered' }));
    s3client.destroy();
    const report = await buildSite(site, secondVersion());
    s3.requests.length = 0;
    const run = await deploy([target(), '--from', site, '--verify']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('while the bucket is listed');
    expect(run.stdout).toContain('the bucket changed since the last deploy');
    // The report's files and the two drifted ones (files the report says are unchanged), each put once.
    const changed = [...report.added, ...report.changed].map((entry) => entry.path);
    const puts = putKeys(s3.requests);
    expect(puts.sort()).toEqual(
      [...changed, '_media/1111aaaa-10x10.webp', 'robots.txt', '.pressroom-deploy.json.gz', '.pressroom-deploy.under-way'].sort(),
    );
    await expectBucketToServe(secondVersion(), ['_astro/Base.AAAA1111.css']);
    await expectCoherent();
    // The manifest records the bucket as it is now: the next deploy of the same site finds nothing to do.
    await buildSite(site, secondVersion());
    const again = await deploy([target(), '--from', site]);
    expect(again.stdout).toContain('compared through the change report');
    expect(again.stdout).toContain('0 to upload, 0 to delete');
  });

  it('--dry-run says what it would do and writes nothing', async () => {
    await buildSite(site, firstVersion());
    const run = await deploy([target(), '--from', site, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/would upload \d+ \(pages\): /);
    expect(run.stdout).toContain(`dry run: ${Object.keys(firstVersion()).length} to upload`);
    expect(writes(s3.requests)).toEqual([]);
    expect(await bucketSite()).toEqual(new Map());
  });

  it('usage errors are one line and exit 2; a missing bucket is one line and exit 1', async () => {
    const help = await deploy(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n')[0]).toBe(
      'usage: npm run deploy -- s3://BUCKET[/PREFIX] [--from DIR] [--dry-run] [--verify] [--purge CDN] [--concurrency N] [--wait SECONDS] [--notify]',
    );
    expect(help.stdout).toMatch(/^ {2}AWS_ENDPOINT_URL_S3 /m);
    for (const [args, line] of [
      [[], 'deploy: the target s3://BUCKET[/PREFIX] is required'],
      [['http://bucket'], 'deploy: the target must look like s3://BUCKET or s3://BUCKET/PREFIX, got "http://bucket"'],
      [
        ['s3://press', '--from', path.join(tmp, 'nothing')],
        `deploy: ${path.join(tmp, 'nothing')} is not a folder; build the site first (npm run build) or name it with --from DIR`,
      ],
      [['s3://press', '--purge', 'akamai'], 'deploy: --purge must be one of cloudflare, fastly, got "akamai"'],
      [['s3://press', '--purge', 'cloudflare'], 'deploy: --purge cloudflare needs CF_ZONE_ID'],
    ] as const) {
      const run = await deploy([...args, ...((args as readonly string[]).includes('--from') ? [] : ['--from', tmp])]);
      expect(run.code, line).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(line);
    }
    await buildSite(site, firstVersion());
    const missing = await deploy(['s3://no-such-bucket', '--from', site]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.split('\n')[0]).toMatch(
      /^deploy failed: deploy to s3:\/\/no-such-bucket\/ failed: The specified bucket does not exist/,
    );
  });
});
