/**
 * The deploy's small parts on their own: targets, headers, phases, multipart
 * ETags (s3rver stores a multipart upload with a whole-file MD5, so the S3
 * rule is checked here against digests made by hand), the listing plan over
 * objects another tool uploaded in parts, and the redaction of secrets.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlOf, contentTypeOf, isContentHashed } from '../../deploy/headers.ts';
import { decodeManifest, encodeManifest, manifestOf, patchedManifest, siteDigest, type ManifestEntry } from '../../deploy/manifest.ts';
import { inPhases } from '../../deploy/phases.ts';
import { makePlan } from '../../deploy/plan.ts';
import { redactor } from '../../deploy/redact.ts';
import { digestFile, matchesMultipartEtag, multipartEtag } from '../../deploy/site-files.ts';
import { parseTarget } from '../../deploy/target.ts';
import { treeDigest } from '../../scripts/output-tree.ts';

let tmp: string;
const MiB = 1024 * 1024;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'deploy-parts-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('deploy parts', () => {
  it('reads s3://BUCKET[/PREFIX] and refuses anything else', () => {
    expect(parseTarget('s3://press')).toEqual({ bucket: 'press', prefix: '' });
    expect(parseTarget('s3://press/site/en/')).toEqual({ bucket: 'press', prefix: 'site/en/' });
    expect(() => parseTarget('press/site')).toThrow(/must look like s3:\/\/BUCKET/);
    expect(() => parseTarget('s3://Press')).toThrow(/not a bucket name/);
    expect(() => parseTarget('s3://press/../x')).toThrow(/'\.' or '\.\.'/);
  });

  it('gives every file the site writes a type, text with charset=utf-8, and long caching only to hashed names', () => {
    expect(contentTypeOf('feeds/en/feed.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('llms-full.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeOf('_media/abcd.pdf')).toBe('application/pdf');
    expect(contentTypeOf('photo.JPG')).toBe('image/jpeg');
    expect(contentTypeOf('no-extension')).toBe('application/octet-stream');
    expect(isContentHashed('_search/search.d1f34b32b3.js')).toBe(true);
    expect(isContentHashed('_search/entry.js')).toBe(false);
    expect(isContentHashed('pagefind/en/pagefind.en_c62f758442.pf_meta')).toBe(true);
    expect(isContentHashed('pagefind/en/pagefind-entry.json')).toBe(false);
    expect(cacheControlOf('index.html')).toBe('public, max-age=60, must-revalidate');
  });

  it('orders uploads: hashed assets, assets, pages, then what names pages', () => {
    const files = [
      'rss.xml',
      'a/index.html',
      '_astro/x.1.css',
      'favicon.ico',
      'robots.txt',
      'llms-full.txt',
      'a/index.md',
      'feeds/en/feed.json',
      'pagefind/en/pagefind-entry.json',
    ];
    expect(inPhases(files)).toEqual([
      { phase: 'hashed assets', files: ['_astro/x.1.css'] },
      { phase: 'assets', files: ['favicon.ico', 'pagefind/en/pagefind-entry.json'] },
      { phase: 'pages', files: ['a/index.html', 'a/index.md'] },
      { phase: 'feeds and indexes', files: ['feeds/en/feed.json', 'llms-full.txt', 'robots.txt', 'rss.xml'] },
    ]);
  });

  it('computes the multipart ETag S3 reports (MD5 of the parts’ MD5s, -N) and matches it for the usual part sizes', async () => {
    const bytes = Buffer.alloc(17 * MiB + 5, 7);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
    const file = path.join(tmp, 'kit.zip');
    await writeFile(file, bytes);
    const byHand = (partSize: number) => {
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += partSize)
        parts.push(
          createHash('md5')
            .update(bytes.subarray(i, i + partSize))
            .digest(),
        );
      return `${createHash('md5').update(Buffer.concat(parts)).digest('hex')}-${parts.length}`;
    };
    expect(await multipartEtag(file, 8 * MiB)).toBe(byHand(8 * MiB));
    expect(await matchesMultipartEtag(file, bytes.length, byHand(8 * MiB))).toBe(true);
    expect(await matchesMultipartEtag(file, bytes.length, byHand(5 * MiB))).toBe(true);
    expect(await matchesMultipartEtag(file, bytes.length, `${'0'.repeat(32)}-3`)).toBe(false);

    // A bucket filled by another tool: the file uploaded in parts is not uploaded again; a changed one is.
    await writeFile(path.join(tmp, 'index.html'), 'new page');
    const files = new Map([
      ['kit.zip', { path: 'kit.zip', size: bytes.length }],
      ['index.html', { path: 'index.html', size: 8 }],
    ]);
    const objects = new Map([
      ['kit.zip', { size: bytes.length, etag: byHand(8 * MiB) }],
      ['index.html', { size: 8, etag: createHash('md5').update('old page').digest('hex') }],
      ['gone.html', { size: 1, etag: 'x' }],
      ['_astro/gone.1.css', { size: 1, etag: 'y' }],
    ]);
    const plan = await makePlan({
      files,
      objects,
      manifest: undefined,
      report: undefined,
      digest: (name) => digestFile(path.join(tmp, name)),
      pathOf: (name) => path.join(tmp, name),
    });
    expect(plan.source.kind).toBe('listing');
    expect(plan.upload).toEqual(['index.html']);
    expect(plan.remove).toEqual(['gone.html']);
    expect([...plan.retire.keys()]).toEqual(['_astro/gone.1.css']);
  });

  it('names a site by the same digest as the build’s change report, and keeps the manifest’s bytes stable', () => {
    const tree = new Map([
      ['b.html', { sha256: 'bb', size: 1, mtimeMs: 1 }],
      ['a.html', { sha256: 'aa', size: 1, mtimeMs: 1 }],
    ]);
    expect(siteDigest([...tree].map(([file, { sha256 }]) => [file, sha256]))).toBe(treeDigest(new Map([...tree].sort())));
    const manifest = manifestOf(new Map([['a.html', [1, 'e', 'aa']]]), new Map(), ['a.html']);
    expect(encodeManifest(manifest).equals(encodeManifest(manifest))).toBe(true);
    expect(decodeManifest(encodeManifest(manifest))).toEqual(manifest);
    expect(decodeManifest(Buffer.from('not gzip'))).toBeUndefined();
  });

  it('patches a manifest into the same bytes as one made whole, deploy after deploy', () => {
    const entry = (file: string, version: number): ManifestEntry => [
      file.length + version,
      `etag-${file}-${version}`,
      `sha-${file}-${version}`,
    ];
    const retired = new Map<string, ManifestEntry>([['_astro/old.1.css', entry('_astro/old.1.css', 0)]]);
    let site = new Map(['b/index.html', 'd.xml', 'f/index.html', '_astro/a.1.css'].map((file) => [file, entry(file, 0)]));
    let recorded = decodeManifest(encodeManifest(manifestOf(site, retired)))!;
    // Each deploy: files put (new ones before, between and after the recorded ones; changed ones) and files gone.
    const deploys: Array<{ put: string[]; gone: string[] }> = [
      { put: ['a.html', 'c/index.html', 'z.xml', 'd.xml'], gone: ['f/index.html'] },
      { put: ['b/index.html', 'e/index.html'], gone: ['_astro/a.1.css', 'a.html', 'z.xml'] },
      { put: ['0.html', 'zz/index.html'], gone: [] },
    ];
    for (const [version, { put, gone }] of deploys.entries()) {
      const putEntries = new Map(put.map((file) => [file, entry(file, version + 1)]));
      site = new Map([...site, ...putEntries]);
      for (const file of gone) site.delete(file);
      const whole = manifestOf(site, retired, ['a.html']);
      const change = { site: whole.site, put: putEntries, gone: new Set(gone) };
      const patched = patchedManifest(recorded, change, retired, ['a.html'])!;
      expect(encodeManifest(patched).equals(encodeManifest(whole)), `deploy ${version + 1}`).toBe(true);
      recorded = decodeManifest(encodeManifest(patched))!;
    }
    // A manifest whose entries are not in path order is not patched: it is made whole.
    const unordered = { ...recorded, files: Object.fromEntries(Object.entries(recorded.files).reverse()) };
    expect(patchedManifest(unordered, { site: recorded.site, put: new Map(), gone: new Set() }, retired)).toBeUndefined();
  });

  it('blanks every credential and URL password in a line', () => {
    const redact = redactor({ AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI', CF_API_TOKEN: 'cf-token-1' });
    expect(redact('AKIAEXAMPLE:wJalrXUtnFEMI Bearer cf-token-1 at https://me:pw@minio.local/x')).toBe(
      '***:*** Bearer *** at https://***@minio.local/x',
    );
  });
});
